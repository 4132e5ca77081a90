/**
 * The store the ListTasks benches read: an in-memory task store filled with
 * `count` completed echo tasks (one user message, one agent reply, one
 * artifact; status times a millisecond apart; ten tasks per context), in the
 * scope of unauthenticated callers without a tenant, its caps raised to hold
 * them all.
 */
import { TaskState } from "../../gen/a2a_pb.js";
import { agentMessage, textPart } from "../../src/server/message-literals.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";

/** The scope the harness gives a request without a tenant. */
export const LIST_SCOPE = "0:";

export async function filledTaskStore(count: number): Promise<InMemoryTaskStore> {
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
      LIST_SCOPE,
      { owner: "", version: 0 },
    );
  }
  return taskStore;
}
