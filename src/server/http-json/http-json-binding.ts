/**
 * The HTTP+JSON binding (spec §11) as an `HttpBinding` over an
 * `A2ARequestHandler`: routes from the generated table, requests transcoded
 * to the RPC's request message, answers as `application/a2a+json`, errors as
 * `google.rpc.Status` JSON, streams as SSE of bare `StreamResponse` objects.
 */
import type { DescMessage, JsonValue } from "@bufbuild/protobuf";
import { type StreamResponse, StreamResponseSchema } from "../../../gen/a2a_pb.js";
import { A2A_JSON_MEDIA_TYPE, PROTOCOL_BINDING_HTTP_JSON, SSE_MEDIA_TYPE } from "../../a2a/constants.js";
import { toHttpErrorBody } from "../../a2a/error-wire.js";
import { MethodNotFoundError } from "../../a2a/errors.js";
import type { HeadersLike } from "../../a2a/headers.js";
import { headerValue } from "../../a2a/headers.js";
import { DEFAULT_MAX_BODY_BYTES } from "../../a2a/jsonrpc.js";
import { encodeMessage } from "../../a2a/protojson.js";
import { encodeSseEvent } from "../../a2a/sse.js";
import { A2A_VERSION_HEADER } from "../../a2a/version.js";
import type { ServerCallContext } from "../call-context.js";
import type { HttpBinding, HttpBodyReply, HttpReply, HttpRequestLike, HttpStreamReply } from "../http-exchange.js";
import type { A2ARequestHandler } from "../request-handler.js";
import { detachable } from "./detachable-stream.js";
import { streamingMethodOf, unaryMethodOf } from "./handler-method.js";
import { decodeRouteRequest } from "./request-json.js";
import { isMethodMismatch, matchRoute } from "./route-table.js";

export interface HttpJsonBindingOptions {
  /** Request bodies above this many bytes are refused (JSONParseError, 400). Default 10 MiB, as JSON-RPC. */
  readonly maxBodyBytes?: number;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** Serves the HTTP+JSON routes of `handler`; answers `undefined` for paths that are not one of them. */
export function createHttpJsonBinding(handler: A2ARequestHandler, options: HttpJsonBindingOptions = {}): HttpBinding {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return {
    async handle(request) {
      const match = matchRoute(request.method, request.path);
      if (!match) return undefined;
      if (isMethodMismatch(match)) return methodNotAllowed(request, match.allow);
      const call = openCall(request);
      try {
        const input = await decodeRouteRequest(match, request, maxBodyBytes);
        if (match.binding.kind === "server_streaming") {
          const stream = streamingMethodOf(handler, match.binding)(input, call.context);
          return await streamReply(stream as AsyncIterable<StreamResponse>, call);
        }
        const output = await unaryMethodOf(handler, match.binding)(input, call.context);
        call.close();
        return jsonReply(200, encodeMessage(match.binding.output as DescMessage, output), call.context.responseHeaders);
      } catch (error) {
        call.close();
        return errorReply(error, call.context.responseHeaders);
      }
    },
  };
}

interface Call {
  readonly context: ServerCallContext;
  /** The caller went away (or the adapter stopped reading): aborts `context.signal`. */
  detach(): void;
  /** The call ended normally: stop listening to the request. */
  close(): void;
}

function openCall(request: HttpRequestLike): Call {
  const controller = new AbortController();
  const detach = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) detach();
  else request.signal.addEventListener("abort", detach, { once: true });
  return {
    context: {
      binding: PROTOCOL_BINDING_HTTP_JSON,
      headers: withQueryVersion(request.headers, request.query),
      signal: controller.signal,
      responseHeaders: new Headers(),
    },
    detach,
    close: () => request.signal.removeEventListener("abort", detach),
  };
}

/**
 * §3.6.1: a client MAY send `A2A-Version` as a query parameter instead of the
 * header. The header wins when both are present.
 */
