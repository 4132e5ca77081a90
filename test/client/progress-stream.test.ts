/**
 * extractProgressFromStream over a real exchange: an AgentBuilder skill
 * reports progress in a status update and in an artifact chunk, and the
 * caller sees every frame unchanged while the callback gets both reports.
 */

import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StreamResponse, StreamResponseSchema } from "../../gen/a2a_pb.js";
import type { ProgressMessage } from "../../gen/novaos/v1/progress_pb.js";
import { agentMessage, textPart } from "../../src/a2a/index.js";
import { Client } from "../../src/client/client.js";
import { extractProgressFromStream } from "../../src/client/progress-stream.js";
import { createProgressMessage } from "../../src/messages/message-builder.js";
import { ProgressStatus } from "../../src/messages/vocabulary.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type RunningServer, serveAgent } from "../server/support/agent-server.js";

let running: RunningServer;

beforeAll(async () => {
  const agent = new AgentBuilder({ name: "researcher", logger: createLogger({ level: "silent" }) });
  agent.skill("research", async (ctx) => {
    await ctx.taskUpdater.startWork(
      createProgressMessage("Searching", ProgressStatus.IN_PROGRESS, { percentage: 30, stepName: "search" }),
    );
    await ctx.taskUpdater.addArtifact([textPart("finding 1")], { artifactId: "notes" });
    const report = createProgressMessage("Writing", ProgressStatus.IN_PROGRESS, { percentage: 80 });
    await ctx.taskUpdater.addArtifact(report.parts, { artifactId: "progress" });
    return { output: "done" };
  });
  running = await serveAgent(agent);
});

afterAll(async () => {
  await running.close();
});

async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const frames: StreamResponse[] = [];
  for await (const frame of stream) frames.push(frame);
  return frames;
}

describe("extractProgressFromStream", () => {
  it("passes every frame through and reports progress from status updates and artifact chunks", async () => {
    await using client = new Client({ baseUrl: running.url });
    const plain = await collect(client.sendStreamingMessage("Go", { skillId: "research" }));
    // The reference's example: print progress as it comes, read the frames as usual.
    const reports: ProgressMessage[] = [];
    const watched: StreamResponse[] = [];
    for await (const frame of extractProgressFromStream(
      client.sendStreamingMessage("Go", { skillId: "research" }),
      (p) => reports.push(p),
    )) {
      watched.push(frame);
    }
    const shape = (frames: StreamResponse[]) => frames.map((f) => f.payload.case);
    expect(shape(watched)).toEqual(shape(plain));
    expect(reports.map((p) => [p.message, p.progress?.percentage])).toEqual([
      ["Searching", 30],
      ["Writing", 80],
    ]);
  });

  it("is a plain pass-through without a callback, and ends with the stream's error", async () => {
    const frame = create(StreamResponseSchema, { payload: { case: "message", value: agentMessage("hi") } });
    async function* cut() {
      yield frame;
      throw new Error("stream cut");
    }
    const seen: StreamResponse[] = [];
    await expect(
      (async () => {
        for await (const f of extractProgressFromStream(cut())) seen.push(f);
      })(),
    ).rejects.toThrow("stream cut");
    expect(seen).toEqual([frame]);
    expect(seen[0]).toBe(frame);
  });

  it("ends the iteration with the callback's error", async () => {
    await using client = new Client({ baseUrl: running.url });
    const watched = extractProgressFromStream(client.sendStreamingMessage("go"), () => {
      throw new Error("renderer broke");
    });
    await expect(collect(watched)).rejects.toThrow("renderer broke");
  });
});
