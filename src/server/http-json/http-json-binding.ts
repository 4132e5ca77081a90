/**
 * The HTTP+JSON binding (spec §11) as an `HttpBinding` over an
 * `A2ARequestHandler`: routes from the generated table, requests transcoded
 * to the RPC's request message, answers as `application/a2a+json`, errors as
 * `google.rpc.Status` JSON, streams as SSE of bare `StreamResponse` objects.
 * The rest of a request's life is the skeleton's (../http-rpc.ts).
 */
import type { DescMessage, Message } from "@bufbuild/protobuf";
import { StreamResponseSchema } from "../../../gen/a2a_pb.js";
import type { A2ABinding } from "../../a2a/bindings.js";
import { A2A_JSON_MEDIA_TYPE, PROTOCOL_BINDING_HTTP_JSON } from "../../a2a/constants.js";
import { toHttpErrorBody } from "../../a2a/error-wire.js";
import { MethodNotFoundError } from "../../a2a/errors.js";
import { type HeadersLike, headerValue } from "../../a2a/headers.js";
import { encodeMessageText } from "../../a2a/protojson.js";
import { A2A_VERSION_HEADER } from "../../a2a/version.js";
import type { HttpBodyReply, HttpRequestLike } from "../http-exchange.js";
import {
  HttpRpcBinding,
  type HttpRpcCodec,
  type HttpRpcOptions,
  type HttpRpcProtocol,
  type RequestLimits,
} from "../http-rpc.js";
import type { A2ARequestHandler } from "../request-handler.js";
import type { RpcRequest } from "../serve-rpc.js";
import { decodeRouteRequest } from "./request-json.js";
import { isMethodMismatch, matchRoute, type RouteMatch } from "./route-table.js";

/** `maxBodyBytes` (default 10 MiB, as JSON-RPC; over it is 400 JSON_PARSE), `maxRequestValues` and the logger of unexpected failures (500 INTERNAL to the caller). */
export type HttpJsonBindingOptions = HttpRpcOptions;

/**
 * §3.6.1: a client MAY send `A2A-Version` as a query parameter instead of the
 * header. The header wins when both are present.
 */
function withQueryVersion(headers: HeadersLike, request: HttpRequestLike): HeadersLike {
  // The header is looked at first: a request that sends it (most do) has its query string left unparsed.
  if (headerValue(headers, A2A_VERSION_HEADER)?.trim()) return headers;
  const version = request.query.get(A2A_VERSION_HEADER);
  if (version === null) return headers;
  const merged = new Headers();
  const entries = Symbol.iterator in headers ? headers : Object.entries(headers);
  for (const [name, value] of entries as Iterable<readonly [string, string | readonly string[] | undefined]>) {
    for (const v of typeof value === "string" ? [value] : (value ?? [])) merged.append(name, v);
  }
  merged.set(A2A_VERSION_HEADER, version);
  return merged;
}

/** One request to a matched route. */
class HttpJsonCodec implements HttpRpcCodec {
  readonly headers: HeadersLike;
  readonly #request: HttpRequestLike;
  readonly #match: RouteMatch;

  constructor(request: HttpRequestLike, match: RouteMatch) {
    this.headers = withQueryVersion(request.headers, request);
    this.#request = request;
    this.#match = match;
  }

  async decode(limits: RequestLimits): Promise<RpcRequest> {
    return { method: this.#match.binding, input: await decodeRouteRequest(this.#match, this.#request, limits) };
  }

  result(method: A2ABinding, output: Message): string {
    return encodeMessageText(method.output as DescMessage, output);
  }

  frame(frame: Message): string {
    return encodeMessageText(StreamResponseSchema, frame as never);
  }

  error(error: unknown): { status: number; body: string } {
    const { status, body } = toHttpErrorBody(error);
    return { status, body: JSON.stringify(body) };
  }
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
  return {
    kind: "body",
    status: 405,
    headers: { "content-type": A2A_JSON_MEDIA_TYPE, allow: allow.join(", ") },
    body: JSON.stringify({ error: { ...body.error, code: 405, status: "UNIMPLEMENTED" } }),
  };
}

const HTTP_JSON: HttpRpcProtocol = {
  binding: PROTOCOL_BINDING_HTTP_JSON,
  mediaType: A2A_JSON_MEDIA_TYPE,
  route(request) {
    const match = matchRoute(request.method, request.path);
    if (!match) return undefined;
    return isMethodMismatch(match) ? methodNotAllowed(request, match.allow) : new HttpJsonCodec(request, match);
  },
};

/** Serves the HTTP+JSON routes; answers `undefined` for paths that are not one of them. */
export class HttpJsonBinding extends HttpRpcBinding {
  constructor(handler: A2ARequestHandler, options: HttpJsonBindingOptions = {}) {
    super(HTTP_JSON, handler, options);
  }
}