function withQueryVersion(headers: HeadersLike, query: URLSearchParams): HeadersLike {
  const version = query.get(A2A_VERSION_HEADER);
  if (version === null || headerValue(headers, A2A_VERSION_HEADER)?.trim()) return headers;
  const merged = new Headers();
  const entries = Symbol.iterator in headers ? headers : Object.entries(headers);
  for (const [name, value] of entries as Iterable<readonly [string, string | readonly string[] | undefined]>) {
    for (const v of typeof value === "string" ? [value] : (value ?? [])) merged.append(name, v);
  }
  merged.set(A2A_VERSION_HEADER, version);
  return merged;
}

function replyHeaders(base: Record<string, string>, extra: Headers): Record<string, string> {
  const out = { ...base };
  extra.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

function jsonReply(status: number, body: JsonValue | object, extra: Headers): HttpBodyReply {
  return {
    kind: "body",
    status,
    headers: replyHeaders({ "content-type": A2A_JSON_MEDIA_TYPE }, extra),
    body: JSON.stringify(body),
  };
}

function errorReply(error: unknown, extra: Headers): HttpBodyReply {
  const { status, body } = toHttpErrorBody(error);
  return jsonReply(status, body, extra);
}

/**
 * A path this binding serves, with a method it does not: 405 with `Allow`.
 * The error is MethodNotFoundError (reason METHOD_NOT_FOUND); the status
 * name is UNIMPLEMENTED, as grpc-gateway answers a 405.
 */
function methodNotAllowed(request: HttpRequestLike, allow: readonly string[]): HttpBodyReply {
  const error = new MethodNotFoundError(
    `${request.method} is not allowed on ${request.path}; allowed: ${allow.join(", ")}`,
    {
      metadata: { method: request.method, allow: allow.join(",") },
    },
  );
  const { body } = toHttpErrorBody(error);
  const reply = jsonReply(405, { error: { ...body.error, code: 405, status: "UNIMPLEMENTED" } }, new Headers());
  return { ...reply, headers: { ...reply.headers, allow: allow.join(", ") } };
}

const SSE_HEADERS = {
  "content-type": SSE_MEDIA_TYPE,
  "cache-control": "no-cache",
  // Tells nginx-style proxies not to buffer the stream.
  "x-accel-buffering": "no",
};

function sseFrame(frame: StreamResponse): string {
  return encodeSseEvent(JSON.stringify(encodeMessage(StreamResponseSchema, frame)));
}

/**
 * The first frame is awaited before anything is sent, so an error raised
 * before it (unknown task, version, extension…) is an ordinary error
 * response. An error after it is an `event: error` carrying the
 * `google.rpc.Status` JSON, and ends the stream.
 */
async function streamReply(stream: AsyncIterable<StreamResponse>, call: Call): Promise<HttpReply> {
  const frames = detachable(stream, call.context.signal);
  const first = await frames.next();
  let pending: StreamResponse | undefined = first.done ? undefined : first.value;
  let finished = false;
  const finish = () => {
    finished = true;
    call.close();
  };
  const chunks: AsyncIterableIterator<string> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (finished) return DONE;
      if (pending) {
        const frame = pending;
        pending = undefined;
        return { done: false, value: sseFrame(frame) };
      }
      try {
        const next = await frames.next();
        if (!next.done) return { done: false, value: sseFrame(next.value) };
        finish();
        return DONE;
      } catch (error) {
        finish();
        return { done: false, value: encodeSseEvent(JSON.stringify(toHttpErrorBody(error).body), { event: "error" }) };
      }
    },
    async return() {
      if (!finished) {
        finish();
        call.detach();
      }
      return DONE;
    },
  };
  const reply: HttpStreamReply = {
    kind: "stream",
    status: 200,
    headers: replyHeaders(SSE_HEADERS, call.context.responseHeaders),
    chunks,
  };
  return reply;
}
