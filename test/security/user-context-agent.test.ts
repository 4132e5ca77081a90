/**
 * Sealed secrets end to end: a real AgentBuilder on a real socket, envelopes
 * in the request metadata, `ctx.getSecret` in a skill, and the -32008
 * requirement for callers that do not activate the extension.
 */
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/runtime/logger.js";
import { PodKeyring } from "../../src/security/pod-keyring.js";
import { RecipientKey } from "../../src/security/recipient-key.js";
import { sealEnvelope } from "../../src/security/sealed-envelope.js";
import { USER_CONTEXT_EXTENSION_URI, UserContextExtension } from "../../src/security/user-context-extension.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type RunningServer, rpc, serveAgent, userMessage, V1 } from "../server/support/agent-server.js";

const key = RecipientKey.generate();
const TENANT = { "X-NovaOS-Tenant-Id": "t-1", "X-NovaOS-Instance-Id": "i-1" };
const SECRET = "smtp-p4ssw0rd-value";
const URI = USER_CONTEXT_EXTENSION_URI;

/** Secrets to seal; `runId: "other"` seals for another run than the one the request serves (a replay). */
type Secrets = Record<string, { value: string; runId?: "other" }>;

/** The user-context metadata for one run: every secret sealed to the pod key for tenant t-1, instance i-1. */
function sealed(secrets: Secrets, runId: string) {
  const envelopes = Object.entries(secrets).map(([name, spec]) => [
    name,
    sealEnvelope(spec.value, key.publicJwk(), {
      tenantId: "t-1",
      instanceId: "i-1",
      runId: spec.runId === "other" ? `${runId}-earlier` : runId,
      secretName: name,
    }),
  ]);
  return { [URI]: { secrets: Object.fromEntries(envelopes) } };
}

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** An agent whose skill reports what `getSecret` gave or threw; `logs` collects every log line. */
async function secretAgent(required = false) {
  const logs: string[] = [];
  const logger = createLogger({
    destination: new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    }),
  });
  const userContext = new UserContextExtension({ keyring: PodKeyring.fromKeys([key]), required });
  const agent = new AgentBuilder({ name: "mailer", logger, extensions: [userContext], secrets: userContext });
  agent.skill("reveal", async (ctx, text) => {
    const [mode, name = ""] = text.split(":");
    try {
      const value =
        mode === "default" ? await ctx.getSecret(name, { default: "<default>" }) : await ctx.getSecret(name);
      return { output: `value=${value === SECRET ? "<the secret>" : value}` };
    } catch (error) {
      return { output: `error=${(error as Error).name}: ${(error as Error).message}` };
    }
  });
  running = await serveAgent(agent);
  return { url: running.url, logs };
}

/**
 * One SendMessage on a fresh run (the run id seeds the task id); the skill's
 * answer, or the JSON-RPC reply when there is none. `metadata` defaults to
 * the sealed `secrets` for that run.
 */
async function ask(
  url: string,
  text: string,
  secrets: Secrets | { raw: unknown },
  options: { activate?: boolean } = {},
) {
  const runId = crypto.randomUUID();
  const metadata = "raw" in secrets ? secrets.raw : sealed(secrets as Secrets, runId);
  const headers = {
    ...V1,
    ...TENANT,
    "X-NovaOS-Run-Id": runId,
    ...(options.activate === false ? {} : { "A2A-Extensions": URI }),
  };
  const reply = await rpc(url, "SendMessage", { message: userMessage(text), metadata }, headers);
  return reply.body.result?.task?.status?.message?.parts?.[0]?.text ?? reply.body;
}

describe("ctx.getSecret through a real AgentBuilder", () => {
  it("opens a delivered secret for the run the pod headers name", async () => {
    const { url, logs } = await secretAgent();
    await expect(ask(url, "plain:SMTP_PASSWORD", { SMTP_PASSWORD: { value: SECRET } })).resolves.toBe(
      "value=<the secret>",
    );
    expect(logs.join("")).not.toContain(SECRET);
  });

  it("uses the default only for a secret that was not delivered", async () => {
    const { url } = await secretAgent();
    const secrets = { SMTP_PASSWORD: { value: SECRET } };
    await expect(ask(url, "default:API_KEY", secrets)).resolves.toBe("value=<default>");
    await expect(ask(url, "plain:API_KEY", secrets)).resolves.toBe(
      "error=SecretNotDeliveredError: Secret 'API_KEY' was not delivered with this request (delivered: SMTP_PASSWORD)",
    );
    // Not activated: nothing was delivered.
    await expect(ask(url, "default:SMTP_PASSWORD", secrets, { activate: false })).resolves.toBe("value=<default>");
  });

  it("throws for a delivered secret that fails to open, default or not, without leaking it", async () => {
    const { url, logs } = await secretAgent();
    const replayed: Secrets = { SMTP_PASSWORD: { value: SECRET, runId: "other" } };
    for (const mode of ["default", "plain"]) {
      await expect(ask(url, `${mode}:SMTP_PASSWORD`, replayed)).resolves.toBe(
        "error=SealedEnvelopeError: The sealed envelope could not be opened",
      );
    }
    await expect(ask(url, "default:SMTP_PASSWORD", { raw: { [URI]: { secrets: [] } } })).resolves.toMatch(
      /^error=SealedEnvelopeFormatError/,
    );
    expect(logs.join("")).not.toContain(SECRET);
  });

  it("answers -32008 to a caller that does not activate a required extension", async () => {
    const { url } = await secretAgent(true);
    const refused = await ask(url, "plain:SMTP_PASSWORD", { SMTP_PASSWORD: { value: SECRET } }, { activate: false });
    expect(refused.error).toMatchObject({ code: -32008 });
    expect(refused.error.message).toContain(URI);
    await expect(ask(url, "plain:SMTP_PASSWORD", { SMTP_PASSWORD: { value: SECRET } })).resolves.toBe(
      "value=<the secret>",
    );
  });

  it("declares the extension and its suite on the agent card", async () => {
    const { url } = await secretAgent(true);
    const card = await (await fetch(new URL("/.well-known/agent-card.json", url))).json();
    expect(card.capabilities.extensions).toEqual([
      expect.objectContaining({
        uri: URI,
        required: true,
        params: { suites: ["X25519-HKDF-SHA256-A256GCM"] },
      }),
    ]);
  });
});
