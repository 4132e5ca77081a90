/**
 * The `authorize` hook widens who may act on a task: a tenant admin lists and
 * reaches every user's tasks of its tenant, and nothing of another tenant;
 * everyone else keeps to their own. The hook is asked only where the rule
 * (own tasks only) says no, with the method and the task.
 */
import { describe, expect, it } from "vitest";
import type { A2AMethodName } from "../../src/a2a/bindings.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import type { CallerIdentity } from "../../src/server/auth/caller-identity.js";
import type { StoredTask } from "../../src/server/task-store.js";
import { rpc, serveAgent, userMessage, V1 } from "../server/support/agent-server.js";

const KEYS = {
  "key-ada": { tenantId: "acme", userId: "ada" },
  "key-bob": { tenantId: "acme", userId: "bob" },
  "key-acme-admin": { tenantId: "acme", userId: "root", scopes: ["tasks:admin"] },
  "key-globex-admin": { tenantId: "globex", userId: "root", scopes: ["tasks:admin"] },
};

describe("an authorize hook for tenant admins", () => {
  it("lets an admin list and reach its tenant's tasks, and no one else anything beyond their own", async () => {
    const asked: [string, A2AMethodName, string | undefined][] = [];
    const agent = new AgentBuilder({
      name: "admins",
      auth: { mode: "apiKey", keys: KEYS },
      authorize: (identity: CallerIdentity, action: A2AMethodName, task: StoredTask | undefined) => {
        asked.push([identity.userId, action, task?.owner]);
        return identity.scopes.includes("tasks:admin");
      },
      logger: createLogger({ level: "silent" }),
    });
    agent.skill("echo", (_ctx, text) => ({ output: text }));
    const server = await serveAgent(agent);
    try {
      const as = (key: string) => ({ ...V1, "X-API-Key": key });
      const send = async (key: string) =>
        (await rpc(server.url, "SendMessage", { message: userMessage(`from ${key}`) }, as(key))).body.result.task;
      const adas = [await send("key-ada"), await send("key-ada")];
      const bobs = await send("key-bob");

      const listed = (await rpc(server.url, "ListTasks", {}, as("key-acme-admin"))).body.result;
      expect(listed.totalSize).toBe(3);
      expect(listed.tasks.map((t: { id: string }) => t.id).sort()).toEqual([...adas, bobs].map((t) => t.id).sort());
      expect((await rpc(server.url, "GetTask", { id: bobs.id }, as("key-acme-admin"))).body.result.id).toBe(bobs.id);
      const canceled = await rpc(server.url, "CancelTask", { id: bobs.id }, as("key-acme-admin"));
      expect(canceled.body.error.code).toBe(-32002); // reached: a completed task cannot be canceled

      // Another tenant's admin, and another user of the tenant, see nothing of it.
      expect((await rpc(server.url, "ListTasks", {}, as("key-globex-admin"))).body.result.totalSize).toBe(0);
      expect((await rpc(server.url, "GetTask", { id: bobs.id }, as("key-globex-admin"))).body.error.code).toBe(-32001);
      expect((await rpc(server.url, "ListTasks", {}, as("key-ada"))).body.result.totalSize).toBe(2);
      expect((await rpc(server.url, "GetTask", { id: bobs.id }, as("key-ada"))).body.error.code).toBe(-32001);

      // Asked only where the rule says no: never for a caller's own task.
      const bob = "4:acmebob";
      expect(asked).toEqual([
        ["root", "ListTasks", undefined],
        ["root", "GetTask", bob],
        ["root", "CancelTask", bob],
        ["root", "ListTasks", undefined],
        ["ada", "ListTasks", undefined],
        ["ada", "GetTask", bob],
      ]);
    } finally {
      await server.close();
    }
  });
});
