import { describe, expect, it } from "vitest";
import { detachable } from "../../src/server/detachable-stream.js";

describe("detachable handler streams", () => {
  it("ends a pending next() as soon as the signal aborts, even while an async generator awaits", async () => {
    let finallyRan: () => void = () => undefined;
    const cleanedUp = new Promise<void>((resolve) => {
      finallyRan = resolve;
    });
    let release: () => void = () => undefined;
    const quiet = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* source() {
      try {
        yield 1;
        await quiet; // a task with nothing to report
        yield 2;
      } finally {
        finallyRan();
      }
    }
    const abort = new AbortController();
    const frames = detachable(source(), abort.signal);
    expect(await frames.next()).toEqual({ done: false, value: 1 });
    const pending = frames.next();
    abort.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(await frames.next()).toEqual({ done: true, value: undefined });
    // The generator's own return() waits for its await; the source is let go of as soon as that settles.
    release();
    await cleanedUp;
  });

  it("returns the source when the consumer returns", async () => {
    let onReturn: () => void = () => undefined;
    const returned = new Promise<void>((resolve) => {
      onReturn = resolve;
    });
    const source: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false, value: 1 }),
        return: async () => {
          onReturn();
          return { done: true, value: undefined };
        },
      }),
    };
    const frames = detachable(source, new AbortController().signal);
    await frames.next();
    expect(await frames.return?.()).toEqual({ done: true, value: undefined });
    await returned;
  });

  it("passes the source's values and errors through, and is done after an error", async () => {
    async function* failing() {
      yield "a";
      throw new Error("boom");
    }
    const abort = new AbortController();
    const frames = detachable(failing(), abort.signal);
    expect(await frames.next()).toEqual({ done: false, value: "a" });
    await expect(frames.next()).rejects.toThrow("boom");
    expect(await frames.next()).toEqual({ done: true, value: undefined });
  });

  it("is done at once on an already aborted signal", async () => {
    const abort = new AbortController();
    abort.abort();
    async function* never() {
      yield 1;
    }
    expect(await detachable(never(), abort.signal).next()).toEqual({ done: true, value: undefined });
  });
});
