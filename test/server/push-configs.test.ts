/**
 * The four push-notification config methods, with and without a store, and
 * the in-memory store's LRU-by-write cap.
 */
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { TaskPushNotificationConfigSchema } from "../../gen/a2a_pb.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { InMemoryPushNotificationConfigStore } from "../../src/server/push-config-store.js";
import { type RunningServer, result, rpc, serveAgent, userMessage } from "./support/agent-server.js";

const logger = createLogger({ level: "silent" });

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** An agent whose push configs the platform delivers (this process records them), or one without push. */
async function serve(store?: InMemoryPushNotificationConfigStore) {
  const push = store ? { pushNotificationStore: store, pushNotificationDelivery: "platform" as const } : {};
  const agent = new AgentBuilder({ name: "push", logger, ...push });
  agent.skill("echo", async () => ({ output: "ok" }));
  running = await serveAgent(agent);
  const task = (await result(running.url, "SendMessage", { message: userMessage("x") })).task;
  return { url: running.url, taskId: task.id as string, agent };
}

describe("without a push-notification store", () => {
  it("answers all four methods with -32003 and says so on the card", async () => {
    const { url, taskId, agent } = await serve();
    for (const [method, params] of [
      ["CreateTaskPushNotificationConfig", { taskId, url: "https://hooks.example/a" }],
      ["GetTaskPushNotificationConfig", { taskId, id: "c" }],
      ["ListTaskPushNotificationConfigs", { taskId }],
      ["DeleteTaskPushNotificationConfig", { taskId, id: "c" }],
    ] as const) {
      expect((await rpc(url, method, params)).body.error.code, method).toBe(-32003);
    }
    expect(agent.supportsPushNotifications).toBe(false);
    expect(agent.toAgentCard().capabilities?.pushNotifications).toBe(false);
    const withConfig = await rpc(url, "SendMessage", {
      message: userMessage("x"),
      configuration: { taskPushNotificationConfig: { url: "https://hooks.example/a" } },
    });
    expect(withConfig.body.error.code).toBe(-32003);
  });
});

describe("with a store and nothing that delivers", () => {
  it("serves no push notifications, and the card says so (a store alone records, it does not deliver)", async () => {
    const warnings: unknown[] = [];
    const agent = new AgentBuilder({
      name: "undelivered",
      logger: { ...logger, warn: (...args: unknown[]) => warnings.push(args) },
      pushNotificationStore: new InMemoryPushNotificationConfigStore(),
    });
    agent.skill("echo", async () => ({ output: "ok" }));
    running = await serveAgent(agent);
    const task = (await result(running.url, "SendMessage", { message: userMessage("x") })).task;
    const create = await rpc(running.url, "CreateTaskPushNotificationConfig", {
      taskId: task.id,
      url: "https://h.example",
    });
    expect(create.body.error.code).toBe(-32003);
    expect(agent.toAgentCard().capabilities?.pushNotifications).toBe(false);
    expect(warnings).toHaveLength(1);
  });
});

