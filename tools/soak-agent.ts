/**
 * The agent the soak test drives (tools/soak.ts): the SDK's defaults (in-memory
 * stores, history and store budgets) unless `SOAK_MAX_BYTES` or
 * `SOAK_MAX_HISTORY_BYTES` set them, one skill that echoes its input, pauses
 * for more input when the text starts with "pause", and answers "memory" with
 * `process.memoryUsage()` after a full collection (the process runs with
 * `--expose-gc`). Prints its port on stdout.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { nodeHandler } from "../src/node/index.js";
import { createLogger } from "../src/runtime/logger.js";
import { AgentBuilder } from "../src/server/agent-builder.js";
import { InMemoryTaskStore } from "../src/server/task-store.js";

const number = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const maxBytes = number("SOAK_MAX_BYTES");
const maxHistoryBytes = number("SOAK_MAX_HISTORY_BYTES");
const agent = new AgentBuilder({
  name: "soak",
  logger: createLogger({ level: "silent" }),
  ...(maxBytes ? { taskStore: new InMemoryTaskStore({ maxBytes }) } : {}),
  ...(maxHistoryBytes ? { maxHistoryBytes } : {}),
});
const collect = (globalThis as { gc?: () => void }).gc;
agent.skill("soak", async (_ctx, text) => {
  if (text === "memory") {
    collect?.();
    return { output: JSON.stringify(process.memoryUsage()) };
  }
  if (text.startsWith("pause")) return { output: "more?", status: "WAITING_USER" };
  return { output: text };
});

const server = http.createServer(nodeHandler(agent));
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
