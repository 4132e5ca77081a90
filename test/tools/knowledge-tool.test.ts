/**
 * KnowledgeTool's own logic over the governed call: batch ingestion (at most
 * 10 in flight, results in input order, a failed submission recorded and
 * the rest going on) and the three pollers (on a manual clock).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BATCH_CONCURRENCY_LIMIT } from "../../src/tools/knowledge-tool.js";
import { McpToolGateway } from "../../src/tools/mcp-tool-gateway.js";
import { ToolBindings } from "../../src/tools/tool-bindings.js";
import { PollTimeoutError } from "../../src/tools/tool-errors.js";
import type { JsonReply } from "../platform/contract-server.js";
import { ManualClock } from "../runtime/manual-clock.js";
import { deferred } from "../server/support/agent-server.js";
import { GATEWAY_TOKEN, type GatewayDouble, startGateway, toolFailure, toolSuccess } from "./support/mcp-gateway.js";

let gateway: GatewayDouble;
let clock: ManualClock;
let tools: ToolBindings;
let controller: AbortController;

beforeEach(async () => {
  gateway = await startGateway();
  clock = new ManualClock();
  controller = new AbortController();
  tools = new ToolBindings({
    gateway: new McpToolGateway({ url: gateway.url, clock, random: () => 0.5 }),
    token: GATEWAY_TOKEN,
    signal: controller.signal,
  });
});
afterEach(async () => {
  expect(gateway.server.violations).toEqual([]);
  await gateway.close();
});

/** The job statuses the gateway answers, in order, for `get_job_status` calls of each job. */
function jobStates(states: Record<string, string[]>): void {
  gateway.answer = (call) => {
    const jobId = String(call.arguments.job_id);
    const status = states[jobId]?.shift() ?? "completed";
    return toolSuccess(call, { job_id: jobId, status, ...(status === "failed" ? { error: "unreadable PDF" } : {}) });
  };
}

describe("ingestBatch", () => {
  it(`keeps at most ${BATCH_CONCURRENCY_LIMIT} submissions in flight and answers in input order`, async () => {
    const held: { call: { id: string | number; index: number }; release: (reply: JsonReply) => void }[] = [];
    let inFlight = 0;
    let most = 0;
    gateway.answer = (call) => {
      inFlight++;
      most = Math.max(most, inFlight);
      const reply = deferred<JsonReply>();
      held.push({ call: { id: call.id, index: Number(call.arguments.content) }, release: reply.resolve });
      return reply.promise.finally(() => inFlight--);
    };
    const items = Array.from({ length: 25 }, (_, i) => ({ content: String(i) }));
    const batch = tools.knowledge.ingestBatch(items, { collection: "policies" });
    for (let answered = 0; answered < items.length; answered++) {
      await gateway.received(Math.min(items.length, answered + BATCH_CONCURRENCY_LIMIT));
      expect(gateway.calls.length - answered).toBeLessThanOrEqual(BATCH_CONCURRENCY_LIMIT);
      // Answer the newest call first, so answers arrive out of input order.
      const next = held.pop() as (typeof held)[number];
      next.release(
        next.call.index === 7
          ? toolFailure({ ...next.call, name: "novaos.knowledge.ingest" } as never, "content too large")
          : toolSuccess(next.call as never, { job_id: `job-${next.call.index}`, status: "pending" }),
      );
    }
    const result = await batch;
    expect(most).toBe(BATCH_CONCURRENCY_LIMIT);
    expect(result.total).toBe(25);
    expect(result.batchId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.items.map((i) => i.index)).toEqual(items.map((_, i) => i));
    expect(result.items.map((i) => i.jobId)).toEqual(items.map((_, i) => (i === 7 ? undefined : `job-${i}`)));
    expect(result.items[7]).toMatchObject({
      status: "submit_error",
      error: expect.stringContaining("content too large"),
    });
    expect(
      gateway.calls.every((c) => (c.arguments.metadata as { collection?: string }).collection === "policies"),
    ).toBe(true);
  });

  it("ends the whole batch when the run is cancelled, instead of recording submit errors", async () => {
    gateway.answer = () => new Promise<JsonReply>(() => {});
    const batch = tools.knowledge.ingestBatch([{ content: "a" }, { content: "b" }]).catch((e: unknown) => e);
    await gateway.received(2);
    const reason = new Error("cancelled");
    controller.abort(reason);
    expect(await batch).toBe(reason);
  });
});

