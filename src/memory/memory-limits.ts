/**
 * The Memory Service's limits, checked before anything is sent (the same
 * limits openapi/memory.yaml states, decision O125): a call that breaks one
 * fails with a NovaOSValidationError naming the field and nothing reaches
 * the network. Characters are counted as code points (what JSON Schema's
 * `maxLength` counts); `content` and `hint` are capped in UTF-8 bytes.
 */
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import { isRecord } from "../http/json-fields.js";

export const MAX_CONTENT_BYTES = 32 * 1024;
export const MAX_HINT_BYTES = 8 * 1024;
export const MAX_TAGS = 20;
export const MAX_TAG_CHARS = 64;
export const MAX_REASON_CHARS = 500;
export const MAX_TOP_K = 100;
export const MAX_LIVE_MESSAGE_LIMIT = 100;
export const MAX_REQUEST_ID_CHARS = 128;

const FILTER_KEYS = new Set(["tags", "after", "before", "classification", "memory_type", "conversation_id"]);
const TRACE_ID = /^[0-9a-f]{32}$/;

function invalid(field: string, message: string): NovaOSValidationError {
  return new NovaOSValidationError(`${field} ${message}`, { field });
}

/** Code points in `text`, counting no further than `limit + 1`. */
function codePoints(text: string, limit: number): number {
  if (text.length <= limit) return [...text].length;
  let count = 0;
  for (const _ of text) if (++count > limit) break;
  return count;
}

/** A non-empty string of at most `maxChars` code points and `maxBytes` UTF-8 bytes. */
export function text(value: unknown, field: string, limits: { maxChars?: number; maxBytes?: number } = {}): string {
  if (typeof value !== "string" || value === "") throw invalid(field, "must be a non-empty string");
  if (limits.maxChars !== undefined && codePoints(value, limits.maxChars) > limits.maxChars) {
    throw invalid(field, `must be at most ${limits.maxChars} characters`);
  }
  if (limits.maxBytes !== undefined && Buffer.byteLength(value, "utf8") > limits.maxBytes) {
    throw invalid(field, `must be at most ${limits.maxBytes} bytes of UTF-8`);
  }
  return value;
}

export function optionalText(
  value: unknown,
  field: string,
  limits?: { maxChars?: number; maxBytes?: number },
): string | undefined {
  return value === undefined ? undefined : text(value, field, limits);
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw invalid(field, `must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

export function optionalOneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T | undefined {
  return value === undefined ? undefined : oneOf(value, allowed, field);
}

/** A whole number in [min, max]. */
export function integer(value: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ""}`);
  }
  return value;
}

export function optionalInteger(value: unknown, field: string, min: number, max?: number): number | undefined {
  return value === undefined ? undefined : integer(value, field, min, max);
}

export function optionalConfidence(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) throw invalid("confidence", "must be from 0 to 1");
  return value;
}

export function optionalTags(value: unknown, field = "tags"): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalid(field, "must be an array of strings");
  if (value.length > MAX_TAGS) throw invalid(field, `must have at most ${MAX_TAGS} tags`);
  return value.map((tag, i) => text(tag, `${field}[${i}]`, { maxChars: MAX_TAG_CHARS }));
}

export function optionalObject(value: unknown, field: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw invalid(field, "must be a JSON object");
  return { ...value };
}

/** Query filters: only the keys the service knows, `tags` within their limits. */
export function optionalFilters(value: unknown): Record<string, unknown> | undefined {
  const filters = optionalObject(value, "filters");
  if (filters === undefined) return undefined;
  for (const key of Object.keys(filters)) {
    if (!FILTER_KEYS.has(key)) throw invalid(`filters.${key}`, `is not a filter (${[...FILTER_KEYS].join(", ")})`);
  }
  if (filters.tags !== undefined) filters.tags = optionalTags(filters.tags, "filters.tags");
  return filters;
}

/** A request id from the caller (checked) or from a context (dropped when it would not fit). */
export function requestId(explicit: unknown, fromContext: string | undefined): string | undefined {
  if (explicit !== undefined) return text(explicit, "requestId", { maxChars: MAX_REQUEST_ID_CHARS });
  return fromContext && fromContext.length <= MAX_REQUEST_ID_CHARS ? fromContext : undefined;
}

/** A W3C trace id (32 lowercase hex) from the caller (checked) or from a context (dropped when malformed). */
export function traceId(explicit: unknown, fromContext: string | undefined): string | undefined {
  if (explicit !== undefined) {
    if (typeof explicit !== "string" || !TRACE_ID.test(explicit)) throw invalid("traceId", "must be 32 lowercase hex");
    return explicit;
  }
  return fromContext && TRACE_ID.test(fromContext) ? fromContext : undefined;
}
