/**
 * W3C trace context on every outbound call of the SDK: the A2A client (its
 * three transports all send the headers the client assembles) and every
 * platform client (through `platform-client.ts` or their own fetch). One
 * rule, runtime/traceparent.ts's: a `traceparent` already on the request
 * wins; else what the installed OpenTelemetry propagator writes for the
 * active context; else the active span's; else the run's own trace (`run`,
 * the inbound `traceparent` of the request a skill serves), which stands in
 * for the `TRACEPARENT` environment variable a pod reads for its first run.
 */
import { type Env, processEnv } from "../runtime/process-env.js";
import { injectTraceHeaders, isValidTraceparent, TRACEPARENT_ENV } from "../runtime/traceparent.js";

/** Adds the current trace to `headers` (mutated) unless they carry a `traceparent` already. */
export function injectTraceContext(headers: Headers, run?: string): void {
  if (headers.has("traceparent")) return;
  for (const [name, value] of Object.entries(traceContextHeaders(run))) {
    if (!headers.has(name)) headers.set(name, value);
  }
}

/**
 * The trace headers of the current context: the propagator's or the active
 * span's, else `run` when it is a valid `traceparent`, else the one `env`
 * names (`TRACEPARENT`; pass `{}` where a pod's first run must not stand in).
 */
export function traceContextHeaders(run?: string, env: Env = processEnv()) {
  return injectTraceHeaders({}, run !== undefined && isValidTraceparent(run) ? { [TRACEPARENT_ENV]: run } : env);
}
