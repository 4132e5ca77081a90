/**
 * Bench server: the bench agent (ours-agent.ts) on node:http. With
 * `BENCH_TASKS` set, its store first gets that many echo tasks
 * (stored-tasks.ts; the store's cap is raised to hold them). Prints its port
 * on stdout.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fromJson } from "@bufbuild/protobuf";
import { SendMessageRequestSchema } from "../../gen/a2a_pb.js";
import { PROTOCOL_BINDING_JSONRPC } from "../../src/a2a/constants.js";
import { nodeHandler } from "../../src/node/index.js";
import { ServerCall } from "../../src/server/server-call.js";
import { DEFAULT_MAX_TASKS } from "../../src/server/task-store.js";
import { ECHO_MESSAGE } from "../support/echo-message.js";
import { benchAgent } from "./ours-agent.js";
import { announce, storeTasks, tasksToStore } from "./stored-tasks.js";

const count = tasksToStore();
const agent = benchAgent(count > DEFAULT_MAX_TASKS ? { maxTasks: count } : {});
let stored: { count: number; bytesPerTask: number } | undefined;
if (count > 0) {
  const handler = agent.requestHandler();
  const headers = { "a2a-version": "1.0" };
  const bytesPerTask = await storeTasks(count, (i) =>
    handler.sendMessage(
      fromJson(SendMessageRequestSchema, { message: { ...ECHO_MESSAGE, messageId: `stored-${i}` } }),
      new ServerCall(PROTOCOL_BINDING_JSONRPC, headers, () => () => undefined),
    ),
  );
  stored = { count, bytesPerTask };
}

const server = http.createServer(nodeHandler(agent));
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => announce((server.address() as AddressInfo).port, stored));
