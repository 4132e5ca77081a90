/** Batched streams read either frame by frame or batch by batch, once. */
import { describe, expect, it } from "vitest";
import { batchedFrames, FRAME_BATCHES, hasFrameBatches } from "../../src/server/frame-batches.js";

async function* source(): AsyncGenerator<number[]> {
  yield [1];
  yield [2, 3];
}

describe("batchedFrames", () => {
  it("reads frame by frame, in order", async () => {
    const out: number[] = [];
    for await (const frame of batchedFrames(source)) out.push(frame);
    expect(out).toEqual([1, 2, 3]);
  });

  it("reads batch by batch, and only once", async () => {
    const stream = batchedFrames(source);
    expect(hasFrameBatches(stream)).toBe(true);
    const batches = stream[FRAME_BATCHES]();
    expect(await batches.next()).toEqual({ done: false, value: [1] });
    expect(await batches.next()).toEqual({ done: false, value: [2, 3] });
    expect((await batches.next()).done).toBe(true);
    expect(() => stream[FRAME_BATCHES]()).toThrow(TypeError);
  });

  it("is not claimed by plain async iterables", () => {
    expect(hasFrameBatches((async function* () {})())).toBe(false);
  });
});
