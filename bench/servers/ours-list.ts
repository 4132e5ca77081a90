/**
 * Bench server for ListTasks: an AgentBuilder on node:http whose in-memory
 * store is filled, before it listens, with `BENCH_LIST_TASKS` completed echo
 * tasks (one user message, one agent reply, one artifact; a status time a
 * millisecond apart; ten tasks per context), its caps raised to hold them.
 * Prints its port on stdout once filled.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { TaskState } from "../../gen/a2a_pb.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { agentMessage, textPart } from "../../src/server/message-literals.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";

const count = Number(process.env.BENCH_LIST_TASKS ?? 10_000);
const taskStore = new InMemoryTaskStore({ maxTasks: count, maxBytes: 2 ** 40 });
const start = Date.UTC(2026, 0, 1);
for (let i = 0; i < count; i++) {
  const id = `task-${i}`;
  const contextId = `context-${Math.floor(i / 10)}`;
  const ms = start + i;
  const reply = agentMessage(`reply-${i}`, id, contextId, [textPart(`echo ${i}`)]);
  await taskStore.save(
    {
      $typeName: "lf.a2a.v1.Task",
      id,
      contextId,
      status: {
        $typeName: "lf.a2a.v1.TaskStatus",
        state: TaskState.COMPLETED,
        message: reply,
        timestamp: {
          $typeName: "google.protobuf.Timestamp",
          seconds: BigInt(Math.floor(ms / 1000)),
          nanos: (ms % 1000) * 1e6,
        },
      },
      artifacts: [
        {
          $typeName: "lf.a2a.v1.Artifact",
          artifactId: "output",
          name: "output",
          description: "",
          parts: [textPart(`echo ${i}`)],
          extensions: [],
        },
      ],
      history: [agentMessage(`message-${i}`, id, contextId, [textPart(`echo ${i}`)]), reply],
    },
    "0:",
    { owner: "", version: 0 },
  );
}

const agent = new AgentBuilder({ name: "bench-list", taskStore, logger: createLogger({ level: "silent" }) });
const server = http.createServer(agent.nodeHandler());
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
