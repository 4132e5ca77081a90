/**
 * The harness with a store that saves asynchronously (the fleet's
 * PostgreSQL store is one): a run's writes of one event-loop turn share one
 * save, a run that ends saves nothing its writes did not, and a blocking
 * SendMessage answers only once the state it reports is stored.
 */
import { describe, expect, it } from "vitest";
import { type Task, TaskState } from "../../gen/a2a_pb.js";
import type { AgentBuilder } from "../../src/server/agent-builder.js";
import type { TaskStore, TaskWriter } from "../../src/server/task-store.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";
import { textPart } from "../../src/server/task-updater.js";
import { nextTurn } from "../../src/server/turn-slice.js";
import { agentOnStore, deferred, result, sendDirect, serveAgent, userMessage } from "./support/agent-server.js";

/**
 * The in-memory store behind an asynchronous save, recording each save's state (and, with `recordsEvents`, the
 * kinds of the frames it takes, as the fleet's store does); `hold` keeps saves waiting.
 */
function asyncStore(recordsEvents = false) {
  const inner = new InMemoryTaskStore();
  const saved: { state: number; artifacts: number; events?: (string | undefined)[] }[] = [];
  let gate: Promise<void> = Promise.resolve();
  const store: TaskStore = {
    recordsEvents,
    get: (id, scope) => inner.get(id, scope),
    list: (scope, query) => inner.list(scope, query),
    delete: (id, scope) => inner.delete(id, scope),
    async save(task: Task, scope: string, writer: TaskWriter) {
      const events = recordsEvents ? { events: (writer.events?.splice(0) ?? []).map((f) => f.payload.case) } : {};
      saved.push({ state: task.status?.state ?? 0, artifacts: task.artifacts.length, ...events });
      const copy = structuredClone(task);
      await gate;
      return inner.save(copy, scope, writer);
    },
  };
  return {
    store,
    saved,
    /** Saves from now on wait until the returned function is called. */
    hold(): () => void {
      const held = deferred();
      gate = held.promise;
      return held.resolve;
    },
  };
}

function agentOn(store: TaskStore): AgentBuilder {
  const agent = agentOnStore("async-store", store);
  agent.skill("echo", async (_ctx, text) => ({ output: text }));
  return agent;
}

describe("a task store that saves asynchronously", () => {
  it("stores a run that finishes within a turn (WORKING, its artifact, COMPLETED) in one save, and no more when it ends", async () => {
    const { store, saved } = asyncStore();
    const agent = agentOn(store);
    const server = await serveAgent(agent);
    try {
      const task = (await result(server.url, "SendMessage", { message: userMessage("hi") })).task;
      await agent.requestHandler().whenIdle();
      expect(saved).toEqual([{ state: 3, artifacts: 1 }]);
      expect((await store.get(task.id, "0:"))?.task.status?.state).toBe(3);
    } finally {
      await server.close();
    }
  });

  it("answers a blocking SendMessage only once the state it reports is stored", async () => {
    const held = asyncStore();
    const open = held.hold();
    const agent = agentOn(held.store);
    const order: string[] = [];
    const answered = sendDirect(agent, "hi").then((response) => {
      order.push("answered");
      return response;
    });
    // The run's one save started and waits; an answer that did not wait for it would come within these turns.
    while (held.saved.length === 0) await nextTurn();
    for (let turn = 0; turn < 20; turn++) await nextTurn();
    order.push("stored");
    open();
    const response = await answered;
    expect(order).toEqual(["stored", "answered"]);
    expect(response.payload.case === "task" && response.payload.value.status?.state).toBe(TaskState.COMPLETED);
    await agent.requestHandler().whenIdle();
  });

  it("hands a store that records events no frame before a task's first save, and every frame after it started (S674)", async () => {
    const held = asyncStore(true);
    const open = held.hold();
    const skillGate = deferred();
    const agent = agentOnStore("async-store", held.store);
    agent.skill("steps", async (ctx) => {
      void ctx.taskUpdater.addArtifact([textPart("a")], { artifactId: "a" });
      await skillGate.promise;
      return { output: "done" };
    });
    const answered = sendDirect(agent, "go");
    // The first save (WORKING and artifact "a") started and waits; the run ends meanwhile, publishing its output.
    while (held.saved.length === 0) await nextTurn();
    skillGate.resolve();
    const handler = agent.requestHandler();
    while (![...handler.liveTasks.executing()].some((live) => live.terminal)) await nextTurn();
    expect(held.saved).toHaveLength(1);
    open();
    await answered;
    await agent.requestHandler().whenIdle();
    expect(held.saved).toEqual([
      { state: TaskState.WORKING, artifacts: 1, events: [] },
      { state: TaskState.COMPLETED, artifacts: 2, events: ["artifactUpdate", "statusUpdate"] },
    ]);
  });
});
