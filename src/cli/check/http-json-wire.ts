/** The HTTP+JSON binding (spec §11) for the check: the routes of the generated table, SSE for streams. */
import type { JsonObject } from "@bufbuild/protobuf";
import { A2A_PROTOCOL_VERSION, JSON_MEDIA_TYPE, PROTOCOL_BINDING_HTTP_JSON } from "../../index.js";
import { type A2AMethodName, a2aServiceBindings, httpRoutesOf } from "../../protocol/index.js";
import { type HttpAnswer, isEventStream, notJsonError, readAnswer, sseItems } from "./http-wire.js";
import {
  answersEmpty,
  callHeaders,
  errorInfoIn,
  type HeaderOverrides,
  isJsonObjectValue,
  recordStream,
  type StreamItem,
  single,
  type Wire,
  type WireError,
  type WireReply,
} from "./wire.js";

/** A google.rpc.Status error body (`{"error": {...}}`) as a WireError. */
export function httpJsonError(status: number, body: unknown): WireError {
  const error = isJsonObjectValue(body) && isJsonObjectValue(body.error) ? body.error : {};
  return {
    httpStatus: status,
    statusName: typeof error.status === "string" ? error.status : undefined,
    message: typeof error.message === "string" ? error.message : `HTTP ${status}`,
    ...errorInfoIn(error.details),
    body,
  };
}

/** The method, path and body of an RPC on its plain (or `/{tenant}`) route. */
export function httpRequestOf(
  method: A2AMethodName,
  request: JsonObject,
): { verb: string; path: string; body?: string } {
  const routes = httpRoutesOf(a2aServiceBindings[method]);
  const route = (request.tenant ? routes.find((r) => r.tenant) : routes.find((r) => !r.tenant)) ?? routes[0];
  if (!route) throw new Error(`${method} has no HTTP route`);
  const rest: JsonObject = { ...request };
  const segments = route.segments.map((segment) => {
    if ("literal" in segment) return segment.literal;
    const key = segment.jsonPath[0] as string;
    const value = String(rest[key] ?? "");
    delete rest[key];
    return encodeURIComponent(value);
  });
  const path = `/${segments.join("/")}${route.verb ? `:${route.verb}` : ""}`;
  if (route.body === "*") return { verb: route.method, path, body: JSON.stringify(rest) };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(rest)) {
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
  }
  return { verb: route.method, path: query.size > 0 ? `${path}?${query}` : path };
}

export class HttpJsonWire implements Wire {
  readonly binding = PROTOCOL_BINDING_HTTP_JSON;
  readonly baseUrl: string;
  readonly #timeoutMs: number;

  readonly #headers: Record<string, string>;

  /** `headers` (credentials, `--header`) go on every request. */
  constructor(baseUrl: string, timeoutMs: number, headers: Record<string, string> = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.#timeoutMs = timeoutMs;
    this.#headers = headers;
  }

  /**
   * One request to `path` (under the interface URL) as given. Bodies are sent as
   * `application/json`, which every server takes; whether `application/a2a+json`
   * is accepted too is a requirement of its own.
   */
  send(
    verb: string,
    path: string,
    body: string | undefined,
    overrides?: HeaderOverrides,
    signal?: AbortSignal,
  ): Promise<Response> {
    const headers = callHeaders(
      {
        "a2a-version": A2A_PROTOCOL_VERSION,
        ...(body === undefined ? {} : { "content-type": JSON_MEDIA_TYPE }),
        ...this.#headers,
      },
      overrides,
    );
    return fetch(`${this.baseUrl}${path}`, {
      method: verb,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: signal ?? AbortSignal.timeout(this.#timeoutMs),
    });
  }

  async sendJson(
    verb: string,
    path: string,
    body: string | undefined,
    overrides?: HeaderOverrides,
  ): Promise<HttpAnswer> {
    return readAnswer(await this.send(verb, path, body, overrides));
  }

  async call(method: A2AMethodName, request: JsonObject, overrides?: HeaderOverrides): Promise<WireReply> {
    const { verb, path, body } = httpRequestOf(method, request);
    const answer = await this.sendJson(verb, path, body, overrides);
    const meta = { httpStatus: answer.status, contentType: answer.contentType };
    if (answer.status >= 200 && answer.status < 300) {
      if (isJsonObjectValue(answer.json)) return { ok: true, json: answer.json, ...meta };
      if (answer.text === "" && answersEmpty(method)) return { ok: true, json: {}, ...meta };
      return { ok: false, error: notJsonError(answer), ...meta };
    }
    if (!isJsonObjectValue(answer.json)) return { ok: false, error: notJsonError(answer), ...meta };
    return { ok: false, error: httpJsonError(answer.status, answer.json), ...meta };
  }

  async stream(
    method: A2AMethodName,
    request: JsonObject,
    options: Parameters<Wire["stream"]>[2],
    overrides?: HeaderOverrides,
  ) {
    const abort = new AbortController();
    const { verb, path, body } = httpRequestOf(method, request);
    const response = await this.send(verb, path, body, overrides, abort.signal);
    const opened = {
      httpStatus: response.status,
      contentType: response.headers.get("content-type") ?? "",
      problems: [],
    };
    if (!isEventStream(response)) {
      const answer = await readAnswer(response);
      const error = isJsonObjectValue(answer.json) ? httpJsonError(answer.status, answer.json) : notJsonError(answer);
      return recordStream(single({ error }), abort, options, opened);
    }
    const items = sseItems(
      response,
      (data, event): StreamItem =>
        event === "error" ? { error: httpJsonError(response.status, data) } : { frame: data },
    );
    return recordStream(items, abort, options, opened);
  }

  async close(): Promise<void> {}
}
