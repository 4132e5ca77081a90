/**
 * Trace context end to end, with a real OpenTelemetry SDK and its in-memory
 * exporter: an application span around a `Client` call, on each of the three
 * bindings, reaches the agent's skill span as its parent, and a Memory
 * Service call the skill makes is a child of the skill span whose
 * `traceparent` reaches the service. One trace, four hops, no hand-made
 * context in between.
 */

import { context, propagation, type SpanContext, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ProtocolBinding } from "../../src/a2a/constants.js";
import { taskText } from "../../src/a2a/text.js";
import { Client } from "../../src/client/client.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { extractParentId, extractTraceId } from "../../src/runtime/traceparent.js";
import { type GatewayDouble, startGateway } from "../tools/support/mcp-gateway.js";
import type { ContractServer } from "./contract-server.js";
import { RECALL_TOKEN, startRecallingAgent } from "./recalling-agent.js";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

let memory: ContractServer;
let tools: GatewayDouble;
let agent: AgentServer;

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tools = await startGateway({ tokens: [RECALL_TOKEN] });
  const started = await startRecallingAgent({ toolsGateway: tools.url });
  memory = started.memory;
  const builder = started.agent;
  agent = await listen(builder, { port: 0, grpcPort: 0 });
});

afterAll(async () => {
  await agent.close();
  await memory.close();
  await tools.close();
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});

beforeEach(() => exporter.reset());

const parentOf = (span: ReadableSpan | undefined): SpanContext | undefined => span?.parentSpanContext;

describe("trace context end to end", () => {
  const bindings: [ProtocolBinding, () => string][] = [
    ["JSONRPC", () => agent.url],
    ["HTTP+JSON", () => agent.url],
    ["GRPC", () => agent.grpcTarget as string],
  ];
  for (const [binding, url] of bindings) {
    it(`is one trace from the client call to the skill span to the skill's platform and tool calls (${binding})`, async () => {
      await using client = new Client({
        transports: [grpcTransport()],
        baseUrl: url(),
        binding,
        headers: { "X-NovaOS-Execution-Token": RECALL_TOKEN },
      });
      const requestsBefore = memory.requests.length;
      const toolCallsBefore = tools.calls.length;
      const app = trace.getTracer("test-app");
      const task = await app.startActiveSpan("checkout", async (span) => {
        try {
          return await client.sendMessage("When?", { skillId: "recall" });
        } finally {
          span.end();
        }
      });
      expect(task.$typeName === "lf.a2a.v1.Task" ? taskText(task) : "").toContain("ISO 8601 date ranges");
      await provider.forceFlush();
      const spans = exporter.getFinishedSpans();
      const root = spans.find((s) => s.name === "checkout");
      const skill = spans.find((s) => s.name === "skill recall");
      const call = spans.find((s) => s.name === "POST /api/v1/mcp");
      const traceId = root?.spanContext().traceId;
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);

      expect(skill?.spanContext().traceId).toBe(traceId);
      expect(parentOf(skill)?.spanId).toBe(root?.spanContext().spanId);
      expect(parentOf(skill)?.isRemote).toBe(true);

      expect(call?.kind).toBe(SpanKind.CLIENT);
      expect(call?.spanContext().traceId).toBe(traceId);
      expect(parentOf(call)?.spanId).toBe(skill?.spanContext().spanId);

      const sent = String(memory.requests[requestsBefore]?.headers.traceparent);
      expect(extractTraceId(sent)).toBe(traceId);
      expect(extractParentId(sent)).toBe(call?.spanContext().spanId);
      expect(memory.violations).toEqual([]);

      // The tool call: its execute_tool span is the skill's child, and the gateway's parent.
      const tool = spans.find((s) => s.name === "execute_tool novaos.knowledge.query");
      expect(tool?.spanContext().traceId).toBe(traceId);
      expect(parentOf(tool)?.spanId).toBe(skill?.spanContext().spanId);
      const toGateway = String(tools.calls[toolCallsBefore]?.headers.traceparent);
      expect(extractTraceId(toGateway)).toBe(traceId);
      expect(extractParentId(toGateway)).toBe(tool?.spanContext().spanId);
      expect(tools.server.violations).toEqual([]);
    });
  }
});
