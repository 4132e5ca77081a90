/**
 * The JSON-RPC 2.0 envelope of the A2A JSON-RPC binding (spec §9): request
 * decoding with the right error for each way a body can be wrong, and the
 * response envelopes. Method names come from the generated binding table, so
 * v0.3 names (`message/send`) are simply unknown (-32601).
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { type A2ABinding, bindingForJsonRpcMethod } from "./bindings.js";
import { fromJsonRpcErrorObject, toJsonRpcErrorObject } from "./error-wire.js";
import {
  type A2AError,
  InvalidAgentResponseError,
  InvalidParamsError,
  InvalidRequestError,
  JSONParseError,
  MethodNotFoundError,
} from "./errors.js";
import { isJsonObject } from "./json-object.js";
import { parseRequestJson } from "./request-limits.js";

export const JSONRPC_VERSION = "2.0";
/** Bodies above this many bytes are refused (-32700) before any parsing. See docs/decisions.md. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

export type JsonRpcId = string | number | null;

export interface JsonRpcRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly binding: A2ABinding;
  readonly params: JsonObject;
}

/** Exactly one of request or error; the error's `id` is what the response must echo. */
export type JsonRpcDecodeResult =
  | { readonly ok: true; readonly request: JsonRpcRequest }
  | { readonly ok: false; readonly id: JsonRpcId; readonly error: A2AError };

export interface JsonRpcDecodeOptions {
  maxBodyBytes?: number;
  /** JSON values the body may hold (-32602 beyond, before parsing). Default `MAX_REQUEST_VALUES`. */
  maxValues?: number;
}

const utf8 = new TextEncoder();

function byteLength(body: string | Uint8Array, cap: number): number {
  if (typeof body !== "string") return body.byteLength;
  // A UTF-16 unit is at most 3 UTF-8 bytes: only long strings need counting.
  return body.length * 3 <= cap ? body.length : utf8.encode(body).byteLength;
}

const fail = (id: JsonRpcId, error: A2AError): JsonRpcDecodeResult => ({ ok: false, id, error });

/** Decodes a raw request body: size cap, then the value limit (request-limits.ts), then JSON, then the envelope. */
export function decodeJsonRpcRequest(
  body: string | Uint8Array,
  options: JsonRpcDecodeOptions = {},
): JsonRpcDecodeResult {
  const cap = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (byteLength(body, cap) > cap) {
    return fail(
      null,
      new JSONParseError(`Request body exceeds ${cap} bytes`, { metadata: { maxBodyBytes: String(cap) } }),
    );
  }
  let value: unknown;
  try {
    value = parseRequestJson(typeof body === "string" ? utf8.encode(body) : body, options.maxValues);
  } catch (error) {
    return fail(null, error as A2AError);
  }
  return parseJsonRpcRequest(value);
}

/** Checks an already-parsed body against JSON-RPC 2.0 and the A2A method table. */
export function parseJsonRpcRequest(value: unknown): JsonRpcDecodeResult {
  if (Array.isArray(value)) {
    return fail(null, new InvalidRequestError("Batch requests are not supported: A2A defines no batched operation"));
  }
  if (!isJsonObject(value)) return fail(null, new InvalidRequestError("Request must be a JSON object"));
  const id = value.id;
  if (id === undefined || (id !== null && typeof id !== "string" && typeof id !== "number")) {
    return fail(null, new InvalidRequestError("Request id must be a string, a number or null"));
  }
  if (value.jsonrpc !== JSONRPC_VERSION) return fail(id, new InvalidRequestError('jsonrpc must be "2.0"'));
  const method = value.method;
  if (typeof method !== "string") return fail(id, new InvalidRequestError("method must be a string"));
  const binding = bindingForJsonRpcMethod(method);
  if (!binding) return fail(id, new MethodNotFoundError(`Method not found: ${method}`, { metadata: { method } }));
  const params = value.params ?? {};
  if (!isJsonObject(params)) return fail(id, new InvalidParamsError("params must be an object"));
  return { ok: true, request: { id, method, binding, params: params as JsonObject } };
}

/** `{"jsonrpc":"2.0","id":…,"result":…}` as a string, without re-serialising the result twice. */
export function encodeJsonRpcResult(id: JsonRpcId, result: JsonValue): string {
  return encodeJsonRpcResultText(id, JSON.stringify(result));
}

/** The result envelope around a result that is already JSON text (e.g. `encodeMessageText`). */
export function encodeJsonRpcResultText(id: JsonRpcId, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${idText(id)},"result":${resultJson}}`;
}

/**
 * The id as JSON text. A finite number (most clients count their calls) is
 * written as `JSON.stringify` writes it, without the call into it, which costs
 * more than the rest of the envelope; anything else goes through it.
 */
function idText(id: JsonRpcId): string {
  return typeof id === "number" && Number.isFinite(id) ? `${id}` : JSON.stringify(id);
}

/** The error envelope; anything that is not an A2AError is answered as a generic -32603. */
export function encodeJsonRpcError(id: JsonRpcId, error: unknown): string {
  return JSON.stringify({ jsonrpc: JSONRPC_VERSION, id, error: toJsonRpcErrorObject(error) });
}

export function jsonRpcRequestEnvelope(method: string, params: JsonValue, id: JsonRpcId): JsonObject {
  return { jsonrpc: JSONRPC_VERSION, id, method, params };
}

export type JsonRpcResponseResult =
  | { readonly ok: true; readonly id: JsonRpcId | undefined; readonly result: unknown }
  | { readonly ok: false; readonly id: JsonRpcId | undefined; readonly error: A2AError };

/**
 * Reads a response body. The error member is checked first (`result: null` is
 * legal); a body with neither envelope member is taken as a bare result, for
 * hand-rolled peers. A non-object body is an InvalidAgentResponseError.
 */
export function parseJsonRpcResponse(body: unknown): JsonRpcResponseResult {
  if (!isJsonObject(body)) throw new InvalidAgentResponseError("JSON-RPC response is not a JSON object");
  const id = body.id as JsonRpcId | undefined;
  if (body.error !== undefined && body.error !== null)
    return { ok: false, id, error: fromJsonRpcErrorObject(body.error) };
  if ("result" in body) return { ok: true, id, result: body.result };
  if (body.jsonrpc === JSONRPC_VERSION)
    throw new InvalidAgentResponseError("JSON-RPC response has neither result nor error");
  return { ok: true, id: undefined, result: body };
}
