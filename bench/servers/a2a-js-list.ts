/**
 * Bench server for ListTasks: the @a2a-js/sdk bench agent (a2a-js-agent.ts)
 * behind Express's jsonRpcHandler, its in-memory task store filled
 * before it listens with `BENCH_LIST_TASKS` completed echo tasks shaped as in
 * bench/servers/ours-list.ts (saved through the store, in the scope its
 * unauthenticated callers read). Prints its port on stdout once filled.
 */
import type { AddressInfo } from "node:net";
import { type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import { InMemoryTaskStore, type ServerCallContext } from "@a2a-js/sdk/server";
import { jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";
import { benchRequestHandler } from "./a2a-js-agent.js";

const text = (value: string) => ({
  content: { $case: "text" as const, value },
  metadata: undefined,
  filename: "",
  mediaType: "",
});
const message = (messageId: string, taskId: string, contextId: string, role: Role, value: string): Message => ({
  messageId,
  contextId,
  taskId,
  role,
  parts: [text(value)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const count = Number(process.env.BENCH_LIST_TASKS ?? 10_000);
const store = new InMemoryTaskStore();
// The scope a2a-js gives a caller without authentication.
const unauthenticated = { user: { userName: "", isAuthenticated: false } } as unknown as ServerCallContext;
const start = Date.UTC(2026, 0, 1);
for (let i = 0; i < count; i++) {
  const id = `task-${i}`;
  const contextId = `context-${Math.floor(i / 10)}`;
  const reply = message(`reply-${i}`, id, contextId, Role.ROLE_AGENT, `echo ${i}`);
  const task: Task = {
    id,
    contextId,
    status: { state: TaskState.TASK_STATE_COMPLETED, message: reply, timestamp: new Date(start + i).toISOString() },
    artifacts: [
      {
        artifactId: "output",
        name: "output",
        description: "",
        parts: [text(`echo ${i}`)],
        metadata: undefined,
        extensions: [],
      },
    ],
    history: [message(`message-${i}`, id, contextId, Role.ROLE_USER, `echo ${i}`), reply],
    metadata: undefined,
  };
  await store.save(task, unauthenticated);
}

const app = express();
app.use(
  "/",
  jsonRpcHandler({
    requestHandler: benchRequestHandler(store),
    userBuilder: UserBuilder.noAuthentication,
  }),
);
const server = app.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
server.keepAliveTimeout = 60_000;
