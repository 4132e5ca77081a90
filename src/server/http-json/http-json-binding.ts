/**
 * The HTTP+JSON binding (spec §11) as an `HttpBinding` over an
 * `A2ARequestHandler`: routes from the generated table, requests transcoded
 * to the RPC's request message, answers as `application/a2a+json`, errors as
 * `google.rpc.Status` JSON, streams as SSE of bare `StreamResponse` objects.
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { StreamResponseSchema } from "../../../gen/a2a_pb.js";
import { A2A_JSON_MEDIA_TYPE, PROTOCOL_BINDING_HTTP_JSON } from "../../a2a/constants.js";
import { toHttpErrorBody } from "../../a2a/error-wire.js";
import { A2AError, JSONParseError, MethodNotFoundError } from "../../a2a/errors.js";
import { type HeadersLike, headerValue } from "../../a2a/headers.js";
import { DEFAULT_MAX_BODY_BYTES } from "../../a2a/jsonrpc.js";
import { encodeMessageText } from "../../a2a/protojson.js";
import { A2A_VERSION_HEADER } from "../../a2a/version.js";
import type { Logger } from "../../runtime/logger.js";
import { streamingMethodOf, unaryMethodOf } from "../handler-method.js";
import {
  BodyTooLargeError,
  type HttpBinding,
  type HttpBodyReply,
  type HttpReply,
  type HttpRequestLike,
} from "../http-exchange.js";
import type { A2ARequestHandler } from "../request-handler.js";
import { openServerCall, replyHeaders } from "../server-call.js";
import { sseReply } from "../sse-reply.js";
import { decodeRouteRequest } from "./request-json.js";
import { isMethodMismatch, matchRoute } from "./route-table.js";

export interface HttpJsonBindingOptions {
  /** Request bodies above this many bytes are refused (400 JSON_PARSE). Default 10 MiB, as JSON-RPC. */
  readonly maxBodyBytes?: number;
  /** Where unexpected handler failures are logged (they reach the caller as a bare 500 INTERNAL). */
  readonly logger?: Logger;
}

const JSON_HEADERS: Readonly<Record<string, string>> = { "content-type": A2A_JSON_MEDIA_TYPE };

function jsonReply(status: number, body: unknown, headers: Record<string, string>): HttpBodyReply {
  return { kind: "body", status, headers, body: JSON.stringify(body) };
}

function errorReply(error: unknown, extra: Headers): HttpBodyReply {
  const { status, body } = toHttpErrorBody(error);
  return jsonReply(status, body, replyHeaders(JSON_HEADERS, extra));
}

/**
 * A path this binding serves, with a method it does not: 405 with `Allow`.
 * The error is MethodNotFoundError (reason METHOD_NOT_FOUND); the status
 * name is UNIMPLEMENTED, as grpc-gateway answers a 405.
 */
function methodNotAllowed(request: HttpRequestLike, allow: readonly string[]): HttpBodyReply {
  const error = new MethodNotFoundError(
    `${request.method} is not allowed on ${request.path}; allowed: ${allow.join(", ")}`,
    { metadata: { method: request.method, allow: allow.join(",") } },
  );
  const { body } = toHttpErrorBody(error);
  return jsonReply(
    405,
    { error: { ...body.error, code: 405, status: "UNIMPLEMENTED" } },
    { ...JSON_HEADERS, allow: allow.join(", ") },
  );
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

/** Serves the HTTP+JSON routes; answers `undefined` for paths that are not one of them. */
export class HttpJsonBinding implements HttpBinding {
  readonly protocolBinding = PROTOCOL_BINDING_HTTP_JSON;
  readonly #handler: A2ARequestHandler;
  readonly #maxBodyBytes: number;
  readonly #logger: Logger | undefined;

  constructor(handler: A2ARequestHandler, options: HttpJsonBindingOptions = {}) {
    this.#handler = handler;
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#logger = options.logger;
  }

  async handle(request: HttpRequestLike): Promise<HttpReply | undefined> {
    const match = matchRoute(request.method, request.path);
    if (!match) return undefined;
    if (isMethodMismatch(match)) return methodNotAllowed(request, match.allow);
    const streaming = match.binding.kind === "server_streaming";
    const headers = withQueryVersion(request.headers, request.query);
    const call = openServerCall(request, PROTOCOL_BINDING_HTTP_JSON, headers, streaming);
    try {
      const input = await decodeRouteRequest(match, request, this.#maxBodyBytes);
      if (streaming) {
        const stream = streamingMethodOf(this.#handler, match.binding)(input, call.context);
        return await sseReply(stream, call, {
          frame: (frame) => encodeMessageText(StreamResponseSchema, frame as never),
          error: (error) => {
            this.#logUnexpected(error);
            return JSON.stringify(toHttpErrorBody(error).body);
          },
        });
      }
      const output = await unaryMethodOf(this.#handler, match.binding)(input, call.context);
      call.close();
      return {
        kind: "body",
        status: 200,
        headers: call.replyHeaders(JSON_HEADERS),
        body: encodeMessageText(match.binding.output as DescMessage, output),
      };
    } catch (error) {
      call.close();
      if (error instanceof BodyTooLargeError) {
        const refused = errorReply(
          new JSONParseError(`Request body exceeds ${error.maxBytes} bytes`, {
            metadata: { maxBodyBytes: String(error.maxBytes) },
          }),
          call.context.responseHeaders,
        );
        // The rest of the body was not read: the connection cannot carry another request.
        return { ...refused, headers: { ...refused.headers, connection: "close" } };
      }
      this.#logUnexpected(error);
      return errorReply(error, call.context.responseHeaders);
    }
  }

  /** Failures that are not A2A answers are bugs or outages: the caller sees 500 INTERNAL, the log sees why. */
  #logUnexpected(error: unknown): void {
    if (error instanceof A2AError) return;
    this.#logger?.error({ err: error, binding: PROTOCOL_BINDING_HTTP_JSON }, "request failed");
  }
}
