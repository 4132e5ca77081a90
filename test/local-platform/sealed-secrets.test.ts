import { describe, expect, it } from "vitest";
import {
  INSTANCE_ID_METADATA_KEY,
  type LocalPlatform,
  registerWithLocalPlatform,
} from "../../src/local-platform/index.js";
import { PodKeyring, RecipientKey, UserContextExtension } from "../../src/security/index.js";
import { platform, serve } from "./support.js";
import { outputOf, runThroughGateway, toolAgent } from "./tools-support.js";

const SECRET = "smtp-p4ssw0rd";

/** `mailer`: a pod holding `key` that reports what `ctx.getSecret("SMTP_PASSWORD")` gave or threw. */
async function mailer(local: LocalPlatform, key: RecipientKey) {
  const userContext = new UserContextExtension({ keyring: PodKeyring.fromKeys([key]) });
  const agent = toolAgent(local, "mailer", { extensions: [userContext], secrets: userContext });
  agent.skill("send", { description: "Sends mail with the user's password" }, async (ctx) => {
    try {
      const value = await ctx.getSecret("SMTP_PASSWORD");
      return { output: JSON.stringify({ names: ctx.secretNames, value: value === SECRET ? "<the secret>" : value }) };
    } catch (error) {
      return { output: JSON.stringify({ names: ctx.secretNames, error: (error as Error).name }) };
    }
  });
  return serve(agent);
}

describe("the local platform seals the user's secrets to the pod's key", () => {
  it("a skill reads a secret through ctx.getSecret in a run started at the gateway", async () => {
    const local = await platform({ userSecrets: { SMTP_PASSWORD: SECRET } });
    const key = RecipientKey.generate();
    const server = await mailer(local, key);
    const { instanceId } = await local.registerAgent({ url: server.url, podKey: key.publicJwk() });
    const output = outputOf(await runThroughGateway(local, instanceId, "send"));
    expect(output).toEqual({ names: ["SMTP_PASSWORD"], value: "<the secret>" });
    expect(local.violations).toEqual([]);
  });

  it("a secret sealed to another pod's key is refused by the pod (registered through the local route)", async () => {
    const local = await platform({ userSecrets: { SMTP_PASSWORD: SECRET } });
    const server = await mailer(local, RecipientKey.generate());
    const record = await registerWithLocalPlatform(server.url, {
      dnsUrl: local.urls["agent-dns"],
      podKey: RecipientKey.generate().publicJwk(),
    });
    const instanceId = record.metadata?.[INSTANCE_ID_METADATA_KEY] as string;
    const output = outputOf(await runThroughGateway(local, instanceId, "send"));
    expect(output).toEqual({ names: ["SMTP_PASSWORD"], error: "RecipientKeyUnavailableError" });
  });

  it("delivers nothing to a pod whose key the platform was not given, and refuses a key nothing can be sealed to", async () => {
    const local = await platform({ userSecrets: { SMTP_PASSWORD: SECRET } });
    const server = await mailer(local, RecipientKey.generate());
    const { instanceId } = await local.registerAgent({ url: server.url });
    expect(outputOf(await runThroughGateway(local, instanceId, "send"))).toEqual({
      names: [],
      error: "SecretNotDeliveredError",
    });
    await expect(
      registerWithLocalPlatform(server.url, { dnsUrl: local.urls["agent-dns"], podKey: { x: "short" } }),
    ).rejects.toThrow(/HTTP 400/);
    await expect(
      local.registerAgent({ url: server.url, podKey: { kty: "OKP", crv: "X25519", x: "short" } }),
    ).rejects.toThrow(RangeError);
  });
});
