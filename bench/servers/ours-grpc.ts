/**
 * Bench server: an AgentBuilder's gRPC binding (connect-node on node:http2,
 * cleartext) with the `echo` skill of bench/servers/ours.ts. Prints its port on stdout.
 */
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { listenGrpc } from "../../src/server/grpc/grpc-server.js";

const agent = new AgentBuilder({ name: "bench-agent", version: "1.0.0", logger: createLogger({ level: "silent" }) });
agent.skill("echo", async (_ctx, text) => ({ output: text }));

const server = await listenGrpc(agent.requestHandler(), { port: 0 });
process.stdout.write(`${server.port}\n`);
