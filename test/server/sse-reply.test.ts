/** The SSE writer: every frame its own event, batches written in chunks of at most SSE_CHUNK_CHARS. */
import { describe, expect, it } from "vitest";
import { createSseDecoder } from "../../src/a2a/sse.js";
import { batchedFrames } from "../../src/server/frame-batches.js";
import { ServerCall } from "../../src/server/server-call.js";
import { SSE_CHUNK_CHARS, sseReply } from "../../src/server/sse-reply.js";

const encoding = { frame: (frame: string) => frame, error: (error: unknown) => `error: ${(error as Error).message}` };

async function chunksOf(batches: string[][], fail?: Error): Promise<string[]> {
  const stream = batchedFrames(async function* () {
    for (const batch of batches) yield batch;
    if (fail) throw fail;
  });
  const call = new ServerCall("JSONRPC", {}, () => () => undefined);
  const reply = await sseReply(stream, call, encoding);
  const out: string[] = [];
  for await (const chunk of reply.chunks) out.push(chunk);
  return out;
}

function events(chunks: string[]): { data: string; event?: string | undefined }[] {
  const decoder = createSseDecoder();
  return chunks.flatMap((chunk) => [...decoder.feed(new TextEncoder().encode(chunk))]);
}

describe("sseReply", () => {
  it("writes a large batch in chunks of at most SSE_CHUNK_CHARS, every frame an event, in order", async () => {
    const frames = Array.from({ length: 20_000 }, (_, i) => `frame ${i}`);
    const chunks = await chunksOf([frames.slice(0, 1), frames.slice(1)]);
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(SSE_CHUNK_CHARS);
    // The first batch is its own write, and no chunk ends inside an event.
    expect(chunks[0]).toBe("data: frame 0\n\n");
    for (const chunk of chunks) expect(chunk.endsWith("\n\n")).toBe(true);
    expect(events(chunks).map((e) => e.data)).toEqual(frames);
  });

  it("cuts an event larger than a chunk into several, never inside a surrogate pair", async () => {
    const big = `${"x".repeat(SSE_CHUNK_CHARS - 7)}😀${"y".repeat(2 * SSE_CHUNK_CHARS)}`;
    const chunks = await chunksOf([["small", big, "after"]]);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(SSE_CHUNK_CHARS);
      // Each chunk is written as UTF-8 on its own: a lone surrogate would become U+FFFD.
      expect(Buffer.from(chunk).toString()).toBe(chunk);
    }
    expect(events(chunks).map((e) => e.data)).toEqual(["small", big, "after"]);
  });

  it("ends a failed stream with one event: error after the frames it had", async () => {
    const chunks = await chunksOf([["a", "b"]], new Error("late"));
    expect(events(chunks)).toEqual([{ data: "a" }, { data: "b" }, { data: "error: late", event: "error" }]);
  });
});
