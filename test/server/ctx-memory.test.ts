/**
 * `ctx.memory` over real sockets: the runtime's pre-fetch (one memory.assemble
 * within the platform's budget, before the skill runs), and clients bound to
 * the run's token, trace and context, against the Memory Service contract
 * server.
 */
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { MissingExecutionTokenError } from "../../src/errors/novaos-errors.js";
import { MemoryNamespace } from "../../src/memory/memory-namespace.js";
import type { AssembleResult } from "../../src/memory/memory-results.js";
import { platformContextMetadata } from "../../src/messages/platform-context.js";
import { ExecutionContext } from "../../src/runtime/execution-context.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import type { AgentExecutionContext } from "../../src/server/agent-execution-context.js";
import { TOOL_SAMPLES } from "../openapi/tool-samples.js";
import { type ContractServer, type JsonReply, startContractServer } from "../platform/contract-server.js";
import { type RunningServer, rpc, serveAgent, userMessage, V1 } from "./support/agent-server.js";

const TOKEN = "exec-token-ctx";
const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
const AT = "2026-07-25T14:00:00Z";
const BUNDLE = TOOL_SAMPLES["novaos.memory.assemble"].result;

let running: RunningServer | undefined;
let memory: ContractServer | undefined;
afterEach(async () => {
  await running?.close();
  await memory?.close();
  running = undefined;
  memory = undefined;
});

interface Seen {
  context: AssembleResult | undefined;
  same: boolean;
}

