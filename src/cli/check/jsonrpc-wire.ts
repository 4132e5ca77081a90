/** The JSON-RPC binding (spec §9) for the check: envelopes POSTed to the interface URL, SSE for streams. */
import type { JsonObject } from "@bufbuild/protobuf";
import { A2A_PROTOCOL_VERSION, PROTOCOL_BINDING_JSONRPC } from "../../index.js";
import { type A2AMethodName, a2aServiceBindings } from "../../protocol/index.js";
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

/** The JSON-RPC `error` member as a WireError. */
export function jsonRpcError(error: unknown, httpStatus?: number): WireError {
  const e = isJsonObjectValue(error) ? error : {};
  return {
    jsonRpcCode: typeof e.code === "number" ? e.code : undefined,
    httpStatus,
    message: typeof e.message === "string" ? e.message : "(no message)",
    ...errorInfoIn(e.data),
    body: error,
  };
}

export class JsonRpcWire implements Wire {
  readonly binding = PROTOCOL_BINDING_JSONRPC;
  readonly url: string;
  readonly #timeoutMs: number;
  #id = 0;

  readonly #headers: Record<string, string>;

  /** `headers` (credentials, `--header`) go on every request. */
  constructor(url: string, timeoutMs: number, headers: Record<string, string> = {}) {
    this.url = url;
    this.#timeoutMs = timeoutMs;
    this.#headers = headers;
  }

  /** POSTs `body` as it is (the malformed-input requirements send broken envelopes). */
  post(body: string, overrides?: HeaderOverrides, signal?: AbortSignal): Promise<Response> {
    const headers = callHeaders(
      { "content-type": "application/json", "a2a-version": A2A_PROTOCOL_VERSION, ...this.#headers },
      overrides,
    );
    return fetch(this.url, { method: "POST", headers, body, signal: signal ?? AbortSignal.timeout(this.#timeoutMs) });
  }

  async postJson(body: string, overrides?: HeaderOverrides): Promise<HttpAnswer> {
    return readAnswer(await this.post(body, overrides));
  }

  #envelope(method: A2AMethodName, params: JsonObject): { id: string; body: string } {
    const id = `check-${++this.#id}`;
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: a2aServiceBindings[method].jsonRpcMethod, params });
    return { id, body };
  }

  async call(method: A2AMethodName, request: JsonObject, overrides?: HeaderOverrides): Promise<WireReply> {
    const answer = await this.postJson(this.#envelope(method, request).body, overrides);
    const meta = { httpStatus: answer.status, contentType: answer.contentType };
    if (!isJsonObjectValue(answer.json)) return { ok: false, error: notJsonError(answer), ...meta };
    if (answer.json.error !== undefined)
      return { ok: false, error: jsonRpcError(answer.json.error, answer.status), ...meta };
    if (answer.json.result === null && answersEmpty(method)) return { ok: true, json: {}, ...meta };
    if (!isJsonObjectValue(answer.json.result)) {
      return {
        ok: false,
        error: { httpStatus: answer.status, message: "the envelope has neither a result object nor an error" },
        ...meta,
      };
    }
    return { ok: true, json: answer.json.result, ...meta };
  }

  async stream(
    method: A2AMethodName,
    request: JsonObject,
    options: Parameters<Wire["stream"]>[2],
    overrides?: HeaderOverrides,
  ) {
    const abort = new AbortController();
    const { id, body } = this.#envelope(method, request);
    const response = await this.post(body, overrides, abort.signal);
    const opened = {
      httpStatus: response.status,
      contentType: response.headers.get("content-type") ?? "",
      problems: [] as string[],
    };
    if (!isEventStream(response)) {
      const answer = await readAnswer(response);
      const error =
        isJsonObjectValue(answer.json) && answer.json.error !== undefined
          ? jsonRpcError(answer.json.error, answer.status)
          : notJsonError(answer);
      return recordStream(single({ error }), abort, options, opened);
    }
    const note = (problem: string) => {
      if (!opened.problems.includes(problem)) opened.problems.push(problem);
    };
    const items = sseItems(response, (envelope): StreamItem => {
      if (envelope.id !== id) note("an event does not carry the request's id");
      if (envelope.jsonrpc !== "2.0") note('an event is not a JSON-RPC 2.0 response ("jsonrpc" is not "2.0")');
      if (envelope.error !== undefined) return { error: jsonRpcError(envelope.error, response.status) };
      if (!isJsonObjectValue(envelope.result))
        return { error: { message: "an event has neither a result object nor an error" } };
      return { frame: envelope.result };
    });
    return recordStream(items, abort, options, opened);
  }

  async close(): Promise<void> {}
}
