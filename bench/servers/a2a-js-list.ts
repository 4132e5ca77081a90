/**
 * Bench server for ListTasks: @a2a-js/sdk 1.3.0's DefaultRequestHandler over
 * its in-memory task store behind Express's jsonRpcHandler, the store filled
 * before it listens with `BENCH_LIST_TASKS` completed echo tasks shaped as in
 * bench/servers/ours-list.ts (saved through the store, in the scope its
 * unauthenticated callers read). Prints its port on stdout once filled.
 */
import type { AddressInfo } from "node:net";
import { type AgentCard, type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import {
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type ServerCallContext,
} from "@a2a-js/sdk/server";
import { jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";

const card = {
  name: "bench-list",
  description: "",
  version: "1.0.0",
  supportedInterfaces: [{ url: "http://127.0.0.1/", protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" }],
  capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [],
  signatures: [],
} as unknown as AgentCard;

const executor: AgentExecutor = { async execute() {}, async cancelTask() {} };

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
    requestHandler: new DefaultRequestHandler(card, store, executor),
    userBuilder: UserBuilder.noAuthentication,
  }),
);
const server = app.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
server.keepAliveTimeout = 60_000;
