import { describe, expect, it } from "vitest";
import { backoffDelayMs, reconnectDelayMs, sleep } from "../../src/platform/backoff.js";

describe("backoffDelayMs", () => {
  it("doubles from the initial delay up to the cap", () => {
    const noJitter = () => 1;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelayMs(n, 1000, 30_000, noJitter))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });

  it("only ever shortens a delay, by at most half", () => {
    expect(backoffDelayMs(3, 1000, 30_000, () => 0)).toBe(2000);
    expect(backoffDelayMs(3, 1000, 30_000, () => 0.5)).toBe(3000);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelayMs(10, 1000, 30_000);
      expect(d).toBeGreaterThanOrEqual(15_000);
      expect(d).toBeLessThanOrEqual(30_000);
    }
  });
});

describe("reconnectDelayMs", () => {
  const options = { initialMs: 1000, maxMs: 30_000, random: () => 1 };
  it("waits for a Retry-After longer than the backoff, never beyond the cap", () => {
    expect(reconnectDelayMs(1, options)).toBe(1000);
    expect(reconnectDelayMs(1, options, 5)).toBe(5000);
    expect(reconnectDelayMs(4, options, 5)).toBe(8000);
    expect(reconnectDelayMs(1, options, 120)).toBe(30_000);
  });
});

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
