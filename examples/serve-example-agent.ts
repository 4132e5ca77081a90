/**
 * Serves the example agent on its own, for any A2A client:
 *
 *   PORT=8000 npm run example:agent
 *
 * JSON-RPC at http://localhost:8000/, the card at
 * http://localhost:8000/.well-known/agent-card.json. Ctrl-C stops accepting
 * requests, lets running skills finish, then exits.
 */
import http from "node:http";
import { nodeHandler } from "@novaos/client-sdk/node";
import { createExampleAgent } from "./example-agent.js";

const port = Number(process.env.PORT ?? 8000);
const host = process.env.HOST ?? "127.0.0.1";
const agent = createExampleAgent();
const server = http.createServer(nodeHandler(agent));

server.listen(port, host, () => {
  const url = `http://${host}:${port}/`;
  // Plain text for the person who started it (the JSON logger would mask the address as PII).
  process.stdout.write(`example agent serving A2A JSON-RPC at ${url} (card: ${url}.well-known/agent-card.json)\n`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    agent.logger.info({ signal }, "shutting down: no new requests, waiting for running skills");
    server.close();
    server.closeIdleConnections();
    void agent
      .requestHandler()
      .whenIdle()
      .then(() => process.exit(0));
  });
}
