/**
 * The check's view of one binding: raw requests and what came back, byte
 * for byte where the spec has something to say about it (status codes,
 * content types, JSON field names, error details). It deliberately does not
 * go through `Client`, which is lenient about exactly what is checked here.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { isLastFrame, type ProtocolBinding, StreamResponseSchema } from "../../index.js";
import { type A2AMethodName, a2aServiceBindings, decodeMessage } from "../../protocol/index.js";

/** An error answer, as each binding spells it. */
export interface WireError {
  /** JSON-RPC `error.code`. */
  readonly jsonRpcCode?: number | undefined;
  /** The HTTP status of the response that carried it (JSON-RPC, HTTP+JSON). */
  readonly httpStatus?: number | undefined;
  /** HTTP+JSON `error.status` (a google.rpc.Code name). */
  readonly statusName?: string | undefined;
  /** The gRPC status code. */
  readonly grpcCode?: number | undefined;
  /** The google.rpc.ErrorInfo among the details, whatever its domain. */
  readonly reason?: string | undefined;
  readonly domain?: string | undefined;
  readonly message: string;
  /** The error body as it came (JSON-RPC `error`, HTTP+JSON body), for shape checks. */
  readonly body?: unknown;
}

export type WireReply =
  | { readonly ok: true; readonly json: JsonObject; readonly httpStatus?: number; readonly contentType?: string }
  | { readonly ok: false; readonly error: WireError; readonly httpStatus?: number; readonly contentType?: string };

/** How a stream ended: the agent closed it, it sent an error, it stayed open past the last frame, or it never finished. */
export type StreamEnd = "closed" | "error" | "open-after-last" | "timeout";

export interface StreamRecord {
  /** The StreamResponse of each event (unwrapped from JSON-RPC envelopes). */
  readonly frames: JsonObject[];
  readonly end: StreamEnd;
  readonly error?: WireError | undefined;
  /** Frames that arrived after the first terminal or interrupted one. */
  readonly afterLast: number;
  readonly httpStatus?: number | undefined;
  readonly contentType?: string | undefined;
  /** Binding-level problems noticed on the way (a JSON-RPC envelope without the request's id…). */
  readonly problems: string[];
}

export interface StreamOptions {
  /** Give up waiting for the stream to finish after this long. */
  readonly timeoutMs: number;
  /** After a terminal or interrupted frame, how long the agent has to close the stream. */
  readonly graceMs: number;
  /** Called after each frame (e.g. to cancel the task once the first one is in). */
  readonly onFrame?: (frame: JsonObject, index: number) => void | Promise<void>;
}

export interface Wire {
  readonly binding: ProtocolBinding;
  /** A unary call; `headers` replace the defaults of the same name; `null` removes one. */
  call(method: A2AMethodName, request: JsonObject, headers?: HeaderOverrides): Promise<WireReply>;
  stream(
    method: A2AMethodName,
    request: JsonObject,
    options: StreamOptions,
    headers?: HeaderOverrides,
  ): Promise<StreamRecord>;
  close(): Promise<void>;
}

export type HeaderOverrides = Readonly<Record<string, string | null>>;

/** The headers of a call: the defaults, then the overrides (`null` removes a header). */
export function callHeaders(defaults: Record<string, string>, overrides: HeaderOverrides = {}): Record<string, string> {
  const out: Record<string, string> = {};
  const lower = (name: string) => name.toLowerCase();
  for (const [name, value] of Object.entries(defaults)) out[lower(name)] = value;
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) delete out[lower(name)];
    else out[lower(name)] = value;
  }
  return out;
}

/** The first google.rpc.ErrorInfo in a details array (ProtoJSON `Any` form), whatever its domain. */
export function errorInfoIn(details: unknown): { reason?: string; domain?: string } {
  if (!Array.isArray(details)) return {};
  const info = details.find(
    (d) =>
      typeof d === "object" && d !== null && (d as JsonObject)["@type"] === "type.googleapis.com/google.rpc.ErrorInfo",
  ) as JsonObject | undefined;
  return {
    ...(typeof info?.reason === "string" ? { reason: info.reason } : {}),
    ...(typeof info?.domain === "string" ? { domain: info.domain } : {}),
  };
}

export function isJsonObjectValue(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a StreamResponse JSON ends a stream (terminal or interrupted state, or a Message). */
export function isLastFrameJson(frame: JsonObject): boolean {
  try {
    return isLastFrame(decodeMessage(StreamResponseSchema, frame, { validateRequired: false }));
  } catch {
    return false;
  }
}

/** One event of a stream as a binding reads it. */
export type StreamItem = { readonly frame: JsonObject } | { readonly error: WireError };

const TIMED_OUT = Symbol("timed out");

/**
 * Reads `items` to the end, watching how the stream ends: closed by the
 * agent, an error, still open `graceMs` after the last frame, or not
 * finished within `timeoutMs`. Aborting `abort` hangs up.
 */
export async function recordStream(
  items: AsyncIterator<StreamItem>,
  abort: AbortController,
  options: StreamOptions,
  opened: { httpStatus?: number; contentType?: string; problems?: string[] } = {},
): Promise<StreamRecord> {
  const frames: JsonObject[] = [];
  const deadline = Date.now() + options.timeoutMs;
  let sawLast = false;
  let afterLast = 0;
  let end: StreamEnd = "closed";
  let error: WireError | undefined;
  try {
    while (true) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const wait = sawLast ? options.graceMs : Math.max(0, deadline - Date.now());
      const pending = items.next();
      pending.catch(() => undefined);
      const next = await Promise.race([
        pending,
        new Promise<typeof TIMED_OUT>((resolve) => {
          timer = setTimeout(() => resolve(TIMED_OUT), wait);
        }),
      ]).finally(() => clearTimeout(timer));
      if (next === TIMED_OUT) {
        end = sawLast ? "open-after-last" : "timeout";
        break;
      }
      if (next.done) break;
      if ("error" in next.value) {
        end = "error";
        error = next.value.error;
        break;
      }
      frames.push(next.value.frame);
      if (sawLast) afterLast++;
      else if (isLastFrameJson(next.value.frame)) sawLast = true;
      await options.onFrame?.(next.value.frame, frames.length - 1);
    }
  } catch (e) {
    end = "error";
    error = { message: (e as Error).message };
  } finally {
    abort.abort();
  }
  return {
    frames,
    end,
    error,
    afterLast,
    httpStatus: opened.httpStatus,
    contentType: opened.contentType,
    problems: opened.problems ?? [],
  };
}

/**
 * Whether `method` answers google.protobuf.Empty. Its JSON is `{}`, but a
 * JSON-RPC `result: null` and an HTTP 204 with no body are read as success
 * too: Empty has nothing to get wrong, and refusing them would report one
 * cosmetic difference under every push-config requirement.
 */
export function answersEmpty(method: A2AMethodName): boolean {
  return a2aServiceBindings[method].output.typeName === "google.protobuf.Empty";
}

/** A stream that is one item (an error answered instead of a stream). */
export async function* single(item: StreamItem): AsyncGenerator<StreamItem> {
  yield item;
}
