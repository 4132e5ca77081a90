import { describe, expect, it } from "vitest";
import { reconnectDelayMs } from "../../src/platform/backoff.js";

describe("reconnectDelayMs", () => {
  const options = { initialMs: 1000, maxMs: 30_000, random: () => 1 };
  it("waits for a Retry-After longer than the backoff, never beyond the cap", () => {
    expect(reconnectDelayMs(1, options)).toBe(1000);
    expect(reconnectDelayMs(1, options, 5)).toBe(5000);
    expect(reconnectDelayMs(4, options, 5)).toBe(8000);
    expect(reconnectDelayMs(1, options, 120)).toBe(30_000);
  });
});
