/**
 * Memory budgets of a served agent: a task's history held to its byte budget
 * (oldest first, the trim counted in the task's metadata), the in-memory
 * store evicting by estimated bytes, and one tenant's flood leaving another
 * tenant's tasks and push configs in place.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder, type AgentBuilderOptions } from "../../src/server/agent-builder.js";
import { HISTORY_TRIMMED_METADATA_KEY } from "../../src/server/live-task.js";
import { InMemoryPushNotificationConfigStore } from "../../src/server/push-config-store.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";
import { type RunningServer, result, rpc, serveAgent, userMessage, V1 } from "./support/agent-server.js";

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** An agent whose skill pauses for input unless told "done", and echoes otherwise. */
async function serve(options: Partial<AgentBuilderOptions> = {}): Promise<string> {
  const agent = new AgentBuilder({ name: "budgets", logger: createLogger({ level: "silent" }), ...options });
  agent.skill("s", async (_ctx, text) =>
    text.startsWith("pause") ? { output: "more?", status: "WAITING_USER" } : { output: text },
  );
  const server = await serveAgent(agent);
  servers.push(server);
  return server.url;
}

const texts = (task: { history?: { parts: { text: string }[] }[] }) =>
  (task.history ?? []).map((m) => m.parts[0]?.text.slice(0, 12));

describe("history budget", () => {
  it("drops the oldest messages of a paused task past the budget, keeps the newest and counts the trim", async () => {
    const url = await serve({ maxHistoryBytes: 12_000 });
    const first = (await result(url, "SendMessage", { message: userMessage(`pause 0 ${"x".repeat(2_000)}`) })).task;
    expect(first.metadata?.[HISTORY_TRIMMED_METADATA_KEY]).toBeUndefined();
    for (let i = 1; i <= 10; i++) {
      await result(url, "SendMessage", {
        message: userMessage(`pause ${i} ${"x".repeat(2_000)}`, { taskId: first.id }),
      });
    }
    const task = await result(url, "GetTask", { id: first.id });
    // Each turn adds ~2 KB from the caller and a short agent reply: about five turns fit in 12,000 bytes.
    const kept = texts(task);
    expect(kept[kept.length - 1]).toBe("more?");
    expect(kept).toContain("pause 10 xxx");
    expect(kept).not.toContain("pause 0 xxxx");
    const trimmed = task.metadata[HISTORY_TRIMMED_METADATA_KEY];
    expect(trimmed.messages + kept.length).toBe(22);
    expect(trimmed.bytes).toBeGreaterThan(8_000);
    const totalChars = task.history.reduce(
      (n: number, m: { parts: { text: string }[] }) => n + (m.parts[0]?.text.length ?? 0),
      0,
    );
    expect(totalChars).toBeLessThanOrEqual(12_000);
    // historyLength reads from what is kept: the last n, or all of it when n is larger.
    expect(texts(await result(url, "GetTask", { id: first.id, historyLength: 2 }))).toEqual(["pause 10 xxx", "more?"]);
    expect(texts(await result(url, "GetTask", { id: first.id, historyLength: 1_000 }))).toEqual(kept);
  });

  it("keeps the newest message even when it alone is over the budget", async () => {
    const url = await serve({ maxHistoryBytes: 1_000 });
    const task = (await result(url, "SendMessage", { message: userMessage(`big ${"y".repeat(5_000)}`) })).task;
    expect(texts(task)).toEqual(["big yyyyyyyy"]);
    const got = await result(url, "GetTask", { id: task.id });
    expect(got.artifacts[0].parts[0].text).toHaveLength(5_004);
    expect(got.metadata[HISTORY_TRIMMED_METADATA_KEY].messages).toBe(1);
  });

  it("refuses a budget that is not a positive integer", () => {
    expect(() => new AgentBuilder({ name: "x", maxHistoryBytes: 0 })).toThrow(RangeError);
  });
});

