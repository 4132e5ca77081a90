/**
 * Bench server: an AgentBuilder on node:http. Skill `echo` answers a task with
 * the input text; skill `stream` (input: an event count) publishes that many
 * artifact chunks. Prints its port on stdout.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { nodeHandler } from "../../src/node/index.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { textPart } from "../../src/server/task-updater.js";

const agent = new AgentBuilder({ name: "bench-agent", version: "1.0.0", logger: createLogger({ level: "silent" }) });
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

const server = http.createServer(nodeHandler(agent));
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
