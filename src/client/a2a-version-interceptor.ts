/**
 * For connect-es users calling an agent with the generated `A2AService`
 * (gRPC, or gRPC-Web from a browser) rather than `Client`: every A2A call must
 * say which protocol version it speaks (`a2a-version`, spec §3.6), or the
 * agent takes it for 0.3 and refuses it (-32009). Add this interceptor to the transport:
 *
 *   createGrpcTransport({ baseUrl, interceptors: [a2aVersionInterceptor] })
 *
 * A header the call sets itself is kept. Errors: `toA2AError(e)`.
 */
import type { Interceptor } from "@connectrpc/connect";
import { A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER } from "../a2a/version.js";

export const a2aVersionInterceptor: Interceptor = (next) => (request) => {
  if (!request.header.has(A2A_VERSION_HEADER)) request.header.set(A2A_VERSION_HEADER, A2A_PROTOCOL_VERSION);
  return next(request);
};
