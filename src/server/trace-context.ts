/**
 * The trace a skill's span continues, so that one trace runs from the
 * caller's span through the skill to the platform calls it makes. First
 * match wins: a span already active around the request (an HTTP server
 * instrumentation extracted the caller's context and opened its own span);
 * what the installed OpenTelemetry propagator reads from the request's
 * headers; the request's W3C `traceparent` header, else the platform
 * context's, read directly (without an installed propagator the API reads
 * nothing). Without any of them the skill's span starts a trace.
 */
import {
  type Context,
  context,
  isSpanContextValid,
  propagation,
  type TextMapGetter,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import { type HeadersLike, headerEntries, headerValue, headerValues } from "../a2a/headers.js";
import { extractParentId, extractTraceId } from "../runtime/traceparent.js";

const HEADERS_GETTER: TextMapGetter<HeadersLike> = {
  keys: (headers) => [...headerEntries(headers)].map(([name]) => name),
  get: (headers, key) => {
    const values = headerValues(headers, key);
    return values.length <= 1 ? values[0] : values;
  },
};

function hasSpan(ctx: Context): boolean {
  const span = trace.getSpanContext(ctx);
  return span !== undefined && isSpanContextValid(span);
}

/** The context a skill's span is started in, for a request with `headers` and the platform's `traceparent`. */
export function callerTraceContext(headers: HeadersLike, platformTraceparent: string | undefined): Context {
  const active = context.active();
  if (hasSpan(active)) return active;
  const extracted = propagation.extract(active, headers, HEADERS_GETTER);
  if (hasSpan(extracted)) return extracted;
  const traceparent = headerValue(headers, "traceparent")?.trim() || platformTraceparent || "";
  const traceId = extractTraceId(traceparent);
  const spanId = extractParentId(traceparent);
  if (traceId === undefined || spanId === undefined) return active;
  const flags = Number.parseInt(traceparent.slice(53, 55), 16) & TraceFlags.SAMPLED;
  return trace.setSpanContext(active, { traceId, spanId, traceFlags: flags, isRemote: true });
}
