/**
 * `ToolCaller`: the one governed call every platform tool makes, for one
 * run. It holds what belongs to that run (its token, tenant, run id, trace,
 * the caller's custom headers, its MCP session, its event sinks, its
 * signal) and sends each call through the shared `McpToolGateway`.
 *
 * A call, in order: the gateway must be configured (`MCP_GATEWAY_URL`), the
 * name must be a tool name, the arguments a JSON object of at most 10 MiB
 * with the request, the timeout positive and not below the gateway floor,
 * and there must be a token; only then does anything leave the process.
 * It emits `tool.call`, runs inside an `execute_tool` span, retries what may
 * be retried (a catalogued idempotent tool after a transient failure), emits
 * `tool.result`, records both into the active `EvaluationContext`, and
 * answers the tool's result or throws its typed error. The run's signal
 * (`ctx.signal`) ends any call at once with its reason.
 */

import type { JsonObject } from "@bufbuild/protobuf";
import { MissingExecutionTokenError, NovaOSServerError, NovaOSValidationError } from "../errors/novaos-errors.js";
import { customHeaders } from "../http/custom-headers.js";
import { traceContextHeaders } from "../http/trace-headers.js";
import type { ToolEvent } from "../messages/tool-event.js";
import { toolCallEvent, toolResultEvent } from "../messages/tool-event.js";
import { type Clock, systemClock } from "../runtime/clock.js";
import { getDefaultToolTimeoutS, validateToolTimeout } from "../runtime/config.js";
import { tracedToolCall } from "../runtime/tracing.js";
import { EvaluationContext } from "./evaluation-context.js";
import type { McpSession } from "./mcp-session.js";
import { type CallToolResult, MAX_REQUEST_BYTES, McpToolGateway } from "./mcp-tool-gateway.js";
import { encodeJsonObject, utf8Bytes } from "./tool-arguments.js";
import { type CatalogToolName, catalogFlags, type ToolArguments, type ToolResult } from "./tool-catalog.js";
import { MCP_GATEWAY_URL_ENV, ToolError, ToolsNotConfiguredError } from "./tool-errors.js";
import { checkToolName, parseConnectorToolName } from "./tool-names.js";

/** Receives every `tool.call` and `tool.result` event of the calls it is given to. */
export type ToolEventSink = (event: ToolEvent) => void;

/** An argument or result larger than this (as JSON) is left out of its tool event; the call is not affected. */
export const MAX_EVENT_VALUE_BYTES = 64 * 1024;

type Env = Readonly<Record<string, string | undefined>>;

export interface ToolCallOptions {
  /** This call's deadline per attempt, in seconds. Default: the binding's (`NOVAOS_TOOL_TIMEOUT_S`, else 128). */
  timeoutS?: number | undefined;
  /** Ends this call with the signal's reason (the run's own signal always does). */
  signal?: AbortSignal | undefined;
}

export interface ToolCallerOptions {
  /** The MCP Gateway: a shared `McpToolGateway`, or its URL. Default: `MCP_GATEWAY_URL`, if set. */
  gateway?: McpToolGateway | string | undefined;
  /** The run's execution token, sent as the bearer. */
  token?: string | undefined;
  /** Sent as `X-Tenant-ID`. */
  tenantId?: string | undefined;
  /** Recorded on every tool span (`novaos.run_id`). */
  runId?: string | undefined;
  /** The run's W3C trace, sent on every call (else the active OpenTelemetry span's, if any). */
  traceparent?: string | undefined;
  /** The caller's custom headers, forwarded on every call after filtering; the SDK's own headers win. */
  customHeaders?: Readonly<Record<string, string>> | undefined;
  /** Default deadline of a call (s). Default `NOVAOS_TOOL_TIMEOUT_S`, else 128. */
  defaultTimeoutS?: number | undefined;
  /** The gateway's own ceiling (s): a timeout shorter than it is refused, as the SDK would give up first. */
  gatewayTimeoutS?: number | undefined;
  /** The run's signal: every call ends with its reason once it aborts. */
  signal?: AbortSignal | undefined;
  /** The run's own event channel (its stream, or its final message). */
  runEvents?: ToolEventSink | undefined;
  /** A further sink (`setEventSink`). */
  eventSink?: ToolEventSink | undefined;
  /** Where `MCP_GATEWAY_URL` and `NOVAOS_TOOL_TIMEOUT_S` are read. Default `process.env`. */
  env?: Env | undefined;
}

const HEADER_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;

function checkTimeout(value: number, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new NovaOSValidationError(`${field} must be a positive number of seconds, got ${String(value)}`, { field });
  }
  return value;
}

/** The text of the first text block of a tool result, if any. */
function firstText(result: CallToolResult): string | undefined {
  for (const block of result.content) if (block.type === "text") return block.text;
  return undefined;
}

