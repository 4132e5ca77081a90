/**
 * `@novaos/client-sdk/grpc`: the gRPC binding on Node (HTTP/2 through
 * connect-node). For a client, `grpcTransport()` goes in
 * `ClientOptions.transports`; for an agent, `listen(agent, { grpcPort })`
 * from `/node` serves it, and the handlers here mount it on a server of
 * your own.
 */
export { grpcDialUrl } from "../a2a/grpc-url.js";
export {
  createGrpcNodeHandler,
  type GrpcHandlerOptions,
  type GrpcListenOptions,
  type GrpcNodeHandler,
  type GrpcServer,
  listenGrpc,
} from "../server/grpc/grpc-server.js";
export { type A2AServiceImplOptions, a2aGrpcRoutes, createA2AServiceImpl } from "../server/grpc/grpc-service.js";
export { type GrpcTransportOptions, grpcTransport } from "./grpc-transport-factory.js";
