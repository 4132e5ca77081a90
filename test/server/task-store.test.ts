/** The in-memory task store: LRU-by-write, scopes, and what eviction does to a live task. */
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { TaskSchema } from "../../gen/a2a_pb.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { scopeOf } from "../../src/server/agent-request-handler.js";
import { ANONYMOUS_CALLER } from "../../src/server/auth/caller-identity.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";
import { put as putTask, query } from "../stores/task-store-suite.js";
import { deferred, result, serveAgent, userMessage } from "./support/agent-server.js";

const task = (id: string) => create(TaskSchema, { id });
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
});
