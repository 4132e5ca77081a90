/**
 * W3C Trace Context on the SDK's outbound calls. A `traceparent` is
 * `version-traceid-parentid-flags` in lowercase hex (2-32-16-2). Version
 * `ff` is invalid, and so is an all-zero trace id or parent id; version `00`
 * has exactly those four fields, and a later version may add fields after a
 * `-`, which a reader ignores (W3C Trace Context §3.2).
 *
 * Which trace an outbound call belongs to, in order: a value the caller
 * passes explicitly, then the active OpenTelemetry span (when an SDK is
 * installed, the current request's), then the `TRACEPARENT` environment
 * variable (set for a pod's first run only: a pod that serves many runs
 * must not stamp later runs with it, hence last). Without any of them,
 * nothing is sent.
 */
import { headerValue } from "../a2a/headers.js";
import { otel } from "./otel.js";
import { type Env, processEnv } from "./process-env.js";

/** The environment variable a launcher may set with the trace to continue. */
export const TRACEPARENT_ENV = "TRACEPARENT";

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZERO = /^0+$/;

function parse(value: string): RegExpExecArray | undefined {
  const match = TRACEPARENT.exec(value);
  if (!match) return undefined;
  const [, version, traceId, parentId, , rest] = match as unknown as [string, string, string, string, string, string?];
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(parentId)) return undefined;
  return match;
}

/** Whether `value` is a valid W3C `traceparent` header value (exactly as given: no trimming). */
export function isValidTraceparent(value: string): boolean {
  return parse(value) !== undefined;
}

/** The 32-hex trace id of a valid `traceparent`, else undefined. */
export function extractTraceId(traceparent: string): string | undefined {
  return parse(traceparent)?.[2];
}

/** The 16-hex parent (span) id of a valid `traceparent`, else undefined. */
export function extractParentId(traceparent: string): string | undefined {
  return parse(traceparent)?.[3];
}

/** The `traceparent` of the active OpenTelemetry span, else a valid `TRACEPARENT` from `env`, else "". */
export function getTraceparent(env: Env = processEnv()): string {
  const api = otel();
  const span = api?.trace.getSpanContext(api.context.active());
  if (api && span && api.isSpanContextValid(span)) {
    return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
  }
  const fromEnv = env[TRACEPARENT_ENV]?.trim() ?? "";
  return isValidTraceparent(fromEnv) ? fromEnv : "";
}

/**
 * Adds the current trace to `headers` (mutated and returned): whatever the
 * installed OpenTelemetry propagator writes (`traceparent`, `tracestate`,
 * baggage...), else `getTraceparent()`. Headers that already carry a
 * `traceparent` (any case) are left as they are: an explicit value wins.
 */
export function injectTraceHeaders(headers: Record<string, string>, env: Env = processEnv()): Record<string, string> {
  if (headerValue(headers, "traceparent") !== undefined) return headers;
  const injected: Record<string, string> = {};
  const api = otel();
  api?.propagation.inject(api.context.active(), injected);
  if (injected.traceparent === undefined) {
    const traceparent = getTraceparent(env);
    if (traceparent !== "") injected.traceparent = traceparent;
  }
  for (const [name, value] of Object.entries(injected)) {
    if (headerValue(headers, name) === undefined) headers[name] = value;
  }
  return headers;
}

/**
 * A copy of `headers` carrying a trace; `headers` is left unchanged. A valid
 * `traceparent` argument replaces any the headers had; an invalid or empty
 * one is ignored and the current trace is injected (`injectTraceHeaders`).
 */
export function propagateTrace(
  headers: Record<string, string>,
  traceparent = "",
  env: Env = processEnv(),
): Record<string, string> {
  const copy = { ...headers };
  if (!isValidTraceparent(traceparent)) return injectTraceHeaders(copy, env);
  for (const name of Object.keys(copy)) if (name.toLowerCase() === "traceparent") delete copy[name];
  copy.traceparent = traceparent;
  return copy;
}
