/**
 * Timestamps are compared as instants, never as strings: `…00Z` and
 * `…00.000Z` are the same instant, and a fixed-width string comparison that
 * mixes precisions orders them wrongly.
 */
import { protoInt64 } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate, timestampFromDate, timestampFromMs } from "@bufbuild/protobuf/wkt";

export { timestampDate, timestampFromDate, timestampFromMs };

/** Negative, zero or positive as `a` is before, at or after `b`. */
export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  return a.nanos - b.nanos;
}

/** Parses an RFC 3339 timestamp (any precision, `Z` or offset); undefined when it is not one. */
export function parseTimestamp(text: string): Timestamp | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i.exec(text.trim());
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return undefined;
  const nanos = Number((m[2] ?? "").padEnd(9, "0"));
  return timestampFromMsAndNanos(ms, nanos);
}

/** The Timestamp `timestampFromMs` makes, built as the plain object it is (no descriptor needed). */
function timestampFromMsAndNanos(wholeSecondMs: number, nanos: number): Timestamp {
  return { $typeName: "google.protobuf.Timestamp", seconds: protoInt64.parse(Math.floor(wholeSecondMs / 1000)), nanos };
}

/** The spec's preferred form (§5.6.1): UTC with millisecond precision, `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export function formatTimestamp(ts: Timestamp): string {
  return timestampDate(ts).toISOString();
}
