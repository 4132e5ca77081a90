import { describe, expect, it } from "vitest";
import { bodyChunks } from "../../src/a2a/body-chunks.js";

/** A body of `chunks` that records whether (and why) it was cancelled. */
function body(chunks: string[], cancel: (reason: unknown) => void | Promise<void> = () => undefined) {
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
    cancel(reason) {
      cancelled.push(reason);
      return cancel(reason);
    },
  });
  return { stream, cancelled };
}

describe("bodyChunks", () => {
  it("yields every chunk and leaves a body read to its end uncancelled and unlocked", async () => {
    const { stream, cancelled } = body(["a", "b"]);
    const seen: string[] = [];
    for await (const chunk of bodyChunks(stream)) seen.push(new TextDecoder().decode(chunk));
    expect(seen).toEqual(["a", "b"]);
    expect(cancelled).toEqual([]);
    expect(stream.locked).toBe(false);
  });

  it("cancels the body when the reader stops early", async () => {
    const { stream, cancelled } = body(["a", "b", "c"]);
    for await (const _ of bodyChunks(stream)) break;
    expect(cancelled).toHaveLength(1);
    expect(stream.locked).toBe(false);
  });

  it("keeps the reader's own error when the cancel fails too", async () => {
    const { stream, cancelled } = body(["a", "b"], () => Promise.reject(new Error("cancel failed")));
    const read = async () => {
      for await (const _ of bodyChunks(stream)) throw new Error("bad event");
    };
    await expect(read()).rejects.toThrow("bad event");
    expect(cancelled).toHaveLength(1);
  });
});
