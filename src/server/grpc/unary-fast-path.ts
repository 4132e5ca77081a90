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
 * status codes for malformed envelopes are the ones connect gives. The call
 * itself is every binding's: the same `ServerCall` and the same request
 * skeleton, through `GrpcUnaryMethod`. What is this path's own is the
 * envelope: the body is read with the HTTP bindings' reader and a total cap
 * (one envelope of the largest allowed message), refused as soon as the
 * envelope header declares more; the message's values are counted on the
 * wire before it is decoded (a 10 MiB message of tiny fields costs seconds to
 * decode, as its JSON form does to parse); and the reply is encoded by the
 * generated binary writers (src/a2a/protobinary.ts) straight after room for
 * the envelope header, the same bytes as protobuf-es's `toBinary` at ~40 % of
 * its cost (docs/decisions.md, the gRPC reply encoding).
 */
import type { IncomingMessage } from "node:http";
import { constants, type Http2ServerRequest, type Http2ServerResponse, type OutgoingHttpHeaders } from "node:http2";
import { fromBinary, type Message } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { PROTOCOL_BINDING_GRPC } from "../../a2a/constants.js";
import { encodeBinary } from "../../a2a/protobinary.js";
import { countBinaryValues, MAX_REQUEST_VALUES, tooManyValues } from "../../a2a/request-limits.js";
import { BodyTooLargeError, readNodeBody } from "../../http/capped-body.js";
import { type CallerWatch, ServerCall } from "../server-call.js";
import { toConnectError } from "./grpc-error.js";
import type { GrpcUnaryMethod } from "./grpc-service.js";

type NodeRequest = IncomingMessage | Http2ServerRequest;

export interface UnaryFastPathOptions {
  /** Largest request message accepted (RESOURCE_EXHAUSTED beyond), as connect's `readMaxBytes`. */
  readonly maxMessageBytes: number;
  /** Values a request message may hold, counted before it is decoded. Default `MAX_REQUEST_VALUES`. */
  readonly maxRequestValues?: number;
  /** Aborting it detaches every call in flight, as connect-node's `shutdownSignal`. */
  readonly shutdownSignal?: AbortSignal;
}

const RESPONSE_CONTENT_TYPE = "application/grpc+proto";
const ENVELOPE_HEADER_BYTES = 5;
const FLAG_COMPRESSED = 0b0000_0001;
const OK_TRAILERS = { "grpc-status": "0" };
const RESPONSE_HEADERS: Readonly<Record<string, string>> = { "content-type": RESPONSE_CONTENT_TYPE };

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
  const call = new ServerCall(
    PROTOCOL_BINDING_GRPC,
    req.headers,
    watchStream(res, options.shutdownSignal),
    undefined,
    req.socket?.remoteAddress,
  );
  let reply: Uint8Array | undefined;
  let trailers: OutgoingHttpHeaders = OK_TRAILERS;
  try {
    const body = await readEnvelope(req, options.maxMessageBytes);
    const response = await method.answer(
      decode(method, singleMessage(body), options.maxRequestValues ?? MAX_REQUEST_VALUES),
      call,
    );
    reply = envelope(encodeBinary(method.binding.output, response as never, ENVELOPE_HEADER_BYTES));
  } catch (error) {
    trailers = errorTrailers(error);
  } finally {
    call.close();
  }
  if (res.stream.destroyed) return;
  if (!req.readableEnded) {
    // A body refused unread: a trailers-only answer, then the stream is reset so the caller stops sending.
    res.stream.respond({ ":status": 200, ...call.replyHeaders(RESPONSE_HEADERS), ...trailers }, { endStream: true });
    res.stream.close(constants.NGHTTP2_NO_ERROR);
    return;
  }
  res.writeHead(200, call.replyHeaders(RESPONSE_HEADERS));
  res.addTrailers(trailers);
  if (reply) res.end(reply);
  else res.end();
}

/**
 * The request body: one envelope of the largest allowed message at most, the
 * same total cap the HTTP bindings put on a body. A body that passes it is
 * refused there; one whose envelope header declares more is refused as soon
 * as the header is in. Either way the rest is never read.
 */
async function readEnvelope(req: Http2ServerRequest, maxMessageBytes: number): Promise<Uint8Array> {
  try {
    return await readNodeBody(req, {
      maxBytes: ENVELOPE_HEADER_BYTES + maxMessageBytes,
      declaredLength: Number(req.headers["content-length"]),
      lengthFromHead: envelopeLength,
    });
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    const declared = error.declaredLength === undefined ? "" : ` ${error.declaredLength - ENVELOPE_HEADER_BYTES}`;
    throw new ConnectError(
      `message size${declared} is larger than configured readMaxBytes ${maxMessageBytes}`,
      Code.ResourceExhausted,
    );
  }
}

/** The length of a body holding the envelope whose header starts `head`, once the header is in. */
function envelopeLength(head: Uint8Array): number | undefined {
  return head.byteLength < ENVELOPE_HEADER_BYTES ? undefined : ENVELOPE_HEADER_BYTES + messageLength(head);
}

/** The message length of an envelope header (4 bytes, big-endian, after the flags). */
function messageLength(envelope: Uint8Array): number {
  return new DataView(envelope.buffer, envelope.byteOffset, ENVELOPE_HEADER_BYTES).getUint32(1);
}

/** The one message of a unary request body, or the error connect gives for the body's shape. */
function singleMessage(body: Uint8Array): Uint8Array {
  if (body.byteLength === 0) {
    throw new ConnectError("protocol error: missing input message for unary method", Code.Unimplemented);
  }
  if (body.byteLength < ENVELOPE_HEADER_BYTES) {
    throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
  }
  const flags = body[0] as number;
  const end = ENVELOPE_HEADER_BYTES + messageLength(body);
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

/**
 * The request message. Its values are counted on the wire first, unless it
 * is too short to hold more than `maxValues` (every counted value takes at
 * least one byte): the small calls of the hot path are not scanned at all.
 */
function decode(method: GrpcUnaryMethod, bytes: Uint8Array, maxValues: number): Message {
  if (bytes.byteLength > maxValues && countBinaryValues(method.binding.input, bytes, maxValues) > maxValues) {
    throw toConnectError(tooManyValues(maxValues));
  }
  try {
    return fromBinary(method.binding.input, bytes) as Message;
  } catch (error) {
    throw new ConnectError(`parse binary: ${(error as Error).message}`, Code.Internal);
  }
}

/** The gRPC length-prefixed message, from the message encoded after room for its header: flags 0, 4-byte big-endian length. */
function envelope(framed: Uint8Array): Buffer {
  const out = Buffer.from(framed.buffer, framed.byteOffset, framed.byteLength);
  out[0] = 0;
  out.writeUInt32BE(framed.byteLength - ENVELOPE_HEADER_BYTES, 1);
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
 * The caller of a fast call is gone when it resets the stream before the
 * answer, or when the server shuts down.
 */
function watchStream(res: Http2ServerResponse, shutdown: AbortSignal | undefined): CallerWatch {
  return (onGone) => {
    const gone = () => onGone(shutdown?.aborted ? shutdown.reason : new Error("The caller cancelled the call"));
    if (res.stream.destroyed || shutdown?.aborted) {
      gone();
      return () => undefined;
    }
    res.once("close", gone);
    shutdown?.addEventListener("abort", gone, { once: true });
    return () => {
      res.off("close", gone);
      shutdown?.removeEventListener("abort", gone);
    };
  };
}
