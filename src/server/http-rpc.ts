/**
 * The HTTP half of the request skeleton, shared by the JSON-RPC and HTTP+JSON
 * bindings. A request the binding routes becomes a call on the request's
 * client-gone signal, run by `serveRpc`: a unary answer is one complete reply,
 * a stream is SSE (`sseReply`), a failure is the binding's error body, each
 * with the response headers the handler set. A body over the cap is answered
 * as the binding's parse error, on a connection that then closes (the rest of
 * the body was never read). A binding says only what is its own: how it
 * routes, how it decodes a request, how it encodes a result, a frame and an
 * error (`HttpRpcProtocol`, `HttpRpcCodec`).
 */
import type { Message } from "@bufbuild/protobuf";
import type { A2ABinding } from "../a2a/bindings.js";
import type { ProtocolBinding } from "../a2a/constants.js";
import { JSONParseError } from "../a2a/errors.js";
import type { HeadersLike } from "../a2a/headers.js";
import { DEFAULT_MAX_BODY_BYTES } from "../a2a/jsonrpc.js";
import { MAX_REQUEST_VALUES } from "../a2a/request-limits.js";
import { BodyTooLargeError } from "../http/capped-body.js";
import type { Logger } from "../runtime/logger.js";
import type { HttpBinding, HttpBodyReply, HttpReply, HttpRequestLike } from "./http-exchange.js";
import type { A2ARequestHandler } from "./request-handler.js";
import { logFailure, type RpcExchange, type RpcRequest, serveRpc } from "./serve-rpc.js";
import { ServerCall, watchSignal } from "./server-call.js";
import { sseReply } from "./sse-reply.js";

/** One HTTP request as its binding reads and writes it. */
export interface HttpRpcCodec {
  /** Service parameters and credentials of the call. */
  readonly headers: HeadersLike;
  /** Reads and decodes the request within `limits`. */
  decode(limits: RequestLimits): Promise<RpcRequest>;
  /** The body of a unary answer. */
  result(method: A2ABinding, output: Message): string;
  /** The `data:` of one stream frame. */
  frame(frame: Message): string;
  /** An error answer; a stream that fails after its first frame sends its body as an `event: error`. */
  error(error: unknown): { readonly status: number; readonly body: string };
}

/** An HTTP binding, as the skeleton sees it. */
export interface HttpRpcProtocol {
  readonly binding: ProtocolBinding;
  /** The `Content-Type` of unary and error answers. */
  readonly mediaType: string;
  /**
   * The codec of a request this binding serves, a complete reply for one it
   * refuses outright (a method its path does not take), or undefined for a
   * request that is not its own.
   */
  route(request: HttpRequestLike): HttpRpcCodec | HttpBodyReply | undefined;
}

/** How much one request may hold. */
export interface RequestLimits {
  /** Bytes of body (the body is refused as soon as it passes them). */
  readonly maxBodyBytes: number;
  /** JSON values (src/a2a/request-limits.ts), counted before the body is parsed. */
  readonly maxValues: number;
}

export interface HttpRpcOptions {
  /** Request bodies above this many bytes are refused before they are parsed. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  /** Requests holding more JSON values are refused (-32602 / 400) before they are parsed. Default `MAX_REQUEST_VALUES`. */
  readonly maxRequestValues?: number;
  /** Where unexpected handler failures are logged (the caller sees a bare internal error). */
  readonly logger?: Logger;
}

/** An HttpBinding serving `protocol` over `handler`: what JsonRpcBinding and HttpJsonBinding are. */
export class HttpRpcBinding implements HttpBinding {
  readonly protocolBinding: ProtocolBinding;
  readonly #protocol: HttpRpcProtocol;
  readonly #handler: A2ARequestHandler;
  readonly #settings: ExchangeSettings;

  constructor(protocol: HttpRpcProtocol, handler: A2ARequestHandler, options: HttpRpcOptions) {
    this.protocolBinding = protocol.binding;
    this.#protocol = protocol;
    this.#handler = handler;
    this.#settings = {
      limits: {
        maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        maxValues: options.maxRequestValues ?? MAX_REQUEST_VALUES,
      },
      replyHeaders: { "content-type": protocol.mediaType },
      logger: options.logger,
    };
  }

  handle(request: HttpRequestLike): Promise<HttpReply | undefined> {
    const codec = this.#protocol.route(request);
    if (codec === undefined || "kind" in codec) return Promise.resolve(codec);
    const call = new ServerCall(
      this.protocolBinding,
      codec.headers,
      watchSignal(request),
      undefined,
      request.remoteAddress,
    );
    return serveRpc(this.#handler, call, new HttpRpcExchange(codec, call, this.#settings), this.#settings.logger);
  }
}

interface ExchangeSettings {
  readonly limits: RequestLimits;
  readonly replyHeaders: Readonly<Record<string, string>>;
  readonly logger: Logger | undefined;
}

class HttpRpcExchange implements RpcExchange<HttpReply> {
  readonly #codec: HttpRpcCodec;
  readonly #call: ServerCall;
  readonly #settings: ExchangeSettings;

  constructor(codec: HttpRpcCodec, call: ServerCall, settings: ExchangeSettings) {
    this.#codec = codec;
    this.#call = call;
    this.#settings = settings;
  }

  decode(): Promise<RpcRequest> {
    return this.#codec.decode(this.#settings.limits);
  }

  unary(method: A2ABinding, output: Message): HttpBodyReply {
    const headers = this.#call.replyHeaders(this.#settings.replyHeaders);
    return { kind: "body", status: 200, headers, body: this.#codec.result(method, output) };
  }

  stream(_method: A2ABinding, frames: AsyncIterable<Message>): Promise<HttpReply> {
    const codec = this.#codec;
    const call = this.#call;
    return sseReply(frames, call, {
      frame: (frame) => codec.frame(frame),
      error: (error) => {
        logFailure(this.#settings.logger, error, call.binding);
        return codec.error(error).body;
      },
    });
  }

  error(error: unknown): HttpBodyReply {
    const headers = this.#call.replyHeaders(this.#settings.replyHeaders);
    if (!(error instanceof BodyTooLargeError)) return { kind: "body", ...this.#codec.error(error), headers };
    const refused = new JSONParseError(`Request body exceeds ${error.maxBytes} bytes`, {
      metadata: { maxBodyBytes: String(error.maxBytes) },
    });
    // The rest of the body was not read: the connection cannot carry another request.
    return { kind: "body", ...this.#codec.error(refused), headers: { ...headers, connection: "close" } };
  }
}
