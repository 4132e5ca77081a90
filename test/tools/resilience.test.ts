/**
 * The tools' retries and circuit breakers, on a manual clock (no test
 * sleeps): an idempotent tool is tried 3 times, 1 s then 2 s apart (times
 * the jitter factor), after 429, 502, 503, 504 or no answer, waiting a
 * longer Retry-After; nothing else is retried, and a connector, notify, code
 * or memory write call never is. Each tool service has its own breaker.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  NovaOSRateLimitError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { CircuitOpenError } from "../../src/runtime/resilience.js";
import { McpToolGateway } from "../../src/tools/mcp-tool-gateway.js";
import { ToolBindings } from "../../src/tools/tool-bindings.js";
import type { JsonReply } from "../platform/contract-server.js";
import { ManualClock } from "../runtime/manual-clock.js";
import {
  GATEWAY_TOKEN,
  type GatewayCall,
  type GatewayDouble,
  sampleAnswer,
  startGateway,
} from "./support/mcp-gateway.js";

const DEADLINE_S = 100;

const refusal = (status: number, headers?: Record<string, string>): JsonReply => ({
  status,
  body: { error: `status_${status}` },
  ...(headers ? { headers } : {}),
});

/** Answers the scripted replies in order (a function answers a call itself), then the sample result. */
function script(...replies: (JsonReply | ((call: GatewayCall) => JsonReply | Promise<JsonReply>))[]) {
  return (call: GatewayCall) => {
    const next = replies.shift();
    if (next === undefined) return sampleAnswer(call);
    return typeof next === "function" ? next(call) : next;
  };
}

/** The backoff waits the policy takes (skipping the attempts' deadlines), advancing through each. */
async function backoffs(clock: ManualClock, count: number): Promise<number[]> {
  const waits: number[] = [];
  while (waits.length < count) {
    const ms = await clock.nextSleep();
    if (ms === DEADLINE_S * 1000) continue;
    waits.push(ms);
    clock.advance(ms);
  }
  return waits;
}

let gateway: GatewayDouble;
let clock: ManualClock;
let tools: ToolBindings;

function bindings(resilience: ConstructorParameters<typeof McpToolGateway>[0]["resilience"] = {}): ToolBindings {
  return new ToolBindings({
    gateway: new McpToolGateway({ url: gateway.url, clock, random: () => 0.5, resilience }),
    token: GATEWAY_TOKEN,
    tenantId: "tenant-1",
    defaultTimeoutS: DEADLINE_S,
  });
}

beforeEach(async () => {
  gateway = await startGateway();
  clock = new ManualClock();
  tools = bindings();
});
afterEach(async () => {
  expect(gateway.server.violations).toEqual([]);
  await gateway.close();
});

