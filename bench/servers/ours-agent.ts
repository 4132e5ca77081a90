/**
 * The bench agent of every "ours" server: an AgentBuilder whose skill `echo`
 * answers a task with the input text and whose skill `stream` (input: an
 * event count) publishes that many artifact chunks. The same two behaviours
 * as the @a2a-js/sdk agent (a2a-js-agent.ts).
 */
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";
import { textPart } from "../../src/server/task-updater.js";

export interface BenchAgentOptions {
  /** The in-memory store's cap; the product default (10,000) unless set. */
  readonly maxTasks?: number;
}

export function benchAgent(options: BenchAgentOptions = {}): AgentBuilder {
  const agent = new AgentBuilder({
    name: "bench-agent",
    version: "1.0.0",
    logger: createLogger({ level: "silent" }),
    // The stored-task servers fill their store in process, a call from no address: no authentication, as the peer.
    auth: "none",
    // A stored-task server holds every task it was given: the count raised, and no byte budget short of it.
    ...(options.maxTasks
      ? { taskStore: new InMemoryTaskStore({ maxTasks: options.maxTasks, maxBytes: Number.MAX_SAFE_INTEGER }) }
      : {}),
  });
  agent.skill("echo", async (_ctx, text) => ({ output: text }));
  agent.skill("stream", async (ctx, text) => {
    const count = Number(text);
    for (let i = 0; i < count; i++) {
      await ctx.taskUpdater.addArtifact([textPart(`chunk ${i} of the story goes here`)], {
        artifactId: "story",
        append: i > 0,
        lastChunk: i === count - 1,
      });
    }
    return { output: "done" };
  });
  return agent;
}
