/**
 * Attack family: one skill that writes in a tight loop (a long stream, or a
 * flood of artifacts nobody watches). Its writes resolve on microtasks, so it
 * held the event loop until it ended: no other request was read, answered
 * or even accepted meanwhile. Now stream work takes at most a slice of each
 * turn (src/server/turn-slice.ts), and a request sent while the flood runs is
 * answered long before it ends. Order is asserted, not time: the flood takes
 * hundreds of turns, an echo a handful. (The throughput figures are the
 * bench's: bench/scenarios/fairness.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../src/client/client.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { textPart } from "../../src/server/task-updater.js";
import { expectUnaffected, type ServedAgent, serveForAttack, userMessage } from "./support.js";

/** Writes of the flood with nobody watching, and with a reader (each write is then a frame to read too). */
const WRITES = 300_000;
const STREAMED_WRITES = 100_000;

let agent: ServedAgent;
let flooded: Promise<void> = Promise.resolve();
let floodDone: () => void = () => undefined;

beforeAll(async () => {
  const builder = new AgentBuilder({ name: "fair", logger: createLogger({ level: "silent" }) });
  builder.skill("echo", async (_ctx, text) => ({ output: text }));
  builder.skill("flood", async (ctx, text) => {
    // One artifact replaced again and again: the task stays small while the writes go on.
    for (let i = 0; i < Number(text); i++) {
      await ctx.taskUpdater.addArtifact([textPart(`chunk ${i}`)], { artifactId: "flood" });
    }
    floodDone();
    return { output: "done" };
  });
  agent = await serveForAttack(builder);
});
afterAll(() => agent.close());

function startFlood(): void {
  flooded = new Promise((resolve) => {
    floodDone = resolve;
  });
}

/** Which settles first. */
function first(a: Promise<unknown>, b: Promise<unknown>): Promise<"a" | "b"> {
  return Promise.race([a.then(() => "a" as const), b.then(() => "b" as const)]);
}

describe("a skill writing in a tight loop shares the event loop", () => {
  it("with nobody watching: a request sent meanwhile is answered before the flood ends", async () => {
    startFlood();
    const started = await agent.jsonRpc(
      "SendMessage",
      `{"message":${userMessage(String(WRITES), { skillId: "flood" })},"configuration":{"returnImmediately":true}}`,
    );
    expect(started.body.result.task.status.state).toBe("TASK_STATE_WORKING");
    const echo = agent.jsonRpc("SendMessage", `{"message":${userMessage("meanwhile")}}`);
    expect(await first(echo, flooded)).toBe("a");
    expect((await echo).body.result.task.status.state).toBe("TASK_STATE_COMPLETED");
    await flooded;
    await expectUnaffected(agent);
  });

  it("while a client reads its stream: a request sent meanwhile is answered before the stream ends", async () => {
    startFlood();
    await using client = new Client({ baseUrl: agent.server.url, headers: { "X-NovaOS-Tenant-Id": "attacker" } });
    const frames = client.sendStreamingMessage(String(STREAMED_WRITES), { skillId: "flood" })[Symbol.asyncIterator]();
    await frames.next();
    let count = 1;
    const streamed = (async () => {
      for (let next = await frames.next(); !next.done; next = await frames.next()) count++;
    })();
    const echo = agent.jsonRpc("SendMessage", `{"message":${userMessage("meanwhile")}}`);
    expect(await first(echo, streamed)).toBe("a");
    await streamed;
    // The reader got every event: the snapshot, WORKING, the writes, the output artifact and COMPLETED.
    expect(count).toBe(STREAMED_WRITES + 4);
    await expectUnaffected(agent);
  }, 120_000);
  it("while a client reads its gRPC stream: a gRPC call sent meanwhile is answered before the stream ends", async () => {
    startFlood();
    await using client = new Client({
      transports: [grpcTransport()],
      baseUrl: `http://${agent.server.grpcTarget}`,
      binding: "GRPC",
      headers: { "X-NovaOS-Tenant-Id": "attacker" },
    });
    const frames = client.sendStreamingMessage(String(STREAMED_WRITES), { skillId: "flood" })[Symbol.asyncIterator]();
    await frames.next();
    let count = 1;
    const streamed = (async () => {
      for (let next = await frames.next(); !next.done; next = await frames.next()) count++;
    })();
    const echo = agent.grpc.sendMessage(
      { message: { messageId: "meanwhile", role: 1, parts: [{ content: { case: "text", value: "meanwhile" } }] } },
      { headers: { "A2A-Version": "1.0", "X-NovaOS-Tenant-Id": "attacker" } },
    );
    expect(await first(echo, streamed)).toBe("a");
    const answer = await echo;
    expect(answer.payload.case).toBe("task");
    await streamed;
    expect(count).toBe(STREAMED_WRITES + 4);
    await expectUnaffected(agent);
  }, 120_000);
});
