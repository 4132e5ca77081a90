/**
 * The seam between `Client` and the three bindings. A transport moves one
 * generated request message to the agent and brings back the generated reply
 * (or the stream of frames); it maps every failure to the SDK's typed errors,
 * so the client above it behaves the same whatever the binding.
 */
import type { MessageShape } from "@bufbuild/protobuf";
import type { StreamResponse } from "../../gen/a2a_pb.js";
import type { A2ABindingOf, A2AMethodName } from "../a2a/bindings.js";
import type { ProtocolBinding } from "../a2a/constants.js";

/** The RPCs that answer with a stream of frames. */
export type StreamingMethod = {
  [M in A2AMethodName]: A2ABindingOf<M>["kind"] extends "server_streaming" ? M : never;
}[A2AMethodName];
/** The RPCs that answer once. */
export type UnaryMethod = Exclude<A2AMethodName, StreamingMethod>;

export type MethodInput<M extends A2AMethodName> = MessageShape<A2ABindingOf<M>["input"]>;
export type MethodOutput<M extends A2AMethodName> = MessageShape<A2ABindingOf<M>["output"]>;

/** What a transport needs to know about one call besides the request. */
export interface TransportCall {
  /** Final headers (gRPC: metadata), service parameters and credentials included. */
  readonly headers: Headers;
  /** Aborted when the caller cancels or the deadline passes; the transport then stops all I/O. */
  readonly signal: AbortSignal;
}

export interface ClientTransport {
  readonly binding: ProtocolBinding;
  unary<M extends UnaryMethod>(method: M, request: MethodInput<M>, call: TransportCall): Promise<MethodOutput<M>>;
  /**
   * Frames in arrival order, in batches of those that arrived together (one
   * network read), so that a fast stream costs one async step per read, not
   * per frame. Leaving the loop early releases the stream and its connection.
   */
  stream<M extends StreamingMethod>(
    method: M,
    request: MethodInput<M>,
    call: TransportCall,
  ): AsyncIterable<readonly StreamResponse[]>;
  /** Closes idle connections the transport owns; calls in flight are aborted. */
  close(): Promise<void>;
}

/** Where and how a transport reaches its agent: what the Client hands a {@link ClientTransportFactory}. */
export interface TransportTarget {
  /** The URL to dial: the interface URL (for gRPC, its http(s) form). */
  readonly baseUrl: string;
  /** The fetch the HTTP bindings use (the client's `fetch` option, else the runtime's). */
  readonly fetch: typeof fetch;
  /** Cap on one reply body or message. */
  readonly maxResponseBytes: number;
  /** Cap on one SSE event. */
  readonly maxSseEventBytes?: number | undefined;
}

/**
 * Builds the transport of one binding for a client. The Client carries the
 * two HTTP bindings itself; a binding that needs more than Fetch (gRPC over
 * HTTP/2: `grpcTransport()` from `@novaos/client-sdk/grpc`) is passed in
 * `ClientOptions.transports`, so the universal entry never loads it.
 */
export interface ClientTransportFactory {
  readonly binding: ProtocolBinding;
  create(target: TransportTarget): ClientTransport;
}
