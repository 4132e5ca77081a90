/**
 * Trace context without an OpenTelemetry SDK (the API's no-op default): the
 * caller's `traceparent` still reaches the platform calls a skill makes, the
 * A2A client still sends one, and the skill span's parent is read from the
 * request even with no propagator installed. test/platform/trace-end-to-end.test.ts
 * covers the same path with an SDK recording spans.
 */
import { type Context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../src/client/client.js";
import { platformContextMetadata } from "../../src/messages/platform-context.js";
import { otelLoaded } from "../../src/runtime/otel.js";
import { callerTraceContext } from "../../src/server/trace-context.js";
import type { ContractServer } from "../platform/contract-server.js";
import { startRawServer } from "../platform/raw-server.js";
import { RECALL_TOKEN, startRecallingAgent } from "../platform/recalling-agent.js";
import { type RunningServer, rpc, serveAgent, userMessage, V1 } from "./support/agent-server.js";

const INBOUND = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
const PLATFORM = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";

let running: RunningServer | undefined;
let memory: ContractServer | undefined;
afterEach(async () => {
  await running?.close();
  await memory?.close();
  running = undefined;
  memory = undefined;
});

/** An agent whose skill queries the Memory Service; resolves to the traceparent the service received. */
async function traceparentReachingMemory(headers: Record<string, string>, metadata?: Record<string, unknown>) {
  const started = await startRecallingAgent();
  memory = started.memory;
  const agent = started.agent;
  running = await serveAgent(agent);
  await rpc(
    running.url,
    "SendMessage",
    { message: userMessage("hi", { metadata }) },
    { ...V1, "X-NovaOS-Execution-Token": RECALL_TOKEN, ...headers },
  );
  expect(memory.violations).toEqual([]);
  return memory.requests[0]?.headers.traceparent;
}

// The API loads in the background (an optional peer); these tests read contexts made with it.
beforeAll(() => otelLoaded);

describe("trace context without an OpenTelemetry SDK", () => {
  it("carries the caller's traceparent to the platform calls a skill makes", async () => {
    expect(await traceparentReachingMemory({ traceparent: INBOUND })).toBe(INBOUND);
  });

  it("falls back to the platform context's traceparent when the request has none", async () => {
    expect(await traceparentReachingMemory({}, platformContextMetadata({ traceparent: PLATFORM }))).toBe(PLATFORM);
  });

  it("reads the skill span's parent from the request with no propagator installed", () => {
    const fromHeader = trace.getSpanContext(callerTraceContext({ traceparent: INBOUND }, PLATFORM) as Context);
    expect(fromHeader).toEqual({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
      traceFlags: 1,
      isRemote: true,
    });
    const fromPlatform = trace.getSpanContext(callerTraceContext({}, PLATFORM) as Context);
    expect(fromPlatform).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", traceFlags: 0 });
    expect(trace.getSpanContext(callerTraceContext({ traceparent: "00-zz" }, undefined) as Context)).toBeUndefined();
    expect(callerTraceContext({}, undefined)).toBe(ROOT_CONTEXT);
  });

  it("has the A2A client send TRACEPARENT when no span is active, and a call's own traceparent over it", async () => {
    const raw = await startRawServer((_req, res) => res.writeHead(503).end());
    const previous = process.env.TRACEPARENT;
    process.env.TRACEPARENT = PLATFORM;
    try {
      await using client = new Client({ baseUrl: raw.url, timeoutMs: 5_000 });
      await client.getTask("task-1").catch(() => undefined);
      await client.getTask("task-1", { headers: { traceparent: INBOUND } }).catch(() => undefined);
      expect(raw.requests.map((r) => r.headers.traceparent)).toEqual([PLATFORM, INBOUND]);
    } finally {
      if (previous === undefined) delete process.env.TRACEPARENT;
      else process.env.TRACEPARENT = previous;
      await raw.close();
    }
  });
});
