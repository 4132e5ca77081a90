/**
 * The harness with a store that saves synchronously (the in-memory store is
 * one): every write of a run is stored as it happens (the closing artifact
 * with the closing status), a run that ends saves nothing its writes already
 * stored, and a write whose save failed is saved again when the run ends.
 */
import { describe, expect, it } from "vitest";
import { type Task, TaskState } from "../../gen/a2a_pb.js";
import { TaskVersionConflictError } from "../../src/server/store-errors.js";
import { InMemoryTaskStore, type TaskStore, type TaskWriter } from "../../src/server/task-store.js";
import { agentOnStore, sendDirect } from "./support/agent-server.js";

/** The in-memory store, recording the state of each save; `refuse` makes the saves of that state fail once. */
function recordingStore(refuse?: TaskState) {
  const inner = new InMemoryTaskStore();
  const saved: TaskState[] = [];
  let refused = false;
  const store: TaskStore = {
    savesSynchronously: true,
    get: (id, scope) => inner.get(id, scope),
    list: (scope, query) => inner.list(scope, query),
    delete: (id, scope) => inner.delete(id, scope),
    save(task: Task, scope: string, writer: TaskWriter) {
      const state = task.status?.state ?? TaskState.UNSPECIFIED;
      saved.push(state);
      if (state === refuse && !refused) {
        refused = true;
        return Promise.reject(new TaskVersionConflictError(task.id, writer.version));
      }
      return inner.save(task, scope, writer);
    },
  };
  return { store, saved };
}

async function echoOnce(store: TaskStore): Promise<string> {
  const agent = agentOnStore("sync-store", store);
  agent.skill("echo", async (_ctx, text) => ({ output: text }));
  const response = await sendDirect(agent, "hi");
  await agent.requestHandler().whenIdle();
  if (response.payload.case !== "task") throw new Error("expected a task");
  return response.payload.value.id;
}

describe("a task store that saves synchronously", () => {
  it("stores each write of a run once (WORKING, then its artifact with COMPLETED), and nothing more when the run ends", async () => {
    const { store, saved } = recordingStore();
    const taskId = await echoOnce(store);
    expect(saved).toEqual([TaskState.WORKING, TaskState.COMPLETED]);
    const stored = (await store.get(taskId, "0:"))?.task;
    expect(stored?.status?.state).toBe(TaskState.COMPLETED);
    expect(stored?.artifacts.map((a) => a.parts.map((p) => p.content.value))).toEqual([["hi"]]);
  });

  it("saves a write whose save failed again when the run ends", async () => {
    const { store, saved } = recordingStore(TaskState.COMPLETED);
    const taskId = await echoOnce(store);
    expect(saved).toEqual([TaskState.WORKING, TaskState.COMPLETED, TaskState.COMPLETED]);
    const stored = (await store.get(taskId, "0:"))?.task;
    expect(stored?.status?.state).toBe(TaskState.COMPLETED);
    expect(stored?.artifacts).toHaveLength(1);
  });
});
