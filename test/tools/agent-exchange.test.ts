/**
 * `ctx.tools` inside a real agent: an AgentBuilder with no `tools` option,
 * `MCP_GATEWAY_URL` set, served on all three bindings and called by the
 * SDK's Client. A skill that calls two tools streams `tool.call` /
 * `tool.result` frames in order with its own writes; a non-streaming call
 * gets the same events in its final message. Runs on one pod never see each
 * other's token, tenant, trace or custom headers.
 */
import { create, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  MessageSchema,
  Role,
  SendMessageRequestSchema,
  type StreamResponse,
  type Task,
  TaskState,
} from "../../gen/a2a_pb.js";
import { isLastFrame } from "../../src/a2a/stream-frame.js";
import { Client } from "../../src/client/client.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { extractToolEvents } from "../../src/messages/message-parser.js";
import type { ToolEvent } from "../../src/messages/tool-event.js";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { ANONYMOUS_CALLER, CallerIdentity } from "../../src/server/auth/caller-identity.js";
import { CancelledError } from "../../src/server/cancellation.js";
import { createPlatformTools } from "../../src/server/platform-tools.js";
import { textPart } from "../../src/server/task-updater.js";
import { EvaluationContext } from "../../src/tools/evaluation-context.js";
import type { JsonReply } from "../platform/contract-server.js";
import { deferred } from "../server/support/agent-server.js";
import { type GatewayCall, type GatewayDouble, sampleResult, startGateway } from "./support/mcp-gateway.js";

const BINDINGS = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;
const TRACE_A = "00-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-aaaaaaaaaaaaaaaa-01";
const TRACE_B = "00-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb-bbbbbbbbbbbbbbbb-01";
const RUN_A = {
  "X-NovaOS-Execution-Token": "token-a",
  "X-NovaOS-Tenant-Id": "tenant-a",
  "X-Caller": "a",
  traceparent: TRACE_A,
};
const RUN_B = {
  "X-NovaOS-Execution-Token": "token-b",
  "X-NovaOS-Tenant-Id": "tenant-b",
  "X-Caller": "b",
  traceparent: TRACE_B,
};

const logger = createLogger({ level: "silent" });

let gateway: GatewayDouble;
let server: AgentServer;
/** Gates the `hold` skill between its two tool calls, per input. */
const gates = new Map<string, Promise<void>>();
/** What the `cancel` skill's tool call ended with. */
let cancelled = deferred<unknown>();
/** The events a skill's own sink received. */
const sunk: ToolEvent[] = [];

function buildAgent(): AgentBuilder {
  const agent = new AgentBuilder({ name: "tools-agent", logger });
  agent.skill("research", async (ctx, input) => {
    await ctx.taskUpdater.startWork("looking it up");
    const { results } = await ctx.tools.knowledge.search(input, { top_k: 3 });
    await ctx.taskUpdater.addArtifact([textPart(results[0]?.content ?? "")], { name: "hit", lastChunk: true });
    await ctx.tools.memory.write("agent", `looked up ${input}`);
    return { output: "done" };
  });
  agent.skill("hold", async (ctx, input) => {
    await ctx.tools.files.list();
    await gates.get(input);
    await ctx.tools.files.read("notes.txt");
    return { output: input };
  });
  agent.skill("sink", async (ctx) => {
    ctx.tools.setEventSink((event) => sunk.push(event));
    await ctx.tools.files.list();
    return { output: "sunk" };
  });
  agent.skill("cancel", async (ctx) => {
    cancelled.resolve(await ctx.tools.knowledge.search("forever").catch((e: unknown) => e));
    return { output: "unreachable" };
  });
  return agent;
}

beforeAll(async () => {
  gateway = await startGateway({ tokens: ["token-a", "token-b"] });
  vi.stubEnv("MCP_GATEWAY_URL", gateway.url);
  server = await listen(buildAgent(), { port: 0, grpcPort: 0 });
});
afterAll(async () => {
  await server.close();
  await gateway.close();
  vi.unstubAllEnvs();
});

function client(binding: (typeof BINDINGS)[number], headers: Record<string, string> = RUN_A): Client {
  return new Client({
    baseUrl: binding === "GRPC" ? `http://${server.grpcTarget}` : server.url,
    binding,
    headers,
    transports: [grpcTransport()],
  });
}

