import { describe, expect, it } from "vitest";
import { backoffDelayMs } from "../../src/runtime/backoff.js";

describe("backoffDelayMs", () => {
  it("doubles from the base delay up to the cap", () => {
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
