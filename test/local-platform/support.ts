/**
 * A local platform and agents served on real sockets for the local-platform
 * tests, closed after each test.
 */
import { afterEach } from "vitest";
import { TaskState } from "../../gen/a2a_pb.js";
import { textPart } from "../../src/a2a/parts.js";
import { type LocalPlatform, type LocalPlatformOptions, startLocalPlatform } from "../../src/local-platform/index.js";
import { type AgentServer, listen } from "../../src/node/index.js";
import { AgentBuilder, createLogger } from "../../src/server/index.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A platform whose violations are collected, not printed. */
export async function platform(options: LocalPlatformOptions = {}): Promise<LocalPlatform> {
  const started = await startLocalPlatform({ onViolation: () => {}, ...options });
  closers.push(() => started.close());
  return started;
}

export async function serve(agent: AgentBuilder): Promise<AgentServer> {
  const server = await listen(agent, { port: 0 });
  closers.push(() => server.close());
  return server;
}

/**
 * `research-agent`: one skill that reports progress twice, streams its
 * answer in three chunks, and records the execution token it was given.
 */
export function researchAgent(seen: { tokens: string[] } = { tokens: [] }): AgentBuilder {
  const agent = new AgentBuilder({
    name: "research-agent",
    version: "1.0.0",
    description: "Researches a topic",
    logger: createLogger({ level: "silent" }),
  });
  agent.skill("research", { description: "Researches a topic", tags: ["research", "web"] }, async (ctx, text) => {
    seen.tokens.push(ctx.executionContext.executionToken ?? "");
    await ctx.taskUpdater.updateStatus(TaskState.WORKING, "looking things up");
    await ctx.taskUpdater.updateStatus(TaskState.WORKING, "writing");
    for (const [i, chunk] of ["About ", text, "."].entries()) {
      await ctx.taskUpdater.addArtifact([textPart(chunk)], { artifactId: "answer", append: i > 0, lastChunk: i === 2 });
    }
    return { status: "COMPLETED" };
  });
  return agent;
}

/** `booking-agent`: asks before it books; the answer continues the same task. */
export function bookingAgent(): AgentBuilder {
  const agent = new AgentBuilder({ name: "booking-agent", logger: createLogger({ level: "silent" }) });
  agent.skill("book", { description: "Books a trip after you confirm", tags: ["hitl"] }, async (ctx, text) => {
    if (ctx.task.history.length <= 1) {
      await ctx.taskUpdater.requiresInput(`Book ${text}? Answer yes or no.`);
      return { status: "WAITING_USER" };
    }
    return { output: /yes/i.test(text) ? "Booked." : "Not booked." };
  });
  return agent;
}
