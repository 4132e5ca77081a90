/**
 * Two replicas of one agent (two AgentBuilders, one PostgreSQL database),
 * each on its own socket: a task run on one is read, listed, refused a cancel
 * and continued on the other, and survives both being replaced. Streams and
 * cancels of tasks running on another replica are the next step (docs/fleet.md).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PgPushNotificationConfigStore } from "../../src/fleet/pg-push-config-store.js";
import { PgTaskStore } from "../../src/fleet/pg-task-store.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type RunningServer, result, rpc, serveAgent, userMessage } from "../server/support/agent-server.js";
import { useFleetDatabase } from "./support/fleet-database.js";
import { postgresUrl } from "./support/postgres.js";

describe.skipIf(!postgresUrl)("replicas sharing a PostgreSQL database", () => {
  const db = useFleetDatabase();
  const servers: RunningServer[] = [];

  async function replica(): Promise<{ url: string; agent: AgentBuilder }> {
    const agent = new AgentBuilder({
      name: "fleet",
      taskStore: new PgTaskStore({ pool: db.current.pool }),
      pushNotificationStore: new PgPushNotificationConfigStore({ pool: db.current.pool }),
      pushNotificationDelivery: "platform",
      logger: createLogger({ level: "silent" }),
    });
    // Asks for a name first, then greets: a task that pauses between two requests.
    agent.skill("greet", async (ctx, text) =>
      ctx.task.history.length > 1 ? { output: `hello ${text}` } : { output: "who are you?", status: "WAITING_USER" },
    );
    const server = await serveAgent(agent);
    servers.push(server);
    return { url: server.url, agent };
  }

  beforeEach(async () => {
    await db.current.clear();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it("reads, lists, continues and refuses to cancel on one replica a task another replica ran", async () => {
    const a = await replica();
    const b = await replica();
    const asked = (await result(a.url, "SendMessage", { message: userMessage("hi") })).task;
    expect(asked.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    await a.agent.requestHandler().whenIdle();

    expect((await result(b.url, "GetTask", { id: asked.id })).status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    const listed = await result(b.url, "ListTasks", {});
    expect(listed.tasks.map((t: { id: string }) => t.id)).toEqual([asked.id]);
    expect(listed.totalSize).toBe(1);

    const done = (
      await result(b.url, "SendMessage", {
        message: userMessage("ada", { taskId: asked.id, contextId: asked.contextId }),
      })
    ).task;
    expect(done.status.state).toBe("TASK_STATE_COMPLETED");
    expect(done.history).toHaveLength(4);
    await b.agent.requestHandler().whenIdle();

    const reread = await result(a.url, "GetTask", { id: asked.id });
    expect(reread.status.state).toBe("TASK_STATE_COMPLETED");
    expect(reread.artifacts[0].parts[0].text).toBe("hello ada");
    const cancel = await rpc(a.url, "CancelTask", { id: asked.id });
    expect(cancel.body.error.code).toBe(-32002);
    expect((await rpc(b.url, "GetTask", { id: "unknown" })).body.error.code).toBe(-32001);
  });

  it("keeps tasks and push configs when every replica is replaced", async () => {
    const first = await replica();
    const task = (await result(first.url, "SendMessage", { message: userMessage("hi") })).task;
    await result(first.url, "CreateTaskPushNotificationConfig", {
      taskId: task.id,
      id: "hook",
      url: "https://hooks.example/fleet",
    });
    await first.agent.requestHandler().whenIdle();
    await Promise.all(servers.splice(0).map((s) => s.close()));

    const second = await replica();
    expect((await result(second.url, "GetTask", { id: task.id })).status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    const configs = await result(second.url, "ListTaskPushNotificationConfigs", { taskId: task.id });
    expect(configs.configs.map((c: { id: string }) => c.id)).toEqual(["hook"]);
  });
});