/** Serves one skill that reads `ctx.memory`, and sends it one message; resolves to what the skill saw. */
async function run(options: {
  memoryReply?: (tool: string, payload: Record<string, unknown>) => JsonReply;
  metadata?: Record<string, unknown>;
  headers?: Record<string, string>;
  text?: string;
  skill?: (ctx: AgentExecutionContext) => Promise<void>;
  logLines?: Record<string, unknown>[];
}): Promise<{ seen: Seen; memory: ContractServer }> {
  memory = await startContractServer({
    spec: "memory.yaml",
    bearerToken: TOKEN,
    handlers: {
      memoryDispatch: ({ body }) => {
        const { tool, payload } = body as { tool: string; payload: Record<string, unknown> };
        return options.memoryReply?.(tool, payload) ?? { status: 500, body: { error: "internal" } };
      },
    },
  });
  const lines = options.logLines ?? [];
  const destination = new Writable({
    write(chunk, _e, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const agent = new AgentBuilder({
    name: "memory-agent",
    logger: createLogger({ destination }),
    memory: { baseUrl: memory.url, resilience: { maxAttempts: 1 } },
  });
  let seen: Seen | undefined;
  agent.skill("remember", async (ctx) => {
    const namespace = ctx.memory;
    seen = { context: namespace.context, same: ctx.memory === namespace };
    await options.skill?.(ctx);
    return { output: "ok" };
  });
  running = await serveAgent(agent);
  const reply = await rpc(
    running.url,
    "SendMessage",
    { message: userMessage(options.text ?? "what do I prefer?", { metadata: options.metadata }) },
    { ...V1, ...options.headers },
  );
  expect(reply.body.result?.task?.status?.state).toBe("TASK_STATE_COMPLETED");
  if (!seen) throw new Error("the skill did not run");
  return { seen, memory };
}

const withBudget = (extra: Record<string, unknown> = {}) =>
  platformContextMetadata({
    runId: "run-1",
    idempotencyKey: "exec-1",
    memoryBudget: { tokens: 1500, latency_ms: 250, top_k: 5, colour: 3 },
    ...extra,
  });
const withToken = { "X-NovaOS-Execution-Token": TOKEN, traceparent: TRACEPARENT };

describe("ctx.memory pre-fetch", () => {
  it("assembles the message's memory within the budget before the skill runs, with the run's token and trace", async () => {
    const { seen, memory } = await run({
      metadata: withBudget(),
      headers: withToken,
      memoryReply: (tool) => ({ status: 200, body: { tool, result: BUNDLE } }),
    });
    expect(seen.same).toBe(true);
    expect(seen.context?.agentMemories.map((m) => m.memoryId)).toEqual(["mem_1"]);
    expect(seen.context?.sourcesSkipped).toEqual(["user"]);
    expect(memory.violations).toEqual([]);
    const [request] = memory.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(String(request?.headers.traceparent).split("-")[1]).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(request?.body).toEqual({
      tool: "memory.assemble",
      payload: {
        query: "what do I prefer?",
        top_k: 5,
        live_message_limit: 20,
        token_budget: 1500,
        latency_budget_ms: 250,
      },
      context: { request_id: "run-1", trace_id: "0af7651916cd43dd8448eb211c80319c" },
    });
  });

  it("makes no call without a memory budget, or without text to recall by", async () => {
    const first = await run({
      headers: withToken,
      memoryReply: (tool) => ({ status: 200, body: { tool, result: BUNDLE } }),
    });
    expect(first.seen.context).toBeUndefined();
    expect(first.memory.requests).toEqual([]);
    await running?.close();
    await memory?.close();
    const second = await run({ metadata: withBudget(), headers: withToken, text: "   " });
    expect(second.seen.context).toBeUndefined();
    expect(second.memory.requests).toEqual([]);
  });

  it("logs a failed pre-fetch and runs the skill with no context", async () => {
    const logLines: Record<string, unknown>[] = [];
    const { seen, memory } = await run({
      metadata: withBudget(),
      headers: withToken,
      memoryReply: () => ({ status: 503, body: { error: "unavailable" } }),
      logLines,
    });
    expect(seen.context).toBeUndefined();
    expect(memory.requests).toHaveLength(1);
    const warning = logLines.find((l) => String(l.message).includes("memory pre-fetch failed"));
    expect(warning?.level).toBe("warn");
  });

  it("logs a pre-fetch that has no token to send", async () => {
    const logLines: Record<string, unknown>[] = [];
    const previous = process.env.NOVAOS_EXECUTION_TOKEN;
    delete process.env.NOVAOS_EXECUTION_TOKEN;
    try {
      const { seen, memory } = await run({ metadata: withBudget(), logLines });
      expect(seen.context).toBeUndefined();
      expect(memory.requests).toEqual([]);
      expect(logLines.some((l) => String(l.message).includes("memory pre-fetch failed"))).toBe(true);
    } finally {
      if (previous !== undefined) process.env.NOVAOS_EXECUTION_TOKEN = previous;
    }
  });
});

describe("ctx.memory.client()", () => {
  it("binds the run's token, trace and idempotency key: a retried execution writes the same keys", async () => {
    const keys: unknown[] = [];
    const reply = (tool: string, payload: Record<string, unknown>): JsonReply => {
      keys.push(payload.idempotency_key);
      return {
        status: 200,
        body: { tool, result: { memory_id: "mem_1", scope: "agent", write_event_id: "w", created_at: AT } },
      };
    };
    const skill = async (ctx: AgentExecutionContext) => {
      await using first = ctx.memory.client();
      await first.write("agent", "one");
      await using second = ctx.memory.client();
      await second.write("agent", "two");
    };
    const metadata = platformContextMetadata({ runId: "run-1", idempotencyKey: "exec-1" });
    const once = await run({ metadata, headers: withToken, memoryReply: reply, skill });
    expect(once.memory.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(once.memory.violations).toEqual([]);
    await running?.close();
    await memory?.close();
    await run({ metadata, headers: withToken, memoryReply: reply, skill });
    expect(keys).toEqual([
      "exec-1:memory.write:1",
      "exec-1:memory.write:2",
      "exec-1:memory.write:1",
      "exec-1:memory.write:2",
    ]);
  });

  it("throws MissingExecutionTokenError when the run has no token", () => {
    const namespace = new MemoryNamespace(new ExecutionContext({}), { baseUrl: "http://memory.invalid" });
    expect(() => namespace.client()).toThrow(MissingExecutionTokenError);
    expect(namespace.context).toBeUndefined();
  });
});