describe("store byte budget", () => {
  it("evicts the least recently saved tasks by bytes as well as by count", async () => {
    const taskStore = new InMemoryTaskStore({ maxBytes: 100_000 });
    const url = await serve({ taskStore });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      ids.push((await result(url, "SendMessage", { message: userMessage(`${i} ${"z".repeat(15_000)}`) })).task.id);
    }
    // Each task holds the text three times (the input and the reply in the history, the output artifact): ~45 KB.
    expect(taskStore.size).toBe(2);
    expect(taskStore.bytes).toBeLessThanOrEqual(100_000);
    expect((await rpc(url, "GetTask", { id: ids[0] })).body.error.code).toBe(-32001);
    expect((await result(url, "GetTask", { id: ids[7] })).status.state).toBe("TASK_STATE_COMPLETED");
    const listed = await result(url, "ListTasks", {});
    expect(listed.totalSize).toBe(2);
    expect(listed.tasks.map((t: { id: string }) => t.id)).toEqual(ids.slice(6).reverse());
  });

  it("refuses bounds that are not positive integers", () => {
    expect(() => new InMemoryTaskStore({ maxBytes: 0 })).toThrow(RangeError);
    expect(() => new InMemoryTaskStore({ maxTasksPerScope: 1.5 })).toThrow(RangeError);
    expect(() => new InMemoryPushNotificationConfigStore({ maxConfigsPerScope: -1 })).toThrow(RangeError);
  });
});

describe("tenants", () => {
  it("lets one tenant's flood evict only its own tasks and push configs", async () => {
    const taskStore = new InMemoryTaskStore({ maxTasks: 20 });
    const pushNotificationStore = new InMemoryPushNotificationConfigStore({ maxConfigs: 20 });
    const url = await serve({ taskStore, pushNotificationStore, pushNotificationDelivery: "platform" });
    const quiet = { ...V1, "X-NovaOS-Tenant-Id": "quiet" };
    const loud = { ...V1, "X-NovaOS-Tenant-Id": "loud" };
    const hook = (taskId: string, id: string) => ({ taskId, id, url: `https://hooks.example/${id}` });

    const kept: string[] = [];
    for (let i = 0; i < 3; i++) {
      const task = (await rpc(url, "SendMessage", { message: userMessage(`quiet ${i}`) }, quiet)).body.result.task;
      expect(
        (await rpc(url, "CreateTaskPushNotificationConfig", hook(task.id, `q${i}`), quiet)).body.result,
      ).toBeDefined();
      kept.push(task.id);
    }
    for (let i = 0; i < 60; i++) {
      const task = (await rpc(url, "SendMessage", { message: userMessage(`loud ${i}`) }, loud)).body.result.task;
      await rpc(url, "CreateTaskPushNotificationConfig", hook(task.id, `l${i}`), loud);
    }

    expect(taskStore.size).toBe(20);
    for (const [i, id] of kept.entries()) {
      expect((await rpc(url, "GetTask", { id }, quiet)).body.result.id).toBe(id);
      const config = await rpc(url, "GetTaskPushNotificationConfig", { taskId: id, id: `q${i}` }, quiet);
      expect(config.body.result.url).toBe(`https://hooks.example/q${i}`);
    }
    expect((await rpc(url, "ListTasks", {}, quiet)).body.result.totalSize).toBe(3);
    expect((await rpc(url, "ListTasks", {}, loud)).body.result.totalSize).toBe(17);
  });

  it("holds a tenant to its quota when one is set", async () => {
    const taskStore = new InMemoryTaskStore({ maxTasksPerScope: 5 });
    const url = await serve({ taskStore });
    const tenant = { ...V1, "X-NovaOS-Tenant-Id": "t" };
    for (let i = 0; i < 12; i++) await rpc(url, "SendMessage", { message: userMessage(`${i}`) }, tenant);
    await rpc(url, "SendMessage", { message: userMessage("other") });
    expect((await rpc(url, "ListTasks", {}, tenant)).body.result.totalSize).toBe(5);
    expect((await result(url, "ListTasks", {})).totalSize).toBe(1);
  });

  it("holds a tenant to its byte quota when one is set", async () => {
    const taskStore = new InMemoryTaskStore({ maxBytesPerScope: 40_000 });
    const url = await serve({ taskStore });
    const tenant = { ...V1, "X-NovaOS-Tenant-Id": "t" };
    const other = (await result(url, "SendMessage", { message: userMessage(`other ${"o".repeat(30_000)}`) })).task;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await rpc(url, "SendMessage", { message: userMessage(`${i} ${"t".repeat(5_000)}`) }, tenant);
      ids.push(reply.body.result.task.id);
    }
    // Each task holds its text three times (~15 KB): two fit in the tenant's 40,000 bytes, the newest two.
    const listed = (await rpc(url, "ListTasks", {}, tenant)).body.result;
    expect(listed.tasks.map((t: { id: string }) => t.id)).toEqual(ids.slice(4).reverse());
    // The other partition holds more than the tenant's quota, and is under no quota of its own but the store's.
    expect((await result(url, "GetTask", { id: other.id })).id).toBe(other.id);
  });
});
