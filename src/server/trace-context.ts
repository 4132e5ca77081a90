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
import type { Context, TextMapGetter } from "@opentelemetry/api";
import { type HeadersLike, headerEntries, headerValue, headerValues } from "../a2a/headers.js";
import { type Otel, otel } from "../runtime/otel.js";
import { extractParentId, extractTraceId } from "../runtime/traceparent.js";

const HEADERS_GETTER: TextMapGetter<HeadersLike> = {
  keys: (headers) => [...headerEntries(headers)].map(([name]) => name),
  get: (headers, key) => {
    const values = headerValues(headers, key);
    return values.length <= 1 ? values[0] : values;
  },
};

function hasSpan(api: Otel, ctx: Context): boolean {
  const span = api.trace.getSpanContext(ctx);
  return span !== undefined && api.isSpanContextValid(span);
}

/**
 * The context a skill's span is started in, for a request with `headers` and
 * the platform's `traceparent`; undefined without `@opentelemetry/api`
 * (tracing is then a no-op).
 */
export function callerTraceContext(headers: HeadersLike, platformTraceparent: string | undefined): Context | undefined {
  const api = otel();
  if (!api) return undefined;
  const active = api.context.active();
  if (hasSpan(api, active)) return active;
  const extracted = api.propagation.extract(active, headers, HEADERS_GETTER);
  if (hasSpan(api, extracted)) return extracted;
  const traceparent = headerValue(headers, "traceparent")?.trim() || platformTraceparent || "";
  const traceId = extractTraceId(traceparent);
  const spanId = extractParentId(traceparent);
  if (traceId === undefined || spanId === undefined) return active;
  const flags = Number.parseInt(traceparent.slice(53, 55), 16) & api.TraceFlags.SAMPLED;
  return api.trace.setSpanContext(active, { traceId, spanId, traceFlags: flags, isRemote: true });
}
