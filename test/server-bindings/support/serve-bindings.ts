/**
 * One request handler served on all three bindings over real sockets:
 * JSON-RPC and HTTP+JSON through the `node:http` adapter, gRPC on its own
 * HTTP/2 server, with a gRPC client of connect-es for it.
 */
import { once } from "node:events";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { type Client, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { A2AService } from "../../../gen/a2a_pb.js";
import type { Logger } from "../../../src/runtime/logger.js";
import { createGrpcNodeHandler } from "../../../src/server/grpc/grpc-server.js";
import { HttpJsonBinding } from "../../../src/server/http-json/http-json-binding.js";
import { JsonRpcBinding } from "../../../src/server/jsonrpc-binding.js";
import type { A2ARequestHandler } from "../../../src/server/request-handler.js";
import { serveBinding } from "./serve-binding.js";

export interface ServedBindings extends AsyncDisposable {
  /** Where JSON-RPC (at `/`) and the HTTP+JSON routes are served. */
  readonly httpUrl: string;
  /** A gRPC client of the served handler (a new one each time, on one HTTP/2 session). */
  grpc(): Client<typeof A2AService>;
}

export async function serveBindings(
  handler: A2ARequestHandler,
  options: { logger?: Logger } = {},
): Promise<ServedBindings> {
  const http = await serveBinding(new JsonRpcBinding(handler, options), new HttpJsonBinding(handler, options));
  const h2 = http2.createServer(createGrpcNodeHandler(handler, options));
  h2.listen(0, "127.0.0.1");
  await once(h2, "listening");
  const sessionManager = new Http2SessionManager(`http://127.0.0.1:${(h2.address() as AddressInfo).port}`);
  return {
    httpUrl: http.url,
    grpc: () => createClient(A2AService, createGrpcTransport({ baseUrl: sessionManager.authority, sessionManager })),
    [Symbol.asyncDispose]: async () => {
      sessionManager.abort();
      await new Promise((resolve) => h2.close(resolve));
      await http[Symbol.asyncDispose]();
    },
  };
}
