/**
 * Tasks belong to their owner: a task stored for another caller answers, on
 * every method, exactly as a task that does not exist, so ids cannot be probed.
 * (The caller here is the anonymous one of a local agent; the foreign task is
 * put in the store directly. test/auth/ covers authenticated callers.)
 */
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { TaskSchema, TaskState } from "../../gen/a2a_pb.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { scopeOf } from "../../src/server/agent-request-handler.js";
import { ANONYMOUS_CALLER } from "../../src/server/auth/caller-identity.js";
import { InMemoryPushNotificationConfigStore } from "../../src/server/push-config-store.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";
import { rpc, serveAgent, userMessage, V1 } from "./support/agent-server.js";

const SCOPE = scopeOf("", ANONYMOUS_CALLER);

describe("tasks of another owner", () => {
  it("answer -32001 exactly as unknown tasks on every method, and are not listed", async () => {
    const taskStore = new InMemoryTaskStore();
    const foreign = create(TaskSchema, { id: "foreign", contextId: "c", status: { state: TaskState.WORKING } });
    await taskStore.save(foreign, SCOPE, { owner: "someone-else", version: 0 });
    const agent = new AgentBuilder({
      name: "owners",
      taskStore,
      pushNotificationStore: new InMemoryPushNotificationConfigStore(),
      pushNotificationDelivery: "platform",
      logger: createLogger({ level: "silent" }),
    });
    agent.skill("echo", (_ctx, text) => ({ output: text }));
    const server = await serveAgent(agent);
    try {
      const calls: [string, (id: string) => unknown][] = [
        ["GetTask", (id) => ({ id })],
        ["CancelTask", (id) => ({ id })],
        ["SendMessage", (id) => ({ message: userMessage("hi", { taskId: id }) })],
        ["CreateTaskPushNotificationConfig", (id) => ({ taskId: id, url: "https://hooks.example/x" })],
        ["ListTaskPushNotificationConfigs", (id) => ({ taskId: id })],
        ["SubscribeToTask", (id) => ({ id })],
      ];
      for (const [method, params] of calls) {
        const unknown = (await rpc(server.url, method, params("unknown"))).body.error;
        const other = (await rpc(server.url, method, params("foreign"))).body.error;
        expect(unknown.code).toBe(-32001);
        expect(JSON.stringify(other).replaceAll("foreign", "unknown")).toBe(JSON.stringify(unknown));
      }
      // A run id naming another owner's task is not that task to continue, and its id is taken.
      const byRunId = await rpc(
        server.url,
        "SendMessage",
        { message: userMessage("hi") },
        { ...V1, "X-NovaOS-Run-Id": "foreign" },
      );
      expect(byRunId.body.error.code).toBe(-32001);
      const listed = (await rpc(server.url, "ListTasks", {})).body.result;
      expect(listed).toMatchObject({ tasks: [], totalSize: 0 });
      expect((await taskStore.get("foreign", SCOPE))?.version).toBe(1);
    } finally {
      await server.close();
    }
  });
});
