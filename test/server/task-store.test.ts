/** The in-memory task store: LRU-by-write, scopes, and what eviction does to a live task. */
import { create, equals } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { PartSchema, TaskSchema, TaskState, TaskStatusSchema } from "../../gen/a2a_pb.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { scopeOf } from "../../src/server/agent-request-handler.js";
import { ANONYMOUS_CALLER } from "../../src/server/auth/caller-identity.js";
import { MAX_TEXT_BYTES } from "../../src/server/kept-task.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";
import { put as putTask, query } from "../stores/task-store-suite.js";
import { deferred, result, serveAgent, userMessage } from "./support/agent-server.js";

const task = (id: string) => create(TaskSchema, { id });
/** A task in `state` whose one artifact holds `text`. */
const taskIn = (id: string, state: TaskState, text = "out") =>
  create(TaskSchema, {
    id,
    contextId: "c",
    status: create(TaskStatusSchema, { state }),
    artifacts: [{ artifactId: "a", parts: [create(PartSchema, { content: { case: "text", value: text } })] }],
  });
const DEFAULT_SCOPE = scopeOf("", ANONYMOUS_CALLER);

const put = (store: InMemoryTaskStore, id: string, scope = "") => putTask(store, task(id), scope);

async function ids(store: InMemoryTaskStore, scope = ""): Promise<string[]> {
  const page = await store.list(scope, query({ owner: undefined }));
  return page.tasks.map((stored) => stored.task.id).sort();
}

describe("InMemoryTaskStore", () => {
  it("evicts the least recently saved task past its cap; get does not refresh, save does", async () => {
    const store = new InMemoryTaskStore({ maxTasks: 2 });
    await put(store, "a");
    await put(store, "b");
    await store.get("a", "");
    await put(store, "c");
    expect(await store.get("a", "")).toBeUndefined();
    await put(store, "b");
    await put(store, "d");
    expect(await ids(store)).toEqual(["b", "d"]);
    expect(store.size).toBe(2);
  });

  it("keeps scopes apart, even with ids that look like another scope's key", async () => {
    const store = new InMemoryTaskStore();
    await put(store, "1:x", "a");
    await put(store, "x", "a1:");
    expect((await store.get("1:x", "a"))?.task.id).toBe("1:x");
    expect(await store.get("1:x", "a1:")).toBeUndefined();
    expect(await ids(store, "a")).toHaveLength(1);
    await store.delete("1:x", "a");
    await store.delete("missing", "a");
    expect(await store.get("1:x", "a")).toBeUndefined();
  });

  it("refuses a cap that is not a positive integer", () => {
    expect(() => new InMemoryTaskStore({ maxTasks: 0 })).toThrow(RangeError);
    expect(() => new InMemoryTaskStore({ maxTasks: 1.5 })).toThrow(RangeError);
  });

  it("never loses a running task to eviction: it stays readable and is stored again when it finishes", async () => {
    const store = new InMemoryTaskStore({ maxTasks: 2 });
    const agent = new AgentBuilder({ name: "evict", taskStore: store, logger: createLogger({ level: "silent" }) });
    const gate = deferred();
    agent.skill("s", async (_ctx, text) => {
      if (text === "slow") await gate.promise;
      return { output: text };
    });
    const server = await serveAgent(agent);
    try {
      const slow = (
        await result(server.url, "SendMessage", {
          message: userMessage("slow"),
          configuration: { returnImmediately: true },
        })
      ).task;
      await result(server.url, "SendMessage", { message: userMessage("one") });
      await result(server.url, "SendMessage", { message: userMessage("two") });
      expect(await store.get(slow.id, DEFAULT_SCOPE)).toBeUndefined();
      expect((await result(server.url, "GetTask", { id: slow.id })).status.state).toBe("TASK_STATE_WORKING");
      expect((await result(server.url, "ListTasks", {})).totalSize).toBe(3);
      gate.resolve();
      await agent.requestHandler().whenIdle();
      expect((await store.get(slow.id, DEFAULT_SCOPE))?.task.status?.state).toBeDefined();
      expect((await result(server.url, "GetTask", { id: slow.id })).status.state).toBe("TASK_STATE_COMPLETED");
    } finally {
      await server.close();
    }
  });

  describe("keeps a settled task as its text and a running one as the object (decision S717)", () => {
    it("hands out a settled task (terminal or interrupted) decoded afresh: equal to the saved one, untouched by later changes to it", async () => {
      for (const state of [TaskState.COMPLETED, TaskState.FAILED, TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED]) {
        const store = new InMemoryTaskStore();
        const saved = taskIn("t", state);
        await putTask(store, saved, "");
        const read = (await store.get("t", ""))?.task as typeof saved;
        expect(read).not.toBe(saved);
        expect(equals(TaskSchema, read, taskIn("t", state))).toBe(true);
        saved.contextId = "changed after the save";
        expect((await store.get("t", ""))?.task.contextId).toBe("c");
        expect((await store.list("", query({ owner: undefined }))).tasks[0]?.task.contextId).toBe("c");
      }
    });

    it("hands out a task that may still run as the very object saved", async () => {
      for (const state of [TaskState.SUBMITTED, TaskState.WORKING, TaskState.UNSPECIFIED]) {
        const store = new InMemoryTaskStore();
        const saved = taskIn("t", state);
        await putTask(store, saved, "");
        expect((await store.get("t", ""))?.task).toBe(saved);
      }
    });

    it("keeps as the object a settled task whose text would not read back: a lone surrogate, a value ProtoJSON cannot write", async () => {
      const store = new InMemoryTaskStore();
      const lone = taskIn("lone", TaskState.COMPLETED, "half a pair: \ud800");
      const odd = taskIn("odd", TaskState.COMPLETED);
      odd.metadata = { big: 1n } as unknown as typeof odd.metadata;
      await putTask(store, lone, "");
      await putTask(store, odd, "");
      expect((await store.get("lone", ""))?.task).toBe(lone);
      expect((await store.get("odd", ""))?.task).toBe(odd);
    });

    it("keeps a settled task over 16 KiB (as estimated) as the object, so no save holds the event loop to encode it", async () => {
      const store = new InMemoryTaskStore();
      const large = taskIn("large", TaskState.COMPLETED, "x".repeat(MAX_TEXT_BYTES));
      const small = taskIn("small", TaskState.COMPLETED, "x".repeat(MAX_TEXT_BYTES / 2));
      await putTask(store, large, "");
      await putTask(store, small, "");
      expect((await store.get("large", ""))?.task).toBe(large);
      expect((await store.get("small", ""))?.task).not.toBe(small);
    });

    it("keeps every version and the index fields right as a task settles, and lists it by them", async () => {
      const store = new InMemoryTaskStore();
      const live = taskIn("t", TaskState.WORKING);
      const writer = { owner: "", version: 0 };
      await store.save(live, "", writer);
      expect((await store.list("", query({ owner: undefined, status: TaskState.WORKING }))).totalSize).toBe(1);
      live.status = create(TaskStatusSchema, { state: TaskState.COMPLETED });
      await store.save(live, "", writer);
      const stored = await store.get("t", "");
      expect(stored?.version).toBe(2);
      expect(stored?.task.status?.state).toBe(TaskState.COMPLETED);
      expect((await store.list("", query({ owner: undefined, status: TaskState.WORKING }))).totalSize).toBe(0);
      expect((await store.list("", query({ owner: undefined, status: TaskState.COMPLETED }))).totalSize).toBe(1);
    });
  });
});
