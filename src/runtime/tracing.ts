/**
 * Spans around the SDK's platform calls, over `@opentelemetry/api` (an
 * optional peer, see otel.ts): with no OpenTelemetry SDK registered, or no
 * API installed, the span is a no-op and the callback simply runs. The callback runs with its span active, so the trace headers it
 * sends (`injectTraceHeaders`) name that span as the parent.
 *
 *   const hits = await tracedToolCall("novaos.knowledge.query", { args, runId }, () => gateway.call(args));
 *
 * Attribute names follow OpenTelemetry's semantic conventions (HTTP client
 * spans; GenAI `execute_tool` spans) plus `novaos.run_id`. Tool arguments
 * often carry customer data and spans often leave the tenant, so a tool span
 * records the argument names only, never their values.
 */
import type { Attributes, Span, SpanContext } from "@opentelemetry/api";
import { otel } from "./otel.js";

/** The instrumentation scope of the SDK's spans. */
export const TRACER_NAME = "@novaos/client-sdk";

export interface ToolCallTraceOptions {
  /** The call's arguments; only their names are recorded (`novaos.tool.argument_names`). */
  args?: Readonly<Record<string, unknown>> | undefined;
  /** The run the call belongs to (`novaos.run_id`). */
  runId?: string | undefined;
}

const INVALID_SPAN_CONTEXT: SpanContext = { traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0 };

/** The span a callback gets when `@opentelemetry/api` is not installed: records nothing. */
const NO_SPAN: Span = {
  spanContext: () => INVALID_SPAN_CONTEXT,
  setAttribute: () => NO_SPAN,
  setAttributes: () => NO_SPAN,
  addEvent: () => NO_SPAN,
  addLink: () => NO_SPAN,
  addLinks: () => NO_SPAN,
  setStatus: () => NO_SPAN,
  updateName: () => NO_SPAN,
  end: () => undefined,
  isRecording: () => false,
  recordException: () => undefined,
};

/** Runs `fn` inside a new active span; records a throw as the span's error and rethrows it; ends the span. */
async function inSpan<T>(
  name: string,
  kind: "CLIENT" | "INTERNAL",
  attributes: Attributes,
  fn: (span: Span) => Promise<T> | T,
): Promise<T> {
  const api = otel();
  if (!api) return fn(NO_SPAN);
  const { SpanKind, SpanStatusCode, trace } = api;
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { kind: SpanKind[kind], attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      span.recordException(err);
      span.setAttribute("error.type", err.name);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A CLIENT span `<METHOD> <endpoint>` around one HTTP call to a platform
 * service. Pass the route template as `endpoint` (`/api/v1/runs/{runId}/events`)
 * or a URL: a URL is recorded without its query, fragment or credentials.
 */
export function tracedGatewayCall<T>(method: string, endpoint: string, fn: (span: Span) => Promise<T> | T): Promise<T> {
  const verb = method.toUpperCase();
  const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  const attributes: Attributes = url
    ? {
        "http.request.method": verb,
        "url.full": `${url.origin}${url.pathname}`,
        "server.address": url.hostname,
        ...(url.port !== "" ? { "server.port": Number(url.port) } : {}),
      }
    : { "http.request.method": verb, "url.template": endpoint };
  return inSpan(`${verb} ${url ? url.pathname : endpoint}`, "CLIENT", attributes, fn);
}

/** An INTERNAL span `execute_tool <toolName>` around one tool call. */
export function tracedToolCall<T>(
  toolName: string,
  options: ToolCallTraceOptions,
  fn: (span: Span) => Promise<T> | T,
): Promise<T> {
  const attributes: Attributes = {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": toolName,
    "novaos.tool.argument_names": Object.keys(options.args ?? {}).sort(),
  };
  if (options.runId) attributes["novaos.run_id"] = options.runId;
  return inSpan(`execute_tool ${toolName}`, "INTERNAL", attributes, fn);
}
