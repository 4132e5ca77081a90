/**
 * The request message of a matched HTTP+JSON route, as google.api.http
 * transcoding builds it: the body (`body: "*"`) or the query parameters
 * (no body), then the path variables on top (the path wins). The result is
 * decoded by `decodeMessage`, which checks syntax and REQUIRED fields.
 */
import type { DescMessage, JsonObject, Message } from "@bufbuild/protobuf";
import { InvalidParamsError } from "../../a2a/errors.js";
import { headerValue } from "../../a2a/headers.js";
import { isJsonObject } from "../../a2a/json-object.js";
import { decodeMessage, invalidParams } from "../../a2a/protojson.js";
import { parseRequestJson } from "../../a2a/request-limits.js";
import type { HttpRequestLike } from "../http-exchange.js";
import type { RequestLimits } from "../http-rpc.js";
import { checkRequestContentType } from "../json-content-type.js";
import { fieldNamed, queryToJson } from "./query-params.js";
import type { RouteMatch } from "./route-table.js";

/**
 * The JSON body. An empty body is `{}` whatever its Content-Type (a2a-js
 * POSTs `:cancel` and `:subscribe` with none); a body needs an accepted one.
 * Its values are counted before it is parsed, as on JSON-RPC.
 */
async function bodyJson(request: HttpRequestLike, { maxBodyBytes, maxValues }: RequestLimits): Promise<JsonObject> {
  const contentType = headerValue(request.headers, "content-type");
  const refused = contentType === undefined ? undefined : checkRequestContentType(contentType);
  if (refused) throw refused;
  // A body over the cap rejects with BodyTooLargeError, which the binding answers.
  const bytes = await request.body(maxBodyBytes);
  if (bytes.byteLength === 0) return {};
  if (contentType === undefined) throw checkRequestContentType(undefined);
  const value = parseRequestJson(bytes, maxValues);
  if (!isJsonObject(value)) throw new InvalidParamsError("The request body must be a JSON object");
  return value;
}

function decodeVariable(raw: string, field: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw invalidParams([{ field, description: `${field}: malformed percent-encoding in the path` }]);
  }
}

/**
 * Decodes the request of `match`. A route without a body reads the query,
 * unless it was reached by a method that carries one (POST `:subscribe`).
 */
export async function decodeRouteRequest(
  match: RouteMatch,
  request: HttpRequestLike,
  limits: RequestLimits,
): Promise<Message> {
  const schema: DescMessage = match.binding.input;
  const fromBody = match.route.body === "*" || request.method !== match.route.method;
  const json = fromBody
    ? await bodyJson(request, limits)
    : queryToJson(schema, request.query, new Set(match.variables.map(([path]) => path[0] as string)));
  // Every path variable of the table binds a top-level field (route-table.test.ts checks it).
  for (const [[name = ""], raw] of match.variables) {
    // The body may name the field by its proto name; the path value replaces it.
    const field = fieldNamed(schema, name);
    if (field) delete json[field.name];
    json[name] = decodeVariable(raw, name);
  }
  return decodeMessage(schema, json, { maxValues: limits.maxValues });
}
