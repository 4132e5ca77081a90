/**
 * The Memory Service's limits (the ones openapi/memory.yaml states, decision
 * O125), checked before anything is sent (http/argument-checks.ts);
 * `content` and `hint` are capped in UTF-8 bytes.
 */
import { invalid, optionalObject, optionalText, text } from "../http/argument-checks.js";

/** The most UTF-8 bytes of a memory's content (the client and `ctx.tools.memory` check it). */
export const MAX_MEMORY_CONTENT_BYTES = 32 * 1024;
/** The most UTF-8 bytes of a hint. */
export const MAX_MEMORY_HINT_BYTES = 8 * 1024;
export const MAX_TAGS = 20;
export const MAX_TAG_CHARS = 64;
export const MAX_REASON_CHARS = 500;
export const MAX_TOP_K = 100;
export const MAX_LIVE_MESSAGE_LIMIT = 100;
export const MAX_REQUEST_ID_CHARS = 128;

const FILTER_KEYS = new Set(["tags", "after", "before", "classification", "memory_type", "conversation_id"]);
const TRACE_ID = /^[0-9a-f]{32}$/;

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

/** What an update may change, as a caller gives it. */
export interface MemoryChangeFields {
  content?: unknown;
  tags?: unknown;
  confidence?: unknown;
  custom?: unknown;
}

/** The checked changes of an update. */
export interface CheckedMemoryChanges {
  content?: string;
  tags?: string[];
  confidence?: number;
  custom?: Record<string, unknown>;
}

/**
 * An update's changes within the service's limits, at least one of them:
 * what `MemoryClient.update` and `ctx.tools.memory.update` both send.
 */
export function memoryChanges(fields: MemoryChangeFields): CheckedMemoryChanges {
  const changes: CheckedMemoryChanges = {};
  const content = optionalText(fields.content, "content", { maxBytes: MAX_MEMORY_CONTENT_BYTES });
  if (content !== undefined) changes.content = content;
  const tags = optionalTags(fields.tags);
  if (tags !== undefined) changes.tags = tags;
  const confidence = optionalConfidence(fields.confidence);
  if (confidence !== undefined) changes.confidence = confidence;
  const custom = optionalObject(fields.custom, "custom");
  if (custom !== undefined) changes.custom = custom;
  if (Object.keys(changes).length === 0) {
    throw invalid("content", "an update needs at least one of content, tags, confidence or custom");
  }
  return changes;
}