/** One label per frame: the kind, the state, the tool event it carries or the status text, the artifact name. */
function label(frame: StreamResponse): string {
  const { payload } = frame;
  if (payload.case === "task") return "task";
  if (payload.case === "artifactUpdate") return `artifact ${payload.value.artifact?.name}`;
  if (payload.case !== "statusUpdate") return String(payload.case);
  const status = payload.value.status;
  const state = TaskState[status?.state ?? TaskState.UNSPECIFIED];
  const events = extractToolEvents(status?.message);
  if (events.length > 0) return `${state} ${events.map((e) => `${e.type} ${e.toolName}`).join(", ")}`;
  const text = status?.message?.parts.find((p) => p.content.case === "text")?.content.value;
  return text ? `${state} "${text}"` : state;
}

const EXPECTED_FRAMES = [
  "task",
  "WORKING",
  'WORKING "looking it up"',
  "WORKING tool.call novaos.knowledge.query",
  "WORKING tool.result novaos.knowledge.query",
  "artifact hit",
  "WORKING tool.call novaos.memory.write",
  "WORKING tool.result novaos.memory.write",
  "artifact output",
  'COMPLETED "done"',
];

describe.each(BINDINGS)("ctx.tools over %s", (binding) => {
  it("streams tool.call and tool.result frames in order with the skill's own writes", async () => {
    await using c = client(binding);
    const frames: StreamResponse[] = [];
    for await (const frame of c.sendStreamingMessage("refund policy", { skillId: "research" })) frames.push(frame);
    expect(frames.map(label)).toEqual(EXPECTED_FRAMES);
    expect(isLastFrame(frames.at(-1) as StreamResponse)).toBe(true);
    const [call, result] = frames.flatMap((f) =>
      f.payload.case === "statusUpdate" ? extractToolEvents(f.payload.value.status?.message) : [],
    );
    expect(call?.arguments).toEqual({ top_k: 3, query: "refund policy" });
    expect(result?.callId).toBe(call?.callId);
    expect(result?.success).toBe(true);
    expect(gateway.server.violations).toEqual([]);
  });

  it("folds the tool events into the final message of a non-streaming request", async () => {
    await using c = client(binding);
    const task = (await c.sendMessage("refund policy", { skillId: "research" })) as Task;
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    const events = extractToolEvents(task.status?.message);
    expect(events.map((e) => `${e.type} ${e.toolName} ${e.success ?? ""}`.trim())).toEqual([
      "tool.call novaos.knowledge.query",
      "tool.result novaos.knowledge.query true",
      "tool.call novaos.memory.write",
      "tool.result novaos.memory.write true",
    ]);
    expect(new Set(events.map((e) => e.callId)).size).toBe(2);
    expect(gateway.server.violations).toEqual([]);
  });
});

describe("runs on one pod", () => {
  it("each run's tool calls carry its own token, tenant, trace and custom headers, whichever runs first", async () => {
    const open = deferred();
    gates.set("a", open.promise);
    gates.set("b", open.promise);
    const before = gateway.calls.length;
    await using a = client("JSONRPC", RUN_A);
    await using b = client("JSONRPC", RUN_B);
    const runs = Promise.all([a.sendMessage("a", { skillId: "hold" }), b.sendMessage("b", { skillId: "hold" })]);
    await gateway.received(before + 2);
    open.resolve();
    await runs;
    const sent = gateway.calls.slice(before).map((call: GatewayCall) => ({
      name: call.name,
      token: call.headers.authorization,
      tenant: call.headers["x-tenant-id"],
      caller: call.headers["x-caller"],
      trace: call.headers.traceparent,
    }));
    expect(sent).toHaveLength(4);
    for (const [run, token, tenant, trace] of [
      ["a", "Bearer token-a", "tenant-a", TRACE_A],
      ["b", "Bearer token-b", "tenant-b", TRACE_B],
    ] as const) {
      const mine = sent.filter((s) => s.caller === run);
      expect(mine.map((s) => s.name).sort()).toEqual(["novaos.files.list", "novaos.files.read"]);
      expect(mine.every((s) => s.token === token && s.tenant === tenant && s.trace === trace)).toBe(true);
    }
    expect(gateway.server.violations).toEqual([]);
  });

  it("a skill's own setEventSink receives the events, and the stream still carries them", async () => {
    sunk.length = 0;
    await using c = client("JSONRPC");
    const frames: StreamResponse[] = [];
    for await (const frame of c.sendStreamingMessage("x", { skillId: "sink" })) frames.push(frame);
    expect(sunk.map((e) => e.type)).toEqual(["tool.call", "tool.result"]);
    expect(frames.map(label).filter((l) => l.includes("tool."))).toEqual([
      "WORKING tool.call novaos.files.list",
      "WORKING tool.result novaos.files.list",
    ]);
  });

  it("a cancelled run's tool call ends at once with the CancelledError", async () => {
    cancelled = deferred<unknown>();
    const answer = gateway.answer;
    gateway.answer = (call) => (call.arguments.query === "forever" ? new Promise<JsonReply>(() => {}) : answer(call));
    try {
      const before = gateway.calls.length;
      await using c = client("JSONRPC");
      const started = await c.sendMessage("x", { skillId: "cancel", returnImmediately: true });
      await gateway.received(before + 1);
      const task = await c.cancelTask((started as Task).id);
      expect(task.status?.state).toBe(TaskState.CANCELED);
      expect(await cancelled.promise).toBeInstanceOf(CancelledError);
    } finally {
      gateway.answer = answer;
    }
  });
});