describe("the pollers", () => {
  it("pollUntilComplete asks every 2 s until the job is finished", async () => {
    jobStates({ "job-1": ["pending", "running", "failed"] });
    const polled = tools.knowledge.pollUntilComplete("job-1");
    const waits: number[] = [];
    for (let i = 0; i < 2; i++) {
      waits.push(await nextWait());
    }
    const job = await polled;
    expect(waits).toEqual([2000, 2000]);
    expect(job).toEqual({ job_id: "job-1", status: "failed", error: "unreadable PDF" });
    expect(gateway.calls).toHaveLength(3);
  });

  it("gives up with PollTimeoutError after maxWaitS, having asked one last time at the deadline", async () => {
    jobStates({ "job-1": Array(10).fill("running") });
    const polled = tools.knowledge
      .pollUntilComplete("job-1", { pollIntervalS: 2, maxWaitS: 5 })
      .catch((e: unknown) => e);
    expect([await nextWait(), await nextWait(), await nextWait()]).toEqual([2000, 2000, 1000]);
    const error = await polled;
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as Error).message).toBe("Ingestion job job-1 was not finished after 5 s");
    expect(gateway.calls).toHaveLength(4);
  });

  it("pollBatchUntilComplete asks for every unfinished job each round and keeps submit errors as they are", async () => {
    jobStates({ a: ["running", "completed"], b: ["duplicate"] });
    const batch = {
      batchId: "b-1",
      total: 3,
      items: [
        { index: 0, jobId: "a", status: "pending", error: undefined, duplicateOf: undefined, isDuplicate: false },
        {
          index: 1,
          jobId: undefined,
          status: "submit_error",
          error: "too big",
          duplicateOf: undefined,
          isDuplicate: false,
        },
        { index: 2, jobId: "b", status: "pending", error: undefined, duplicateOf: undefined, isDuplicate: false },
      ],
    } as const;
    const polled = tools.knowledge.pollBatchUntilComplete(batch);
    expect(await nextWait()).toBe(2000);
    const done = await polled;
    expect(done.batchId).toBe("b-1");
    expect(done.items.map((i) => [i.index, i.status, i.isDuplicate])).toEqual([
      [0, "completed", false],
      [1, "submit_error", false],
      [2, "duplicate", true],
    ]);
    expect(gateway.calls.map((c) => c.arguments.job_id)).toEqual(["a", "b", "a"]);
  });

  it("pollGraphBuildUntilComplete asks until the build is completed or failed", async () => {
    const states = ["pending", "running", "completed"];
    gateway.answer = (call) =>
      toolSuccess(call, {
        graph_status: states.shift(),
        graph_error: null,
        graph_entity_count: 3,
        graph_relationship_count: 2,
        graph_community_count: 1,
      });
    const polled = tools.knowledge.pollGraphBuildUntilComplete("policies", { pollIntervalS: 1 });
    expect([await nextWait(), await nextWait()]).toEqual([1000, 1000]);
    expect((await polled).graph_status).toBe("completed");
  });

  it("a cancelled run ends a poller's wait at once", async () => {
    jobStates({ "job-1": ["running"] });
    const polled = tools.knowledge.pollUntilComplete("job-1").catch((e: unknown) => e);
    await waitFor(2000);
    const reason = new Error("cancelled");
    controller.abort(reason);
    expect(await polled).toBe(reason);
  });
});

/** Takes the next poll wait (skipping the calls' deadlines) and lets it pass. */
async function nextWait(): Promise<number> {
  const ms = await waitFor();
  clock.advance(ms);
  return ms;
}

/** The next wait that is not a call's deadline (128 s), optionally checking its length. */
async function waitFor(expected?: number): Promise<number> {
  for (;;) {
    const ms = await clock.nextSleep();
    if (ms === 128_000) continue;
    if (expected !== undefined) expect(ms).toBe(expected);
    return ms;
  }
}