describe("with a store", () => {
  it("creates (assigning an id), gets, lists and deletes a config", async () => {
    const { url, taskId, agent } = await serve(new InMemoryPushNotificationConfigStore());
    expect(agent.toAgentCard().capabilities?.pushNotifications).toBe(true);
    const created = await result(url, "CreateTaskPushNotificationConfig", {
      taskId,
      url: "https://hooks.example/a",
      token: "t0k3n",
      authentication: { scheme: "Bearer", credentials: "secret" },
    });
    expect(created.id).toMatch(/[0-9a-f-]{36}/);
    expect(created).toMatchObject({ taskId, url: "https://hooks.example/a", authentication: { scheme: "Bearer" } });
    // Credentials are kept, never shown again (spec §13.2); the token is the webhook's to check, and stays.
    expect(created.authentication.credentials).toBeUndefined();
    expect(created.token).toBe("t0k3n");
    expect(await result(url, "GetTaskPushNotificationConfig", { taskId, id: created.id })).toEqual(created);
    const listed = await result(url, "ListTaskPushNotificationConfigs", { taskId });
    expect(listed.configs).toEqual([created]);
    expect(listed.nextPageToken ?? "").toBe("");
    expect(await result(url, "DeleteTaskPushNotificationConfig", { taskId, id: created.id })).toEqual({});
    // Delete is idempotent; Get of a deleted config is -32001.
    expect(await result(url, "DeleteTaskPushNotificationConfig", { taskId, id: created.id })).toEqual({});
    expect((await rpc(url, "GetTaskPushNotificationConfig", { taskId, id: created.id })).body.error.code).toBe(-32001);
  });

  it("pages ListTaskPushNotificationConfigs by id", async () => {
    const { url, taskId } = await serve(new InMemoryPushNotificationConfigStore());
    for (const id of ["c", "a", "b"]) {
      await result(url, "CreateTaskPushNotificationConfig", { taskId, id, url: `https://hooks.example/${id}` });
    }
    const first = await result(url, "ListTaskPushNotificationConfigs", { taskId, pageSize: 2 });
    expect(first.configs.map((c: { id: string }) => c.id)).toEqual(["a", "b"]);
    const second = await result(url, "ListTaskPushNotificationConfigs", {
      taskId,
      pageSize: 2,
      pageToken: first.nextPageToken,
    });
    expect(second.configs.map((c: { id: string }) => c.id)).toEqual(["c"]);
    expect(second.nextPageToken ?? "").toBe("");
    expect((await rpc(url, "ListTaskPushNotificationConfigs", { taskId, pageToken: "x" })).body.error.code).toBe(
      -32602,
    );
  });

  it("refuses an unknown task (-32001) and a URL that is not absolute http(s) (-32602)", async () => {
    const { url, taskId } = await serve(new InMemoryPushNotificationConfigStore());
    const unknown = await rpc(url, "CreateTaskPushNotificationConfig", {
      taskId: "nope",
      url: "https://hooks.example",
    });
    expect(unknown.body.error.code).toBe(-32001);
    for (const bad of [
      "not a url",
      "ftp://hooks.example/x",
      "https://user:pw@hooks.example/x",
      `https://hooks.example/${"x".repeat(2_030)}`,
    ]) {
      expect((await rpc(url, "CreateTaskPushNotificationConfig", { taskId, url: bad })).body.error.code, bad).toBe(
        -32602,
      );
    }
    expect((await rpc(url, "CreateTaskPushNotificationConfig", { url: "https://hooks.example" })).body.error.code).toBe(
      -32602,
    );
  });

  it("registers the config a SendMessage carries for the task it creates", async () => {
    const { url } = await serve(new InMemoryPushNotificationConfigStore());
    const task = (
      await result(url, "SendMessage", {
        message: userMessage("x"),
        configuration: { taskPushNotificationConfig: { url: "https://hooks.example/on-send" } },
      })
    ).task;
    const listed = await result(url, "ListTaskPushNotificationConfigs", { taskId: task.id });
    expect(listed.configs.map((c: { url: string }) => c.url)).toEqual(["https://hooks.example/on-send"]);
  });
});

describe("InMemoryPushNotificationConfigStore", () => {
  const config = (taskId: string, id: string) =>
    create(TaskPushNotificationConfigSchema, { taskId, id, url: `https://hooks.example/${id}` });

  it("evicts the least recently saved config past its cap; get does not refresh", async () => {
    const store = new InMemoryPushNotificationConfigStore({ maxConfigs: 2 });
    await store.save(config("t", "a"), "", "");
    await store.save(config("t", "b"), "", "");
    await store.get("t", "a", "");
    await store.save(config("t", "c"), "", "");
    expect(await store.get("t", "a", "")).toBeUndefined();
    expect((await store.list("t", "", { after: undefined, pageSize: 10 })).configs.map((c) => c.config.id)).toEqual([
      "b",
      "c",
    ]);
    expect(() => new InMemoryPushNotificationConfigStore({ maxConfigs: 0 })).toThrow(RangeError);
  });

  it("holds a scope to its quota and the store to its byte budget, evicting the oldest", async () => {
    const ids = async (store: InMemoryPushNotificationConfigStore, scope: string) =>
      (await store.list("t", scope, { after: undefined, pageSize: 100 })).configs.map((c) => c.config.id);
    const quota = new InMemoryPushNotificationConfigStore({ maxConfigsPerScope: 2 });
    await quota.save(config("t", "q"), "quiet", "");
    for (const id of ["a", "b", "c", "d"]) await quota.save(config("t", id), "loud", "");
    expect(await ids(quota, "loud")).toEqual(["c", "d"]);
    expect(await ids(quota, "quiet")).toEqual(["q"]);
    // A config here is 73 bytes by the estimate (48 and its strings): three fit in 250 bytes, a fourth evicts the oldest.
    const budget = new InMemoryPushNotificationConfigStore({ maxBytes: 250 });
    for (const id of ["a", "b", "c", "d"]) await budget.save(config("t", id), "", "");
    expect(await ids(budget, "")).toEqual(["b", "c", "d"]);
  });

  it("scopes configs by task and scope", async () => {
    const store = new InMemoryPushNotificationConfigStore();
    await store.save(config("t1", "a"), "s1", "");
    await store.save(config("t1", "a"), "s2", "");
    await store.save(config("t2", "a"), "s1", "");
    expect((await store.list("t1", "s1", { after: undefined, pageSize: 10 })).configs).toHaveLength(1);
    await store.delete("t1", "a", "s1");
    expect(await store.get("t1", "a", "s1")).toBeUndefined();
    expect(await store.get("t1", "a", "s2")).toBeDefined();
    expect(await store.get("t2", "a", "s1")).toBeDefined();
  });
});
