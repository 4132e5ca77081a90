/**
 * Bench server: the bench agent (ours-agent.ts) on the gRPC binding
 * (`listenGrpc`: node:http2, cleartext). Prints its port on stdout.
 */
import { listenGrpc } from "../../src/server/grpc/grpc-server.js";
import { benchAgent } from "./ours-agent.js";

const server = await listenGrpc(benchAgent().requestHandler(), { port: 0 });
process.stdout.write(`${server.port}\n`);