/** The data of a successful result: `structuredContent`, else the first text block as JSON, else that text. */
function resultData(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = firstText(result);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One signal for two, released when the call ends. */
function eitherSignal(a: AbortSignal | undefined, b: AbortSignal | undefined): [AbortSignal | undefined, () => void] {
  if (!a || !b) return [a ?? b, () => undefined];
  const controller = new AbortController();
  const onA = () => controller.abort(a.reason);
  const onB = () => controller.abort(b.reason);
  if (a.aborted) onA();
  else if (b.aborted) onB();
  a.addEventListener("abort", onA, { once: true });
  b.addEventListener("abort", onB, { once: true });
  return [
    controller.signal,
    () => {
      a.removeEventListener("abort", onA);
      b.removeEventListener("abort", onB);
    },
  ];
}

export class ToolCaller {
  /** Default deadline of a call (s). */
  readonly defaultTimeoutS: number;
  readonly gatewayTimeoutS: number | undefined;
  readonly #gateway: McpToolGateway | undefined;
  readonly #token: string | undefined;
  readonly #tenantId: string | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #runEvents: ToolEventSink | undefined;
  readonly #session: McpSession = { id: undefined };
  #runId: string;
  #traceparent: string;
  #customHeaders: Record<string, string> = {};
  #eventSink: ToolEventSink | undefined;

  /** A bad default timeout, or one below `gatewayTimeoutS`, is a RangeError, as any bad configuration is. */
  constructor(options: ToolCallerOptions = {}) {
    const env = options.env ?? process.env;
    const gateway = options.gateway ?? (env[MCP_GATEWAY_URL_ENV]?.trim() || undefined);
    this.#gateway = typeof gateway === "string" ? new McpToolGateway({ url: gateway }) : gateway;
    const timeoutS = options.defaultTimeoutS ?? getDefaultToolTimeoutS(env);
    if (!Number.isFinite(timeoutS) || timeoutS <= 0) {
      throw new RangeError(`defaultTimeoutS must be a positive number of seconds, got ${String(timeoutS)}`);
    }
    validateToolTimeout(timeoutS, options.gatewayTimeoutS);
    this.defaultTimeoutS = timeoutS;
    this.gatewayTimeoutS = options.gatewayTimeoutS;
    this.#token = options.token || undefined;
    this.#tenantId = options.tenantId || undefined;
    this.#signal = options.signal;
    this.#runEvents = options.runEvents;
    this.#eventSink = options.eventSink;
    this.#runId = options.runId ?? "";
    this.#traceparent = options.traceparent ?? "";
    if (options.customHeaders) this.setCustomHeaders(options.customHeaders);
  }

  /** The gateway calls go to, or undefined when none is configured (every call then throws ToolsNotConfiguredError). */
  get gateway(): McpToolGateway | undefined {
    return this.#gateway;
  }

  /** The clock the gateway waits on (pollers wait on it too). */
  get clock(): Clock {
    return this.#gateway?.clock ?? systemClock;
  }

  /** Forwards the caller's custom headers on every later call, filtered again; a value that is not a header value is refused. */
  setCustomHeaders(headers: Readonly<Record<string, string>>): void {
    const kept = customHeaders(headers);
    for (const [name, value] of Object.entries(kept)) {
      if (!HEADER_VALUE.test(value)) {
        throw new NovaOSValidationError(`Custom header '${name}' has a value that is not a valid header value`, {
          field: "customHeaders",
        });
      }
    }
    this.#customHeaders = kept;
  }

  /** A sink that receives every tool event besides the run's own channel; undefined removes it. */
  setEventSink(sink: ToolEventSink | undefined): void {
    this.#eventSink = sink;
  }

  setRunId(runId: string): void {
    this.#runId = runId;
  }

  /** The W3C trace later calls carry; an empty or invalid value falls back to the active span's. */
  setTraceparent(traceparent: string): void {
    this.#traceparent = traceparent;
  }

  /** Waits `ms` on the tools' clock; ends with the reason of the run's signal or of `signal`. */
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const [either, release] = eitherSignal(this.#signal, signal);
    try {
      await this.clock.sleep(ms, either);
    } finally {
      release();
    }
  }

  /** Throws the reason of the run's signal, or of `signal`, once either aborted. */
  throwIfAborted(signal?: AbortSignal): void {
    this.#signal?.throwIfAborted();
    signal?.throwIfAborted();
  }

  /**
   * Calls a tool by its fully qualified name and answers its result: typed
   * for a catalogued tool, as the gateway sent it for any other (a
   * third-party MCP server's). Only catalogued idempotent tools are retried.
   */
  call<N extends CatalogToolName>(name: N, args: ToolArguments<N>, options?: ToolCallOptions): Promise<ToolResult<N>>;
  call(name: string, args?: Readonly<Record<string, unknown>>, options?: ToolCallOptions): Promise<unknown>;
  async call(name: string, args: unknown = {}, options: ToolCallOptions = {}): Promise<unknown> {
    const gateway = this.#gateway;
    if (!gateway) throw new ToolsNotConfiguredError();
    checkToolName(name);
    const argsText = encodeJsonObject(args, "arguments");
    const timeoutS = checkTimeout(options.timeoutS ?? this.defaultTimeoutS, "timeoutS");
    if (this.gatewayTimeoutS !== undefined && timeoutS < this.gatewayTimeoutS) {
      throw new NovaOSValidationError(
        `timeoutS ${timeoutS} is shorter than the gateway timeout ${this.gatewayTimeoutS}: the SDK would give up first`,
        { field: "timeoutS" },
      );
    }
    const callId = crypto.randomUUID();
    const id = JSON.stringify(callId);
    const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argsText},"_meta":{"novaos/call_id":${id}}}}`;
    if (utf8Bytes(body) > MAX_REQUEST_BYTES) {
      throw new NovaOSValidationError(`The arguments of ${name} exceed the gateway's ${MAX_REQUEST_BYTES} bytes`, {
        field: "arguments",
      });
    }
    if (!this.#token) throw new MissingExecutionTokenError();
    const [signal, release] = eitherSignal(this.#signal, options.signal);
    signal?.throwIfAborted();

    const startedAt = new Date();
    const started = gateway.clock.now();
    this.#emit(
      toolCallEvent(
        callId,
        name,
        utf8Bytes(argsText) <= MAX_EVENT_VALUE_BYTES ? (JSON.parse(argsText) as JsonObject) : {},
      ),
    );
    const evaluation = EvaluationContext.current();
    try {
      const answer = await tracedToolCall(name, { args: args as Record<string, unknown>, runId: this.#runId }, () =>
        gateway.call({
          name,
          id: callId,
          body,
          headers: this.#headers(),
          session: this.#session,
          idempotent: catalogFlags(name)?.idempotent ?? false,
          timeoutMs: timeoutS * 1000,
          signal,
        }),
      );
      const data = this.#data(answer.result, name, callId);
      const durationMs = Math.round(gateway.clock.now() - started);
      this.#emit(
        toolResultEvent(callId, name, {
          success: true,
          result: answer.bytes <= MAX_EVENT_VALUE_BYTES ? (data as never) : undefined,
          durationMs,
        }),
      );
      evaluation?.record({
        callId,
        toolName: name,
        arguments: args as JsonObject,
        success: true,
        response: data,
        durationMs,
        startedAt,
      });
      return data;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const durationMs = Math.round(gateway.clock.now() - started);
      this.#emit(toolResultEvent(callId, name, { success: false, error: message, durationMs }));
      evaluation?.record({
        callId,
        toolName: name,
        arguments: args as JsonObject,
        success: false,
        error: message,
        durationMs,
        startedAt,
      });
      throw error;
    } finally {
      release();
    }
  }

  /** The data of a tool's result, or ToolError when it ran and failed. A catalogued or connector tool's data is an object. */
  #data(result: CallToolResult, name: string, callId: string): unknown {
    if (result.isError === true) {
      throw new ToolError(`${name} failed: ${firstText(result) ?? "the tool gave no reason"}`, {
        toolName: name,
        callId,
      });
    }
    const data = resultData(result);
    const known = catalogFlags(name) !== undefined || parseConnectorToolName(name) !== undefined;
    if (known && (typeof data !== "object" || data === null || Array.isArray(data))) {
      throw new NovaOSServerError(`The MCP Gateway answered ${name} with a result that is not an object`, {
        details: { toolName: name },
      });
    }
    return data;
  }

  /** The run's headers: its custom headers first, so that the credentials, tenant and trace set after them win. */
  #headers(): Record<string, string> {
    const headers: Record<string, string> = { ...this.#customHeaders, authorization: `Bearer ${this.#token}` };
    if (this.#tenantId) headers["x-tenant-id"] = this.#tenantId;
    // The active span's (the call's execute_tool span), else the run's; never TRACEPARENT, which names a pod's
    // first run only. The custom headers carry no trace header (ctx.customHeaders filters them).
    return { ...headers, ...traceContextHeaders(this.#traceparent, {}) };
  }

  /** Hands `event` to the run's channel and the custom sink; a sink that throws does not fail the call. */
  #emit(event: ToolEvent): void {
    for (const sink of [this.#runEvents, this.#eventSink]) {
      try {
        sink?.(event);
      } catch {
        // A sink's own failure is not the tool call's.
      }
    }
  }
}
