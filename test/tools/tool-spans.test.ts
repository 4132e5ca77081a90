/**
 * With an OpenTelemetry SDK installed, every tool call is an `execute_tool`
 * span carrying the run (`setRunId`) and the argument names, never their
 * values; a run without a trace of its own sends that span as the parent.
 */
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, expect, it } from "vitest";
import { extractParentId } from "../../src/runtime/traceparent.js";
import { ToolBindings } from "../../src/tools/tool-bindings.js";
import { GATEWAY_TOKEN, type GatewayDouble, startGateway } from "./support/mcp-gateway.js";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
let gateway: GatewayDouble;

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});

it("records each call as an execute_tool span with the run id and the argument names, parent of the gateway call", async () => {
  const tools = new ToolBindings({ gateway: gateway.url, token: GATEWAY_TOKEN });
  tools.setRunId("run-7");
  await tools.knowledge.search("a customer's secret", { top_k: 2 });
  await provider.forceFlush();
  const [span] = exporter.getFinishedSpans();
  expect(span?.name).toBe("execute_tool novaos.knowledge.query");
  expect(span?.attributes).toEqual({
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "novaos.knowledge.query",
    "novaos.tool.argument_names": ["query", "top_k"],
    "novaos.run_id": "run-7",
  });
  const sent = gateway.calls.at(-1)?.headers.traceparent as string;
  expect(extractParentId(sent)).toBe(span?.spanContext().spanId);
  expect(gateway.server.violations).toEqual([]);
});
