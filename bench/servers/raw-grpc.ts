/**
 * Bench ceiling for gRPC: connect-node on node:http2 answering SendMessage
 * with the request's message, no A2A handler behind it. What a gRPC unary
 * call costs on this machine at least. Prints its port on stdout.
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { A2AService, SendMessageResponseSchema } from "../../gen/a2a_pb.js";

const server = http2.createServer(
  connectNodeAdapter({
    routes: (router) => {
      router.rpc(A2AService.method.sendMessage, async (request) =>
        create(SendMessageResponseSchema, { payload: { case: "message", value: request.message! } }),
      );
    },
  }),
);
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
