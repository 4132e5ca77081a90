/**
 * The gRPC binding (spec §10) through connect-es: the generated `A2AService`
 * descriptor over `@connectrpc/connect-node`'s HTTP/2 gRPC transport. Service
 * parameters travel as metadata (`a2a-version`, `a2a-extensions`: HTTP/2
 * lower-cases header names). The transport owns its HTTP/2 session, so
 * closing it closes the connection.
 *
 * Errors: an A2A `google.rpc.ErrorInfo` in the status details decides the
 * class, as on the other bindings; without one the status code does. A
 * message over a size cap is never a rate limit, though gRPC says
 * RESOURCE_EXHAUSTED for both: a reply over this client's cap is the agent's
 * fault (-32006, as an oversized body on the HTTP bindings), a request over
 * the agent's cap cannot succeed if sent again.
 */
import type * as http2 from "node:http2";
import { type Client, Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { A2AService, type StreamResponse } from "../../gen/a2a_pb.js";
import { a2aServiceBindings } from "../a2a/bindings.js";
import { PROTOCOL_BINDING_GRPC } from "../a2a/constants.js";
import { findErrorInfo } from "../a2a/error-wire.js";
import { InvalidAgentResponseError } from "../a2a/errors.js";
import { errorFromGrpcStatus } from "../errors/grpc-status-error.js";
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import { connectErrorDetails } from "../errors/to-a2a-error.js";
import { connectionError, findSdkError } from "../http/transport-failure.js";
import { checkFrame, checkReply } from "./reply-decoding.js";
import type {
  ClientTransport,
  MethodInput,
  MethodOutput,
  StreamingMethod,
  TransportCall,
  UnaryMethod,
} from "./transport.js";

export interface GrpcTransportOptions {
  /** The interface URL: `http://host:port` (h2c) or `https://host:port` (TLS). */
  readonly baseUrl: string;
  /** Passed to `http2.connect()` (TLS options, a guarded `lookup`, …). */
  readonly nodeOptions?: http2.ClientSessionOptions | http2.SecureClientSessionOptions | undefined;
  /** Cap on one reply message. */
  readonly maxResponseBytes: number;
}

type RpcFn = (request: unknown, options: { headers: Headers; signal: AbortSignal }) => unknown;

/** How connect, grpc-js and grpc-go say that a message passed a size cap (their RESOURCE_EXHAUSTED). */
const OVER_WRITE_CAP = /larger than configured writeMaxBytes/;
const OVER_READ_CAP = /larger than (configured readMaxBytes|max)\b/i;

/**
 * RESOURCE_EXHAUSTED for a message over a size cap: the reply over ours or
 * the agent's (never retryable), or our request over the agent's; undefined
 * for anything else (a rate limit).
 */
function overSizeCap(e: ConnectError, url: string, maxResponseBytes: number): Error | undefined {
  const message = e.rawMessage;
  // The client's own cap: connect made the status up, no grpc-status came with it.
  const local = !e.metadata.has("grpc-status");
  if (local || OVER_WRITE_CAP.test(message)) {
    const what = local ? `exceeds ${maxResponseBytes} bytes` : "exceeds the agent's own cap";
    return new InvalidAgentResponseError(`${url}: the reply message ${what}`, {
      metadata: local ? { maxBytes: String(maxResponseBytes) } : {},
      cause: e,
    });
  }
  if (OVER_READ_CAP.test(message)) {
    return new NovaOSValidationError(`${url}: the request is too large: ${message}`, {
      code: e.code,
      details: { grpcCode: Code[e.code] },
      cause: e,
    });
  }
  return undefined;
}

export function errorFromGrpc(error: unknown, url: string, maxResponseBytes: number): Error {
  const sdk = findSdkError(error);
  if (sdk) return sdk;
  const e = ConnectError.from(error);
  const details = connectErrorDetails(e);
  // A status the client made up from a local failure (connect-node keeps the Node error as the cause).
  const local = e.cause instanceof Error && !(e.cause instanceof ConnectError);
  if (local && e.code === Code.Internal && !findErrorInfo(details)) return connectionError(e, url);
  if (e.code === Code.ResourceExhausted && !findErrorInfo(details)) {
    const overCap = overSizeCap(e, url, maxResponseBytes);
    if (overCap) return overCap;
  }
  return errorFromGrpcStatus({ code: e.code, message: e.rawMessage, details, cause: e }, url);
}

/**
 * connect-node 2.1.1's `abort()` takes its 'error' listener off a session
 * that is already destroyed but has not emitted its error yet (a peer that
 * answered HTTP/1.1, a reset): that late 'error' then has no listener and
 * ends the process. Every session a call ran on keeps one listener for the
 * transport's lifetime; the calls themselves still fail with the error.
 */
class GuardedSessionManager extends Http2SessionManager {
  readonly #guarded = new WeakSet<http2.ClientHttp2Session>();

  override async request(...args: Parameters<Http2SessionManager["request"]>): Promise<http2.ClientHttp2Stream> {
    const stream = await super.request(...args);
    const session = stream.session as http2.ClientHttp2Session | undefined;
    if (session && !this.#guarded.has(session)) {
      this.#guarded.add(session);
      session.on("error", () => undefined);
    }
    return stream;
  }
}

export class GrpcTransport implements ClientTransport {
  readonly binding = PROTOCOL_BINDING_GRPC;
  readonly #url: string;
  readonly #maxResponseBytes: number;
  readonly #session: Http2SessionManager;
  readonly #client: Client<typeof A2AService>;

  constructor(options: GrpcTransportOptions) {
    this.#url = options.baseUrl;
    this.#maxResponseBytes = options.maxResponseBytes;
    this.#session = new GuardedSessionManager(options.baseUrl, {}, options.nodeOptions);
    this.#client = createClient(
      A2AService,
      createGrpcTransport({
        baseUrl: options.baseUrl,
        sessionManager: this.#session,
        readMaxBytes: options.maxResponseBytes,
      }),
    );
  }

  #rpc(method: UnaryMethod | StreamingMethod): RpcFn {
    const name = a2aServiceBindings[method].rpc.localName as keyof Client<typeof A2AService>;
    return (this.#client[name] as RpcFn).bind(this.#client);
  }

  async unary<M extends UnaryMethod>(
    method: M,
    request: MethodInput<M>,
    call: TransportCall,
  ): Promise<MethodOutput<M>> {
    try {
      const reply = (await this.#rpc(method)(request, {
        headers: call.headers,
        signal: call.signal,
      })) as MethodOutput<M>;
      return checkReply(method, reply);
    } catch (e) {
      throw errorFromGrpc(e, this.#url, this.#maxResponseBytes);
    }
  }

  async *stream<M extends StreamingMethod>(
    method: M,
    request: MethodInput<M>,
    call: TransportCall,
  ): AsyncGenerator<readonly StreamResponse[], void, undefined> {
    const frames = this.#rpc(method)(request, {
      headers: call.headers,
      signal: call.signal,
    }) as AsyncIterable<StreamResponse>;
    try {
      for await (const frame of frames) yield [checkFrame(frame)];
    } catch (e) {
      throw errorFromGrpc(e, this.#url, this.#maxResponseBytes);
    }
  }

  /** Closes the HTTP/2 connection; streams still open are reset. */
  async close(): Promise<void> {
    this.#session.abort();
  }
}
