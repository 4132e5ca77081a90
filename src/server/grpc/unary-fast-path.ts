/**
 * Plain gRPC unary calls answered straight from the HTTP/2 request: read the
 * one length-prefixed message, decode it, answer through the same
 * `GrpcUnaryMethod` connect-es calls, write the message and the status
 * trailers. connect-node's general pipeline (async iterables, linked abort
 * controllers, an abort with a DOMException at the end of every call) costs
 * ~450 µs of CPU per unary call here against ~35 µs for node:http2 itself,
 * which put a gRPC echo behind grpc-js (docs/decisions.md B24).
 *
 * Only the common case takes this path: HTTP/2, POST, `application/grpc` or
 * `application/grpc+proto`, uncompressed, no deadline. Everything else
 * (streaming, compression, `grpc-timeout`, Connect, gRPC-Web, other content
 * types) goes to connect-node, so the wire contract stays connect's; the
 * status codes for malformed envelopes are the ones connect gives.
 */
import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse, OutgoingHttpHeaders } from "node:http2";
import { fromBinary, type Message, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { PROTOCOL_BINDING_GRPC } from "../../a2a/constants.js";
import type { HeadersLike } from "../../a2a/headers.js";
import type { ServerCallContext } from "../call-context.js";
import type { GrpcUnaryMethod } from "./grpc-service.js";

type NodeRequest = IncomingMessage | Http2ServerRequest;

export interface UnaryFastPathOptions {
  /** Largest request message accepted (RESOURCE_EXHAUSTED beyond), as connect's `readMaxBytes`. */
  readonly maxMessageBytes: number;
  /** Aborting it detaches every call in flight, as connect-node's `shutdownSignal`. */
  readonly shutdownSignal?: AbortSignal;
}

const RESPONSE_CONTENT_TYPE = "application/grpc+proto";
const ENVELOPE_HEADER_BYTES = 5;
const FLAG_COMPRESSED = 0b0000_0001;
const OK_TRAILERS = { "grpc-status": "0" };

/** `fallback` (connect-node's handler) for every call, except plain gRPC unary ones answered here. */
export function withUnaryFastPath<Req extends NodeRequest, Res>(
  methods: ReadonlyMap<string, GrpcUnaryMethod>,
  fallback: (req: Req, res: Res) => void,
  options: UnaryFastPathOptions,
): (req: Req, res: Res) => void {
  return (req, res) => {
    const method = fastMethod(req, methods);
    // fastMethod takes HTTP/2 requests only: the pair is node:http2's.
    if (method) void answer(method, req as Http2ServerRequest, res as unknown as Http2ServerResponse, options);
    else fallback(req, res);
  };
}

function fastMethod(req: NodeRequest, methods: ReadonlyMap<string, GrpcUnaryMethod>): GrpcUnaryMethod | undefined {
  if (req.httpVersionMajor !== 2 || req.method !== "POST") return undefined;
  const method = methods.get(req.url ?? "");
  if (!method) return undefined;
  const headers = req.headers;
  const type = headers["content-type"];
  if (type !== "application/grpc" && type !== RESPONSE_CONTENT_TYPE) return undefined;
  const encoding = headers["grpc-encoding"];
  if (encoding !== undefined && encoding !== "identity") return undefined;
  if (headers["grpc-timeout"] !== undefined) return undefined;
  return method;
}

async function answer(
  method: GrpcUnaryMethod,
  req: Http2ServerRequest,
  res: Http2ServerResponse,
  options: UnaryFastPathOptions,
): Promise<void> {
  const call = new FastCall(req.headers, res, options.shutdownSignal);
  let reply: Uint8Array | undefined;
  let trailers: OutgoingHttpHeaders = OK_TRAILERS;
  try {
    const body = await readBody(req, options.maxMessageBytes);
    const response = await method.answer(decode(method, singleMessage(body)), call);
    reply = envelope(toBinary(method.binding.output, response as never));
  } catch (error) {
    trailers = errorTrailers(error);
  } finally {
    call.close();
  }
  if (res.stream.destroyed) return;
  res.writeHead(200, call.replyHeaders());
  res.addTrailers(trailers);
  if (reply) res.end(reply);
  else res.end();
}

/**
 * The request body, up to one envelope of the largest allowed message. A
 * body that claims more is refused as soon as its header says so.
 */
function readBody(req: Http2ServerRequest, maxMessageBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.byteLength;
      if (length >= ENVELOPE_HEADER_BYTES) {
        const head = chunks.length === 1 ? chunk : Buffer.concat(chunks);
        const declared = head.readUInt32BE(1);
        if (declared > maxMessageBytes) {
          req.off("data", onData);
          req.resume();
          reject(
            new ConnectError(
              `message size ${declared} is larger than configured readMaxBytes ${maxMessageBytes}`,
              Code.ResourceExhausted,
            ),
          );
        }
      }
    };
    req.on("data", onData);
    req.once("end", () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/** The one message of a unary request body, or the error connect gives for the body's shape. */
function singleMessage(body: Buffer): Uint8Array {
  if (body.byteLength === 0) {
    throw new ConnectError("protocol error: missing input message for unary method", Code.Unimplemented);
  }
  if (body.byteLength < ENVELOPE_HEADER_BYTES) {
    throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
  }
  const flags = body[0] as number;
  const end = ENVELOPE_HEADER_BYTES + body.readUInt32BE(1);
  if (body.byteLength < end) throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
  if (flags & FLAG_COMPRESSED) {
    throw new ConnectError("received compressed envelope, but do not know how to decompress", Code.Internal);
  }
  if (flags !== 0) throw new ConnectError(`protocol error: unexpected envelope flags ${flags}`, Code.InvalidArgument);
  if (body.byteLength > end) {
    throw new ConnectError("protocol error: received extra input message for unary method", Code.Unimplemented);
  }
  return body.subarray(ENVELOPE_HEADER_BYTES, end);
}

function decode(method: GrpcUnaryMethod, bytes: Uint8Array): Message {
  try {
    return fromBinary(method.binding.input, bytes) as Message;
  } catch (error) {
    throw new ConnectError(`parse binary: ${(error as Error).message}`, Code.Internal);
  }
}

/** The gRPC length-prefixed message: flags 0, 4-byte big-endian length, the bytes. */
function envelope(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(ENVELOPE_HEADER_BYTES + message.byteLength);
  out[0] = 0;
  out.writeUInt32BE(message.byteLength, 1);
  out.set(message, ENVELOPE_HEADER_BYTES);
  return out;
}

/** `grpc-status`, `grpc-message` and `grpc-status-details-bin`, encoded by connect as on its own path. */
function errorTrailers(error: unknown): OutgoingHttpHeaders {
  const status =
    error instanceof ConnectError
      ? error
      : new ConnectError("internal error", Code.Internal, undefined, undefined, error);
  const headers = new Headers();
  setTrailerStatus(headers, status);
  return Object.fromEntries(headers);
}

/**
 * The call context of one fast call. Its signal (aborted when the caller
 * resets the stream before the answer, or on shutdown) and its response
 * headers are made only when the handler asks for them.
 */
class FastCall implements ServerCallContext {
  readonly binding = PROTOCOL_BINDING_GRPC;
  readonly headers: HeadersLike;
  readonly #res: Http2ServerResponse;
  readonly #shutdown: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #responseHeaders: Headers | undefined;
  #closed = false;

  constructor(headers: HeadersLike, res: Http2ServerResponse, shutdown: AbortSignal | undefined) {
    this.headers = headers;
    this.#res = res;
    this.#shutdown = shutdown;
  }

  readonly #detach = () => {
    this.#controller?.abort(
      this.#shutdown?.aborted ? this.#shutdown.reason : new Error("The caller cancelled the call"),
    );
    this.#unwatch();
  };

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#closed) return this.#controller.signal;
      if (this.#res.stream.destroyed || this.#shutdown?.aborted) this.#detach();
      else {
        this.#res.once("close", this.#detach);
        this.#shutdown?.addEventListener("abort", this.#detach, { once: true });
      }
    }
    return this.#controller.signal;
  }

  get responseHeaders(): Headers {
    this.#responseHeaders ??= new Headers();
    return this.#responseHeaders;
  }

  /** The response head: the content type and whatever the handler set. */
  replyHeaders(): OutgoingHttpHeaders {
    const head: OutgoingHttpHeaders = { "content-type": RESPONSE_CONTENT_TYPE };
    this.#responseHeaders?.forEach((value, name) => {
      head[name] = value;
    });
    return head;
  }

  /** The answer is made: a later stream close is the call ending, not the caller leaving. */
  close(): void {
    this.#closed = true;
    this.#unwatch();
  }

  #unwatch(): void {
    if (!this.#controller) return;
    this.#res.off("close", this.#detach);
    this.#shutdown?.removeEventListener("abort", this.#detach);
  }
}
