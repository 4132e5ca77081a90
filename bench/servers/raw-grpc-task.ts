/**
 * Bench ceiling for gRPC that does the A2A work by hand: node:http2 with no
 * framework, answering SendMessage as the echo skill does (a completed task
 * whose history holds the request's message and the answer, whose artifact
 * and status message carry the text), keeping the last 10,000 tasks in a
 * Map as the in-memory store's default cap does, and encoding the task with
 * protobuf-es. Against it, ours shows what the framework costs beyond the
 * work; against bare raw-grpc.ts, what the work costs. Prints its port on stdout.
 */
import { randomUUID } from "node:crypto";
import { type Message, type Task, TaskState } from "../../gen/a2a_pb.js";
import { agentMessage, artifact, sendMessageResponse, taskStatus } from "../../src/server/message-literals.js";
import { DEFAULT_MAX_TASKS } from "../../src/server/task-store.js";
import { serveRawGrpcUnary } from "../support/raw-grpc-unary.js";

const tasks = new Map<string, Task>();

function echoTask(message: Message): Task {
  const id = randomUUID();
  const contextId = message.contextId || randomUUID();
  const request: Message = { ...message, taskId: id, contextId };
  const answer = agentMessage(randomUUID(), id, contextId, request.parts);
  const task: Task = {
    $typeName: "lf.a2a.v1.Task",
    id,
    contextId,
    status: taskStatus(TaskState.COMPLETED, answer),
    artifacts: [artifact(randomUUID(), "output", request.parts)],
    history: [request, answer],
  };
  tasks.set(id, task);
  if (tasks.size > DEFAULT_MAX_TASKS) tasks.delete(tasks.keys().next().value as string);
  return task;
}

serveRawGrpcUnary((request) => sendMessageResponse({ case: "task", value: echoTask(request.message!) }));
