import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { raceSignal } from "../../src/runtime/race-signal.js";

describe("raceSignal", () => {
  it("rejects with the signal's reason when it aborts first; the work goes on for others", async () => {
    const controller = new AbortController();
    let finish: (value: string) => void = () => undefined;
    const work = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const waiting = raceSignal(work, controller.signal);
    controller.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
    finish("done");
    await expect(work).resolves.toBe("done");
  });

  it("settles like the work otherwise, and lets go of the signal", async () => {
    const controller = new AbortController();
    await expect(raceSignal(Promise.resolve(1), controller.signal)).resolves.toBe(1);
    await expect(raceSignal(Promise.reject(new Error("failed")), controller.signal)).rejects.toThrow("failed");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("rejects at once for a signal already aborted, and is the work itself without a signal", async () => {
    await expect(raceSignal(new Promise(() => undefined), AbortSignal.abort(new Error("before")))).rejects.toThrow(
      "before",
    );
    const work = Promise.resolve(2);
    expect(raceSignal(work, undefined)).toBe(work);
  });
});