describe("the platform tools of one agent", () => {
  it("mask tool events like the output when the agent masks PII", async () => {
    const agent = new AgentBuilder({ name: "masked", logger, maskOutputPii: true });
    agent.skill("search", async (ctx, input) => {
      await ctx.tools.knowledge.search(input);
      return { output: "ok" };
    });
    const served = await listen(agent, { port: 0 });
    try {
      await using c = new Client({ baseUrl: served.url, headers: RUN_A });
      const task = (await c.sendMessage("mail ada@example.com", { skillId: "search" })) as Task;
      const [call] = extractToolEvents(task.status?.message);
      expect(call?.arguments).toEqual({ query: "mail [EMAIL]" });
      expect(gateway.calls.at(-1)?.arguments).toEqual({ query: "mail ada@example.com" });
    } finally {
      await served.close();
    }
  });

  it("a tools factory of the agent's own overrides them, and may build them with options", async () => {
    const agent = new AgentBuilder({
      name: "own-tools",
      logger,
      tools: (ctx) => ({ platform: createPlatformTools(ctx, { defaultTimeoutS: 30 }), answer: () => 42 }),
    });
    agent.skill("use", async (ctx) => ({
      output: { answer: ctx.tools.answer(), timeout: ctx.tools.platform.caller.defaultTimeoutS },
    }));
    const task = await agent.requestHandler().sendMessage(
      create(SendMessageRequestSchema, {
        message: create(MessageSchema, {
          messageId: "m-1",
          role: Role.USER,
          parts: [textPart("go")],
          metadata: { skillId: "use" },
        }),
      }),
      {
        binding: "JSONRPC",
        headers: { "A2A-Version": "1.0" },
        // In process there is no socket to tell where the call comes from: the call names its caller.
        identity: ANONYMOUS_CALLER,
        signal: new AbortController().signal,
        responseHeaders: new Headers(),
      },
    );
    const output = task.payload.case === "task" ? task.payload.value.artifacts[0]?.parts[0]?.content : undefined;
    expect(output?.case === "data" ? toJson(ValueSchema, output.value) : output).toEqual({ answer: 42, timeout: 30 });
  });

  it("an evaluation around an in-process run records that run's tool calls, and no other run's", async () => {
    const handler = buildAgent().requestHandler();
    const request = (input: string) =>
      create(SendMessageRequestSchema, {
        message: create(MessageSchema, {
          messageId: crypto.randomUUID(),
          role: Role.USER,
          parts: [textPart(input)],
          metadata: { skillId: "research" },
        }),
      });
    const context = () => ({
      binding: "JSONRPC" as const,
      headers: { "A2A-Version": "1.0" },
      // In process the call names its caller, and the token its tools carry.
      identity: new CallerIdentity("", { token: "token-a" }),
      signal: new AbortController().signal,
      responseHeaders: new Headers(),
    });
    const evaluation = new EvaluationContext();
    await Promise.all([
      evaluation.run(() => handler.sendMessage(request("evaluated"), context())),
      handler.sendMessage(request("not evaluated"), context()),
    ]);
    expect(evaluation.toolCalls.map((c) => [c.toolName, c.arguments])).toEqual([
      ["novaos.knowledge.query", { top_k: 3, query: "evaluated" }],
      ["novaos.memory.write", { scope: "agent", content: "looked up evaluated" }],
    ]);
    expect(evaluation.toolCalls[0]?.response).toEqual(sampleResult("novaos.knowledge.query"));
  });
});