describe("tool retries", () => {
  it("tries an idempotent tool 3 times, waiting 1 s then 2 s times the jitter factor, and answers the third", async () => {
    gateway.answer = script(refusal(503), refusal(502));
    const call = tools.knowledge.search("refunds");
    expect(await backoffs(clock, 2)).toEqual([750, 1500]);
    expect((await call).results).toHaveLength(1);
    expect(gateway.calls.map((c) => c.name)).toEqual(Array(3).fill("novaos.knowledge.query"));
  });

  it("keeps each wait within [½, 1) of 1 s and 2 s whatever the jitter", async () => {
    for (const [random, expected] of [
      [0, [500, 1000]],
      [0.999, [999.5, 1999]],
    ] as const) {
      gateway.answer = script(refusal(504), refusal(504));
      const jittered = new ToolBindings({
        gateway: new McpToolGateway({ url: gateway.url, clock, random: () => random }),
        token: GATEWAY_TOKEN,
        defaultTimeoutS: DEADLINE_S,
      });
      const call = jittered.files.read("notes.txt");
      expect(await backoffs(clock, 2)).toEqual(expected);
      await call;
    }
  });

  it("throws the third failure when every attempt fails", async () => {
    gateway.answer = script(refusal(503), refusal(503), refusal(503));
    const call = tools.memory.query("agent", "dates").catch((e: unknown) => e);
    await backoffs(clock, 2);
    const error = await call;
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect((error as NovaOSServerError).statusCode).toBe(503);
    expect(gateway.calls).toHaveLength(3);
  });

  it.each([
    [401, NovaOSAuthenticationError],
    [403, NovaOSAuthenticationError],
    [413, NovaOSValidationError],
    [500, NovaOSServerError],
  ])("never retries HTTP %i", async (status, type) => {
    gateway.answer = script(refusal(status, status === 401 ? { "WWW-Authenticate": "Bearer" } : undefined));
    await expect(tools.knowledge.search("refunds")).rejects.toBeInstanceOf(type);
    expect(gateway.calls).toHaveLength(1);
  });

  it("never retries a JSON-RPC error, which is the gateway's decision", async () => {
    gateway.answer = (call) => ({
      status: 200,
      body: { jsonrpc: "2.0", id: call.id, error: { code: -32603, message: "internal", data: { reason: "INTERNAL" } } },
    });
    await expect(tools.knowledge.search("refunds")).rejects.toBeInstanceOf(NovaOSServerError);
    expect(gateway.calls).toHaveLength(1);
  });

  it.each<[string, (t: ToolBindings) => Promise<unknown>]>([
    ["a connector call", (t) => t.connector.call("clickup", "get-task", { id: "1" })],
    ["notify.send", (t) => t.notify.send({ channel: "slack", to: ["#ops"], body: "done" })],
    ["code.execute", (t) => t.code.execute("python", "print(1)")],
    ["memory.write", (t) => t.memory.write("agent", "fact")],
    ["agents.call", (t) => t.agents.call("translator", { input: "hi" })],
    ["a third-party tool", (t) => t.call("novaos.weather.forecast", { city: "Paris" })],
  ])("never retries %s, even after a transient failure", async (_what, call) => {
    gateway.answer = script(refusal(503));
    const error = await call(tools).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect((error as NovaOSServerError).isRetryable).toBe(true);
    expect(gateway.calls).toHaveLength(1);
  });

  it("waits a Retry-After longer than the backoff", async () => {
    gateway.answer = script(refusal(429, { "Retry-After": "5" }), refusal(503, { "Retry-After": "1" }));
    const call = tools.knowledge.getJobStatus("job-1");
    expect(await backoffs(clock, 2)).toEqual([5000, 1500]);
    expect((await call).status).toBe("completed");
  });

  it("gives up at once on a Retry-After over 30 s, with the gateway's error and its retryAfter", async () => {
    gateway.answer = script(refusal(429, { "Retry-After": "31" }));
    const error = await tools.knowledge.getJobStatus("job-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSRateLimitError);
    expect((error as NovaOSRateLimitError).retryAfter).toBe(31);
    expect(gateway.calls).toHaveLength(1);
  });

  it("retries an idempotent call that gets no answer within its deadline", async () => {
    const never = () => new Promise<JsonReply>(() => {});
    gateway.answer = script(never, sampleAnswer);
    const call = tools.knowledge.search("refunds", {}, { timeoutS: 7 });
    await gateway.received(1);
    expect(await clock.nextSleep()).toBe(7000);
    clock.advance(7000);
    expect(await clock.nextSleep()).toBe(750);
    clock.advance(750);
    expect((await call).results).toHaveLength(1);
    expect(gateway.calls).toHaveLength(2);
  });

  it("gives a connector call that gets no answer one attempt, ending at its deadline", async () => {
    gateway.answer = () => new Promise<JsonReply>(() => {});
    const once = tools.connector.call("clickup", "create-task", {}, { timeoutS: 7 }).catch((e: unknown) => e);
    await gateway.received(1);
    expect(await clock.nextSleep()).toBe(7000);
    clock.advance(7000);
    const error = await once;
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect((error as Error).message).toContain("no answer within 7000 ms");
    expect(gateway.calls).toHaveLength(1);
  });
});

describe("tool circuit breakers", () => {
  it("opens after 5 consecutive transient failures of a service, refusing its calls unsent while others go on", async () => {
    tools = bindings({ maxAttempts: 1 });
    gateway.answer = () => refusal(503);
    for (let i = 0; i < 5; i++) await expect(tools.knowledge.search("x")).rejects.toBeInstanceOf(NovaOSServerError);
    const knowledge = (tools.caller.gateway as McpToolGateway).policyFor("novaos.knowledge.query");
    expect(knowledge.breakerState).toBe("open");
    const refused = await tools.knowledge.getJobStatus("job-1").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CircuitOpenError);
    expect((refused as CircuitOpenError).retryAfter).toBe(30);
    expect(gateway.calls).toHaveLength(5);

    gateway.answer = sampleAnswer;
    expect((await tools.memory.query("agent", "dates")).items).toHaveLength(1);
    expect(gateway.calls).toHaveLength(6);
  });

  it("lets one probe through after 30 s: a failed probe reopens it, a successful one closes it", async () => {
    tools = bindings({ maxAttempts: 1 });
    gateway.answer = () => refusal(502);
    for (let i = 0; i < 5; i++) await tools.files.read("a.txt").catch(() => undefined);
    const policy = (tools.caller.gateway as McpToolGateway).policyFor("novaos.files.read");
    clock.advance(30_000);
    await expect(tools.files.read("a.txt")).rejects.toBeInstanceOf(NovaOSServerError);
    expect(policy.breakerState).toBe("open");
    await expect(tools.files.read("a.txt")).rejects.toBeInstanceOf(CircuitOpenError);
    clock.advance(30_000);
    gateway.answer = sampleAnswer;
    expect((await tools.files.read("a.txt")).path).toBe("reports/q1.md");
    expect(policy.breakerState).toBe("closed");
    expect(gateway.calls).toHaveLength(7);
  });
});

describe("tool cancellation", () => {
  it("ends a call in flight, and one waiting to retry, with the run's reason, sending nothing more", async () => {
    const controller = new AbortController();
    const cancelled = new Error("run cancelled");
    const run = new ToolBindings({
      gateway: new McpToolGateway({ url: gateway.url, clock, random: () => 0.5 }),
      token: GATEWAY_TOKEN,
      signal: controller.signal,
      defaultTimeoutS: DEADLINE_S,
    });
    gateway.answer = script(() => new Promise<JsonReply>(() => {}));
    const inFlight = run.knowledge.search("x").catch((e: unknown) => e);
    await gateway.received(1);
    gateway.answer = script(refusal(503));
    const waiting = run.knowledge.search("y").catch((e: unknown) => e);
    await gateway.received(2);
    while ((await clock.nextSleep()) !== 750) {
      // the two attempts' deadlines; then the retry's wait
    }
    controller.abort(cancelled);
    expect(await inFlight).toBe(cancelled);
    expect(await waiting).toBe(cancelled);
    await expect(run.knowledge.search("z")).rejects.toBe(cancelled);
    expect(gateway.calls).toHaveLength(2);
  });
});
