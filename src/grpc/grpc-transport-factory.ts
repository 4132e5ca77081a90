/**
 * `grpcTransport()`: the gRPC binding for a `Client`, as a transport factory
 * (`ClientOptions.transports`). The universal entry carries only the Fetch
 * bindings; this one needs Node's HTTP/2 through connect-node, which is
 * loaded on the first call, not when this file is imported — discovery
 * offers gRPC to every client it builds without paying for it up front.
 */
import type * as http2 from "node:http2";
import type { StreamResponse } from "../../gen/a2a_pb.js";
import { PROTOCOL_BINDING_GRPC } from "../a2a/constants.js";
import type {
  ClientTransport,
  ClientTransportFactory,
  MethodInput,
  MethodOutput,
  StreamingMethod,
  TransportCall,
  TransportTarget,
  UnaryMethod,
} from "../client/transport.js";

export interface GrpcTransportOptions {
  /** Passed to `http2.connect()`: TLS options, a guarded `lookup`, … */
  readonly nodeOptions?: http2.ClientSessionOptions | http2.SecureClientSessionOptions | undefined;
}

/** The gRPC transport, built when its first call starts. */
class DeferredGrpcTransport implements ClientTransport {
  readonly binding = PROTOCOL_BINDING_GRPC;
  readonly #target: TransportTarget;
  readonly #options: GrpcTransportOptions;
  #transport: Promise<ClientTransport> | undefined;

  constructor(target: TransportTarget, options: GrpcTransportOptions) {
    this.#target = target;
    this.#options = options;
  }

  #get(): Promise<ClientTransport> {
    this.#transport ??= import("../client/grpc-transport.js").then(
      ({ GrpcTransport }) =>
        new GrpcTransport({
          baseUrl: this.#target.baseUrl,
          nodeOptions: this.#options.nodeOptions,
          maxResponseBytes: this.#target.maxResponseBytes,
        }),
    );
    return this.#transport;
  }

  async unary<M extends UnaryMethod>(
    method: M,
    request: MethodInput<M>,
    call: TransportCall,
  ): Promise<MethodOutput<M>> {
    return (await this.#get()).unary(method, request, call);
  }

  async *stream<M extends StreamingMethod>(
    method: M,
    request: MethodInput<M>,
    call: TransportCall,
  ): AsyncGenerator<readonly StreamResponse[], void, undefined> {
    yield* (await this.#get()).stream(method, request, call);
  }

  async close(): Promise<void> {
    if (this.#transport) await (await this.#transport).close();
  }
}

/** The gRPC binding for `ClientOptions.transports` (Node: HTTP/2 through connect-node). */
export function grpcTransport(options: GrpcTransportOptions = {}): ClientTransportFactory {
  return { binding: PROTOCOL_BINDING_GRPC, create: (target) => new DeferredGrpcTransport(target, options) };
}
