/**
 * Attack family: a stream reader that stops reading. Everything it had not
 * read waited in memory, and its SSE writer joined it into one string: with
 * ~2M frames waiting, `RangeError: Invalid string length`, the socket
 * destroyed, 15,248 of 2.5M events delivered and no error event, peak RSS
 * 3.8 GB. Now a stream may fall `streamBacklogBytes` (8 MiB) behind: past
 * that its reader gets the frames it was sent, in order, then one error
 * frame naming the task, and SubscribeToTask picks the task up again. Writes
 * are at most 64 KiB at a time. The skill, the task and the other callers
 * are unaffected.
 */

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StreamResponse, TaskState } from "../../gen/a2a_pb.js";
import type { ProtocolBinding } from "../../src/a2a/constants.js";
import { InternalError } from "../../src/a2a/errors.js";
import { frameState } from "../../src/a2a/stream-frame.js";
import { Client } from "../../src/client/client.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { textPart } from "../../src/server/task-updater.js";
import { expectUnaffected, type ServedAgent, serveForAttack } from "./support.js";

interface StalledOutcome {
  readonly received: number;
  readonly inOrder: boolean;
  readonly end: { code: number | string; message: string; taskId?: string };
  readonly taskState: string;
  readonly lastArtifact: string;
  readonly maxRssMb: number;
}

/** Runs test/hardening/fixtures/stalled-reader.ts in its own process (so its peak RSS is the stream's). */
async function stalledReader(binding: "JSONRPC" | "GRPC"): Promise<StalledOutcome> {
  const { stdout } = await promisify(execFile)(
    "node_modules/.bin/tsx",
    ["test/hardening/fixtures/stalled-reader.ts", binding],
    { timeout: 600_000, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) as string);
}

describe("a client that stops reading a 2.5M-event stream, then resumes", () => {
  // The bound is generous: the process itself takes ~100 MB; the stream's backlog is bounded at 8 MiB of frames.
  const RSS_BOUND_MB = 600;

  it.each(["JSONRPC", "GRPC"] as const)(
    "%s: gets its first frames in order, then one error frame naming the task; RSS stays bounded",
    async (binding) => {
      const outcome = await stalledReader(binding);
      expect(outcome.received).toBeGreaterThan(0);
      expect(outcome.received).toBeLessThan(2_500_000);
      expect(outcome.inOrder).toBe(true);
      expect(outcome.end.code).toBe(binding === "GRPC" ? "13" : -32603);
      expect(outcome.end.message).toMatch(/fell more than 8388608 bytes behind task .* SubscribeToTask/);
      // The skill was not held back by the stalled reader: it wrote every event, and the task completed.
      expect(outcome.taskState).toBe("TASK_STATE_COMPLETED");
      expect(outcome.lastArtifact).toBe("chunk 2499999 of the flood");
      expect(outcome.maxRssMb).toBeLessThan(RSS_BOUND_MB);
    },
    900_000,
  );
});

describe("a reader past the backlog bound, on every binding", () => {
  const EVENTS = 50_000;
  let agent: ServedAgent;
  let written: () => void = () => undefined;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    const builder = new AgentBuilder({
      name: "stalled",
      logger: createLogger({ level: "silent" }),
      streamBacklogBytes: 256 * 1024,
    });
    builder.skill("echo", async (_ctx, text) => ({ output: text }));
    builder.skill("flood", async (ctx) => {
      for (let i = 0; i < EVENTS; i++) {
        await ctx.taskUpdater.addArtifact([textPart(`chunk ${i}`)], { artifactId: "flood" });
      }
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      written();
      await released;
      return { output: "done" };
    });
    agent = await serveForAttack(builder);
  });
  afterAll(() => agent.close());

  function clientFor(binding: ProtocolBinding): Client {
    const baseUrl = binding === "GRPC" ? `http://${agent.server.grpcTarget}` : agent.server.url;
    return new Client({
      transports: [grpcTransport()],
      baseUrl,
      binding,
      headers: { "X-NovaOS-Tenant-Id": "attacker" },
    });
  }

  const artifactText = (frame: StreamResponse) => {
    const part = frame.payload.case === "artifactUpdate" ? frame.payload.value.artifact?.parts[0] : undefined;
    return part?.content.case === "text" ? part.content.value : undefined;
  };

  it.each(["JSONRPC", "HTTP+JSON", "GRPC"] as const)(
    "%s: frames in order, then InternalError naming the task; SubscribeToTask answers the snapshot and follows it",
    async (binding) => {
      await using client = clientFor(binding);
      const allWritten = new Promise<void>((resolve) => {
        written = resolve;
      });
      const frames = client.sendStreamingMessage("go", { skillId: "flood" })[Symbol.asyncIterator]();
      const first = await frames.next();
      const taskId = first.value?.payload.case === "task" ? first.value.payload.value.id : "";
      // The reader stops here until the skill wrote every event.
      await allWritten;
      const texts: string[] = [];
      let failure: unknown;
      try {
        for (let next = await frames.next(); !next.done; next = await frames.next()) {
          const text = artifactText(next.value);
          if (text !== undefined) texts.push(text);
        }
      } catch (error) {
        failure = error;
      }
      expect(texts.length).toBeGreaterThan(0);
      expect(texts.length).toBeLessThan(EVENTS);
      expect(texts.every((text, i) => text === `chunk ${i}`)).toBe(true);
      expect(failure).toBeInstanceOf(InternalError);
      expect((failure as InternalError).taskId).toBe(taskId);
      expect((failure as InternalError).metadata.maxBacklogBytes).toBe(String(256 * 1024));

      const again = client.subscribeToTask(taskId)[Symbol.asyncIterator]();
      const snapshot = (await again.next()).value as StreamResponse;
      expect(snapshot.payload.case).toBe("task");
      const task = snapshot.payload.case === "task" ? snapshot.payload.value : undefined;
      expect(task?.artifacts[0]?.parts[0]?.content.value).toBe(`chunk ${EVENTS - 1}`);
      release();
      let last: StreamResponse | undefined;
      for (let next = await again.next(); !next.done; next = await again.next()) last = next.value;
      expect(last && frameState(last)).toBe(TaskState.COMPLETED);
      await expectUnaffected(agent);
    },
    120_000,
  );
});
