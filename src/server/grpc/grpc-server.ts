/**
 * Serving the gRPC binding from Node: connect-node's adapter on an HTTP/2
 * server, with plain unary gRPC calls answered in front of it
 * (unary-fast-path.ts). The same port also answers the Connect and gRPC-Web
 * protocols (connect-node serves all three from one router), unless turned off.
 */
import { setMaxListeners } from "node:events";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { DEFAULT_MAX_BODY_BYTES } from "../../a2a/jsonrpc.js";
import { settlesWithin } from "../drain.js";
import type { A2ARequestHandler } from "../request-handler.js";
import { type A2AServiceImplOptions, a2aGrpcRoutes, grpcUnaryMethods, remoteAddressValues } from "./grpc-service.js";
import { withUnaryFastPath } from "./unary-fast-path.js";

/** A `(req, res)` handler for `node:http2` (connect-node's shape, whose type it does not export by name). */
export type GrpcNodeHandler = ReturnType<typeof connectNodeAdapter>;

export interface GrpcHandlerOptions extends A2AServiceImplOptions {
  /** Largest request message accepted (RESOURCE_EXHAUSTED beyond). Default 10 MiB, as the HTTP bindings. */
  readonly maxMessageBytes?: number;
  /** Also answer the Connect protocol. Default true. */
  readonly connect?: boolean;
  /** Also answer gRPC-Web. Default true. */
  readonly grpcWeb?: boolean;
  /** Aborting it detaches every call in flight (their `ServerCallContext.signal` aborts). */
  readonly shutdownSignal?: AbortSignal;
}

/** A `(req, res)` handler for `node:http2` (or `node:http`, for Connect and gRPC-Web) serving `A2AService`. */
export function createGrpcNodeHandler(handler: A2ARequestHandler, options: GrpcHandlerOptions = {}): GrpcNodeHandler {
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_BODY_BYTES;
  // connect-es listens on it once per call in flight (and lets go when the call ends): not a leak at 11 calls.
  if (options.shutdownSignal) setMaxListeners(0, options.shutdownSignal);
  const unaryMethods = grpcUnaryMethods(handler, options);
  const viaConnect = connectNodeAdapter({
    routes: a2aGrpcRoutes(handler, options, unaryMethods),
    grpc: true,
    connect: options.connect ?? true,
    grpcWeb: options.grpcWeb ?? true,
    readMaxBytes: maxBytes,
    writeMaxBytes: maxBytes,
    contextValues: remoteAddressValues,
    ...(options.shutdownSignal ? { shutdownSignal: options.shutdownSignal } : {}),
  });
  return withUnaryFastPath(unaryMethods, viaConnect, {
    maxMessageBytes: maxBytes,
    ...(options.maxRequestValues === undefined ? {} : { maxRequestValues: options.maxRequestValues }),
    ...(options.shutdownSignal ? { shutdownSignal: options.shutdownSignal } : {}),
  });
}

export interface GrpcListenOptions extends Omit<GrpcHandlerOptions, "shutdownSignal"> {
  /** 0 picks a free port. */
  readonly port: number;
  /** Default `127.0.0.1`; `0.0.0.0` or `::` to accept remote callers. */
  readonly host?: string;
}

/** How a server closes. */
export interface CloseOptions {
  /**
   * Drain first, for up to this many milliseconds: stop accepting (the port
   * closes; open connections get a GOAWAY, so their clients open no new
   * calls there) and let the calls in flight finish; only what is still open
   * at the deadline is cut. Without it, the calls in flight are cut at once:
   * they detach, and their tasks go on.
   */
  readonly drainMs?: number;
}

/** A running gRPC server. */
export interface GrpcServer extends AsyncDisposable {
  readonly port: number;
  readonly host: string;
  /** The gRPC target (`host:port`), the form gRPC clients (grpc-js, grpcio) dial. */
  readonly target: string;
  /** Stops listening: at once (calls in flight detach), or after draining them (`drainMs`). */
  close(options?: CloseOptions): Promise<void>;
}

/** Listens with cleartext HTTP/2 (h2c), as gRPC clients with insecure credentials expect. */
export async function listenGrpc(handler: A2ARequestHandler, options: GrpcListenOptions): Promise<GrpcServer> {
  const shutdown = new AbortController();
  const server = http2.createServer(createGrpcNodeHandler(handler, { ...options, shutdownSignal: shutdown.signal }));
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  const detachAll = () => shutdown.abort(new Error("The gRPC server is shutting down"));
  let closing: Promise<void> | undefined;
  const close = (options: CloseOptions = {}) => {
    closing ??= (async () => {
      // The port closes now; `closed` settles once every session has ended.
      server.close();
      if (options.drainMs === undefined) detachAll();
      // GOAWAY: each session ends once its calls in flight have.
      for (const session of sessions) session.close();
      if (options.drainMs !== undefined && !(await settlesWithin(closed, options.drainMs))) {
        detachAll();
        for (const session of sessions) session.destroy();
      }
      await closed;
    })();
    return closing;
  };
  return {
    port,
    host,
    target: `${host.includes(":") ? `[${host}]` : host}:${port}`,
    close,
    [Symbol.asyncDispose]: () => close(),
  };
}
