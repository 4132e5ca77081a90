/**
 * The @a2a-js/sdk 1.3.0 bench agent, shared by the peer servers (JSON-RPC,
 * REST and gRPC): a DefaultRequestHandler with the in-memory task store over
 * an executor with the same two behaviours as ours: `echo` completes a task
 * with the input text as an artifact and a status message; `stream`
 * publishes N artifact chunks.
 */
import { type AgentCard, type Message, type Part, Role, TaskState } from "@a2a-js/sdk";
import { type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";

const card = {
  name: "bench-agent",
  description: "",
  version: "1.0.0",
  // a2a-js serves a binding only at the versions its card declares for it.
  supportedInterfaces: ["JSONRPC", "HTTP+JSON", "GRPC"].map((protocolBinding) => ({
    url: "http://127.0.0.1/",
    protocolBinding,
    protocolVersion: "1.0",
    tenant: "",
  })),
  provider: undefined,
  capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [],
  signatures: [],
} as unknown as AgentCard;

const text = (value: string): Part => ({
  content: { $case: "text", value },
  metadata: undefined,
  filename: "",
  mediaType: "",
});
const now = () => new Date().toISOString();

const executor: AgentExecutor = {
  async execute(ctx, bus) {
    const input = ctx.userMessage.parts[0]?.content;
    const value = input?.$case === "text" ? input.value : "";
    const { taskId, contextId } = ctx;
    bus.publish({
      kind: "task",
      data: {
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      },
    });
    const stream = ctx.userMessage.metadata?.skillId === "stream";
    const count = stream ? Number(value) : 1;
    for (let i = 0; i < count; i++) {
      bus.publish({
        kind: "artifactUpdate",
        data: {
          taskId,
          contextId,
          artifact: {
            artifactId: stream ? "story" : "output",
            name: "",
            description: "",
            parts: [text(stream ? `chunk ${i} of the story goes here` : value)],
            metadata: undefined,
            extensions: [],
          },
          append: i > 0,
          lastChunk: i === count - 1,
          metadata: undefined,
        },
      });
    }
    const reply: Message = {
      messageId: crypto.randomUUID(),
      contextId,
      taskId,
      role: Role.ROLE_AGENT,
      parts: [text(stream ? "done" : value)],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    bus.publish({
      kind: "statusUpdate",
      data: {
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: reply, timestamp: now() },
        metadata: undefined,
      },
    });
    bus.finished();
  },
  async cancelTask() {},
};

/** A request handler over the bench executor and `store` (a fresh one unless given). */
export function benchRequestHandler(store = new InMemoryTaskStore()): DefaultRequestHandler {
  return new DefaultRequestHandler(card, store, executor);
}
