/**
 * Serves the example agent on its own, for any A2A client:
 *
 *   PORT=8000 npm run example:agent
 *
 * JSON-RPC and HTTP+JSON at http://localhost:8000/, the card at
 * http://localhost:8000/.well-known/agent-card.json; with GRPC_PORT, gRPC
 * too. SIGTERM or Ctrl-C drains: no new requests, the ones in flight are
 * answered and running skills finish (for up to DRAIN_MS, default 10 s;
 * a skill still running then fails its task), then the process exits. The
 * npm script `exec`s node, so the signal reaches this process rather than
 * a shell between npm and it.
 */
import { listen } from "@novaos/client-sdk/node";
import { createExampleAgent } from "./example-agent.js";

const port = Number(process.env.PORT ?? 8000);
const host = process.env.HOST ?? "127.0.0.1";
const grpcPort = process.env.GRPC_PORT === undefined ? undefined : Number(process.env.GRPC_PORT);
const drainMs = Number(process.env.DRAIN_MS ?? 10_000);
const agent = createExampleAgent();
const server = await listen(agent, { port, host, ...(grpcPort === undefined ? {} : { grpcPort }) });

// Plain text for the person who started it (the JSON logger would mask the address as PII).
process.stdout.write(
  `example agent serving A2A JSON-RPC and HTTP+JSON at ${server.url} (card: ${server.url}.well-known/agent-card.json)` +
    `${server.grpcTarget ? `, gRPC at ${server.grpcTarget}` : ""} (pid ${process.pid})\n`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    agent.logger.info({ signal, drain_ms: drainMs }, "shutting down: no new requests, draining those in flight");
    void server.close({ drainMs }).then(() => process.exit(0));
  });
}
