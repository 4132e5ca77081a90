/**
 * The fleet-safe check, for any task store: two users of one tenant, each
 * with many tasks in the same context ids, served over JSON-RPC on a real
 * socket. Every page of every listing (plain, by context, by state) holds
 * the caller's own tasks only, totals count the caller's own only, and a
 * page token from the other user's listing leads to the caller's own tasks.
 */
import { expect } from "vitest";
import { createLogger } from "../../../src/runtime/logger.js";
import { AgentBuilder } from "../../../src/server/agent-builder.js";
import type { TaskStore } from "../../../src/server/task-store.js";
import { rpc, serveAgent, userMessage, V1 } from "../../server/support/agent-server.js";

const USERS = ["ada", "bob"] as const;
type User = (typeof USERS)[number];
const CONTEXTS = 10;
/** Every tenth task fails, so a listing by state has something to tell apart. */
const FAILING = 10;

interface Page {
  tasks: { id: string; contextId: string; status: { state: string } }[];
  nextPageToken: string;
  totalSize: number;
}

export async function expectTwoUsersIsolated(taskStore: TaskStore, tasksPerUser: number): Promise<void> {
  const agent = new AgentBuilder({
    name: "fleet",
    taskStore,
    auth: {
      mode: "apiKey",
      keys: { "key-ada": { tenantId: "acme", userId: "ada" }, "key-bob": { tenantId: "acme", userId: "bob" } },
    },
    logger: createLogger({ level: "silent" }),
  });
  agent.skill("work", (_ctx, text) => {
    if (text.endsWith(":fail")) throw new Error("failed on purpose");
    return { output: text };
  });
  const server = await serveAgent(agent);
  const as = (user: User) => ({ ...V1, "X-API-Key": `key-${user}` });
  try {
    const owned: Record<User, Set<string>> = { ada: new Set(), bob: new Set() };
    // Both users' tasks interleaved, a few calls in flight at a time.
    const sends = USERS.flatMap((user) => Array.from({ length: tasksPerUser }, (_, i) => [user, i] as const));
    sends.sort((a, b) => a[1] - b[1]);
    for (let at = 0; at < sends.length; at += 8) {
      await Promise.all(
        sends.slice(at, at + 8).map(async ([user, i]) => {
          const text = `${user}-${i}${i % FAILING === 0 ? ":fail" : ""}`;
          const message = userMessage(text, { contextId: `ctx-${i % CONTEXTS}` });
          const reply = await rpc(server.url, "SendMessage", { message }, as(user));
          owned[user].add(reply.body.result.task.id);
        }),
      );
    }

    const list = async (user: User, params: Record<string, unknown>): Promise<Page> =>
      (await rpc(server.url, "ListTasks", { pageSize: 100, ...params }, as(user))).body.result;

    /** Every page of a listing: each holds only `user`'s tasks and states the total; returns the ids and tokens. */
    const walk = async (user: User, params: Record<string, unknown>, total: number) => {
      const ids: string[] = [];
      const tokens: string[] = [];
      let token = "";
      do {
        const page = await list(user, token ? { ...params, pageToken: token } : params);
        expect(page.totalSize).toBe(total);
        for (const task of page.tasks) expect(owned[user].has(task.id), `${task.id} listed for ${user}`).toBe(true);
        ids.push(...page.tasks.map((t) => t.id));
        token = page.nextPageToken;
        if (token) tokens.push(token);
      } while (token);
      expect(ids.length).toBe(total);
      expect(new Set(ids).size).toBe(total);
      return { ids, tokens };
    };

    const tokensOf: Record<User, string[]> = { ada: [], bob: [] };
    for (const user of USERS) {
      const all = await walk(user, {}, tasksPerUser);
      expect(new Set(all.ids)).toEqual(owned[user]);
      tokensOf[user] = all.tokens;
      await walk(user, { contextId: "ctx-3" }, tasksPerUser / CONTEXTS);
      await walk(user, { status: "TASK_STATE_FAILED" }, tasksPerUser / FAILING);
      await walk(user, { contextId: "ctx-0", status: "TASK_STATE_FAILED" }, tasksPerUser / CONTEXTS);
    }
    // A page token of the other user's listing is a place in the order, never a way into their tasks.
    for (const user of USERS) {
      const other = user === "ada" ? "bob" : "ada";
      for (const pageToken of tokensOf[other]) {
        const page = await list(user, { pageToken });
        expect(page.totalSize).toBe(tasksPerUser);
        for (const task of page.tasks) expect(owned[user].has(task.id), `${task.id} listed for ${user}`).toBe(true);
      }
    }
    // Nor is an id of theirs.
    for (const user of USERS) {
      const other = user === "ada" ? "bob" : "ada";
      for (const id of [...owned[other]].slice(0, 25)) {
        expect((await rpc(server.url, "GetTask", { id }, as(user))).body.error.code).toBe(-32001);
      }
    }
  } finally {
    await server.close();
  }
}
