/**
 * Bench server for ListTasks: an AgentBuilder on node:http over the store of
 * bench/support/list-tasks-store.ts, filled with `BENCH_LIST_TASKS` tasks
 * before it listens. Prints its port on stdout once filled.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { filledTaskStore } from "../support/list-tasks-store.js";

const taskStore = await filledTaskStore(Number(process.env.BENCH_LIST_TASKS ?? 10_000));
const agent = new AgentBuilder({ name: "bench-list", taskStore, logger: createLogger({ level: "silent" }) });
const server = http.createServer(agent.nodeHandler());
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
