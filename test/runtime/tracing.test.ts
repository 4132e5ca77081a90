import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { extractParentId, extractTraceId, injectTraceHeaders } from "../../src/runtime/traceparent.js";
import { TRACER_NAME, tracedGatewayCall, tracedToolCall } from "../../src/runtime/tracing.js";

// A real OpenTelemetry SDK with an in-memory exporter: what the helpers record is what a collector would get.
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});
afterEach(() => exporter.reset());

async function finished() {
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

describe("tracedGatewayCall", () => {
  it("wraps the call in an active CLIENT span, so the headers it sends name that span as parent", async () => {
    const result = await tracedGatewayCall("post", "/mcp/v1/tools/call", async () => {
      await new Promise(setImmediate); // the span stays active across a turn of the event loop
      return injectTraceHeaders({}, {});
    });
    const [span] = await finished();
    expect(span?.name).toBe("POST /mcp/v1/tools/call");
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.instrumentationScope.name).toBe(TRACER_NAME);
    expect(span?.attributes).toEqual({ "http.request.method": "POST", "url.template": "/mcp/v1/tools/call" });
    expect(extractParentId(result.traceparent ?? "")).toBe(span?.spanContext().spanId);
    expect(extractTraceId(result.traceparent ?? "")).toBe(span?.spanContext().traceId);
  });

  it("records a URL without its query, fragment or credentials", async () => {
    await tracedGatewayCall("GET", "https://user:secret@gateway.example:8443/api/v1/runs/r1/events?after=7#x", () => 1);
    const [span] = await finished();
    expect(span?.name).toBe("GET /api/v1/runs/r1/events");
    expect(span?.attributes).toEqual({
      "http.request.method": "GET",
      "url.full": "https://gateway.example:8443/api/v1/runs/r1/events",
      "server.address": "gateway.example",
      "server.port": 8443,
    });
  });

  it("marks the span failed with the error, and rethrows the same error", async () => {
    const error = new TypeError("fetch failed");
    await expect(tracedGatewayCall("GET", "/x", () => Promise.reject(error))).rejects.toBe(error);
    const [span] = await finished();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: "fetch failed" });
    expect(span?.attributes["error.type"]).toBe("TypeError");
    expect(span?.events.map((e) => e.name)).toEqual(["exception"]);
  });
});

describe("tracedToolCall", () => {
  it("records the tool, the run and the argument names, never their values", async () => {
    const args = { to: ["ada@example.com"], body: "Your card 4111 1111 1111 1111", channel: "email" };
    await expect(tracedToolCall("novaos.notify.send", { args, runId: "run-1" }, () => "sent")).resolves.toBe("sent");
    const [span] = await finished();
    expect(span?.name).toBe("execute_tool novaos.notify.send");
    expect(span?.kind).toBe(SpanKind.INTERNAL);
    expect(span?.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "novaos.notify.send",
      "novaos.run_id": "run-1",
      "novaos.tool.argument_names": ["body", "channel", "to"],
    });
    expect(JSON.stringify(span?.attributes)).not.toMatch(/ada@|4111/);
  });

  it("makes one trace from the tool call to its gateway call", async () => {
    const sent = await tracedToolCall("novaos.knowledge.query", {}, () =>
      tracedGatewayCall("POST", "/mcp/v1/tools/call", () => injectTraceHeaders({}, {})),
    );
    const spans = await finished();
    const tool = spans.find((s) => s.name.startsWith("execute_tool"));
    const call = spans.find((s) => s.name.startsWith("POST"));
    expect(call?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
    expect(call?.spanContext().traceId).toBe(tool?.spanContext().traceId);
    expect(extractParentId(sent.traceparent ?? "")).toBe(call?.spanContext().spanId);
  });

  it("runs the callback as is when no tracer provider is registered", async () => {
    trace.disable();
    try {
      await expect(tracedToolCall("novaos.code.execute", {}, (span) => span.isRecording())).resolves.toBe(false);
      expect(await finished()).toEqual([]);
    } finally {
      trace.setGlobalTracerProvider(provider);
    }
  });
});
