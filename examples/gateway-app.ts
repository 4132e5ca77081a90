/**
 * A gateway app (docs/gateway.md): an application that does not speak A2A
 * starts a run of an installed agent instance through the NovaOS Execution
 * Gateway and prints its text as it streams, reconnecting after a drop.
 * Needs a gateway: `NOVAOS_GATEWAY_URL=… NOVAOS_IAM_TOKEN=… NOVAOS_INSTANCE_ID=… npx tsx gateway-app.ts "Inspire me!"`.
 */
import { BearerTokenAuth, NovaOSError } from "@novaos/client-sdk";
import { GatewayClient } from "@novaos/client-sdk/platform";

const { NOVAOS_GATEWAY_URL, NOVAOS_IAM_TOKEN, NOVAOS_INSTANCE_ID } = process.env;
if (!NOVAOS_GATEWAY_URL || !NOVAOS_IAM_TOKEN || !NOVAOS_INSTANCE_ID) {
  console.error("Set NOVAOS_GATEWAY_URL, NOVAOS_IAM_TOKEN and NOVAOS_INSTANCE_ID.");
  process.exit(2);
}

await using gateway = new GatewayClient({ baseUrl: NOVAOS_GATEWAY_URL, auth: new BearerTokenAuth(NOVAOS_IAM_TOKEN) });
try {
  const { runId } = await gateway.execute({
    instanceId: NOVAOS_INSTANCE_ID,
    inputText: process.argv[2] ?? "Inspire me!",
  });
  for await (const event of gateway.eventsWithReconnect(runId)) {
    if (event.type === "chunk") process.stdout.write(event.content ?? "");
    if (event.type === "hitl") console.log("\nThe agent asks for input; answer it in the NovaOS app.");
    if (event.isTerminal) console.log(event.isFailure ? `\nRun failed: ${event.content}` : "\nDone.");
  }
} catch (error) {
  // Typed failures say whether trying again can help.
  if (!(error instanceof NovaOSError)) throw error;
  console.error(`${error.name}: ${error.message}${error.isRetryable ? " (retryable)" : ""}`);
  process.exitCode = 1;
}
