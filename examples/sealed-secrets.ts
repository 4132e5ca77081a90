/**
 * Sealed secrets (docs/security.md "Sealed secrets"): the platform seals a
 * run's SMTP password to the pod's X25519 key, bound to the tenant, instance,
 * run and secret name; the agent opens it with `ctx.getSecret` and nothing
 * else can. Here this file plays the platform too. Run it: `npx tsx sealed-secrets.ts`.
 */
import { Client, isTask, taskText } from "@novaos/client-sdk";
import { listen } from "@novaos/client-sdk/node";
import {
  PodKeyring,
  RecipientKey,
  sealEnvelope,
  USER_CONTEXT_EXTENSION_URI,
  UserContextExtension,
} from "@novaos/client-sdk/security";
import { AgentBuilder, createLogger } from "@novaos/client-sdk/server";

// The pod's key: in production PodKeyring reads it from the mounted key directory (NOVAOS_AGENT_KEYS_DIR).
const podKey = RecipientKey.generate();
const userContext = new UserContextExtension({ keyring: PodKeyring.fromKeys([podKey]), required: true });
const agent = new AgentBuilder({
  name: "mailer",
  extensions: [userContext],
  secrets: userContext,
  logger: createLogger({ level: "warn" }),
});
agent.skill("send", async (ctx, text) => {
  const password = await ctx.getSecret("SMTP_PASSWORD"); // throws if it was not delivered or does not open
  const signature = await ctx.getSecret("MAIL_SIGNATURE", { default: "-- sent by mailer" });
  return { output: `sent "${text}" with a ${password.length}-character password\n${signature}` };
});

await using server = await listen(agent, { port: 0 });

// The platform's side: one run, its ids in the pod headers, the secret sealed for exactly that run.
const run = { tenantId: "t-1", instanceId: "i-1", runId: crypto.randomUUID() };
const envelope = sealEnvelope("smtp-p4ssw0rd", podKey.publicJwk(), { ...run, secretName: "SMTP_PASSWORD" });
await using client = new Client({
  baseUrl: server.url,
  headers: {
    "A2A-Extensions": USER_CONTEXT_EXTENSION_URI,
    "X-NovaOS-Tenant-Id": run.tenantId,
    "X-NovaOS-Instance-Id": run.instanceId,
    "X-NovaOS-Run-Id": run.runId,
  },
});
const result = await client.sendMessage("the weekly report", {
  skillId: "send",
  metadata: { [USER_CONTEXT_EXTENSION_URI]: { secrets: { SMTP_PASSWORD: envelope } } },
});
console.log(isTask(result) ? taskText(result) : "the agent answered with a message");
