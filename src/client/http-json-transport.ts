/**
 * The HTTP+JSON binding (spec §11). Routes, verbs and which fields travel in
 * the path, the body or the query all come from the generated binding table
 * (the proto's `google.api.http` annotations); a tenant selects the
 * `/{tenant}/…` variant. The one deviation is decision P18: SubscribeToTask
 * is sent as `POST`, which every server accepts, although the proto says GET.
 * The rest of a call is the HTTP transport's (http-transport.ts).
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { StreamResponse } from "../../gen/a2a_pb.js";
import { a2aServiceHttpRoutes } from "../../gen/a2a_routes.js";
import type { A2AHttpRoute } from "../a2a/bindings.js";
import { A2A_JSON_MEDIA_TYPE, JSON_MEDIA_TYPE, PROTOCOL_BINDING_HTTP_JSON, SSE_MEDIA_TYPE } from "../a2a/constants.js";
import { fromHttpError } from "../a2a/error-wire.js";
import { isJsonObject } from "../a2a/json-object.js";
import type { SseEvent } from "../a2a/sse.js";
import { requestJson } from "./codecs.js";
import { parseEventJson } from "./http-stream.js";
import { type HttpCallCodec, HttpTransport } from "./http-transport.js";
import type { HttpTransportOptions } from "./http-transport-options.js";
import { decodeFrame } from "./reply-decoding.js";
import type { StreamingMethod, UnaryMethod } from "./transport.js";

type Method = UnaryMethod | StreamingMethod;

/** One call's HTTP request, derived from its route and its request message. */
type HttpRequestPlan = Pick<HttpCallCodec, "method" | "url" | "body">;

/** Query parameters per §11.5: camelCase names, repeated fields repeated, nested fields dotted. */
function appendQuery(query: URLSearchParams, prefix: string, value: JsonValue): void {
  if (value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) appendQuery(query, prefix, item);
  } else if (typeof value === "object") {
    for (const [key, item] of Object.entries(value)) appendQuery(query, `${prefix}.${key}`, item);
  } else {
    query.append(prefix, String(value));
  }
}

function planRequest(method: Method, json: JsonObject, baseUrl: string): HttpRequestPlan {
  const routes: readonly A2AHttpRoute[] = a2aServiceHttpRoutes[method];
  const tenant = typeof json.tenant === "string" && json.tenant !== "";
  const route = routes.find((r) => r.tenant === tenant) ?? (routes[0] as A2AHttpRoute);
  const rest: JsonObject = { ...json };
  let path = "";
  for (const segment of route.segments) {
    if ("literal" in segment) {
      path += `/${segment.literal}`;
      continue;
    }
    const key = segment.jsonPath[0] as string;
    path += `/${encodeURIComponent(String(json[key] ?? ""))}`;
    delete rest[key];
  }
  if (route.verb) path += `:${route.verb}`;
  let body: string | undefined;
  const query = new URLSearchParams();
  if (route.body === "*") {
    body = JSON.stringify(rest);
  } else {
    if (route.body !== "") {
      body = JSON.stringify(rest[route.body] ?? {});
      delete rest[route.body];
    }
    for (const [key, value] of Object.entries(rest)) appendQuery(query, key, value);
  }
  const search = query.size > 0 ? `?${query}` : "";
  return {
    method: method === "SubscribeToTask" ? "POST" : route.method,
    url: `${baseUrl.replace(/\/+$/, "")}${path}${search}`,
    body,
  };
}

/** A frame, or the google.rpc.Status an agent sends as an `error` event mid-stream. */
function readFrame(event: SseEvent): StreamResponse | Promise<StreamResponse> {
  const json = parseEventJson(event);
  if (isJsonObject(json) && isJsonObject(json.error)) {
    const status = typeof json.error.code === "number" ? json.error.code : 500;
    throw fromHttpError(status, json);
  }
  return decodeFrame(json);
}

export class HttpJsonTransport extends HttpTransport {
  constructor(options: HttpTransportOptions) {
    super(
      {
        binding: PROTOCOL_BINDING_HTTP_JSON,
        accept: {
          unary: `${A2A_JSON_MEDIA_TYPE}, ${JSON_MEDIA_TYPE}`,
          stream: `${SSE_MEDIA_TYPE}, ${A2A_JSON_MEDIA_TYPE}`,
        },
        open: async (rpc, request) => ({
          ...planRequest(rpc, await requestJson(rpc, request as never), options.baseUrl),
          result: (json) => json,
          frame: readFrame,
        }),
      },
      options,
    );
  }
}
