import { describe, expect, it } from "vitest";
import { sleep, systemClock } from "../../src/runtime/clock.js";

describe("sleep", () => {
  it("ends with the signal's reason when aborted", async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(sleep(0, controller.signal)).rejects.toBe(reason);
  });
});

describe("systemClock", () => {
  it("reads a monotonic time and waits on the real timers", async () => {
    const before = systemClock.now();
    await systemClock.sleep(1);
    expect(systemClock.now()).toBeGreaterThan(before);
  });
});
