import { describe, expect, it } from "vitest";
import { compareTimestamps, formatTimestamp, parseTimestamp } from "../../src/a2a/timestamps.js";

describe("timestamps", () => {
  it("compares instants, not strings", () => {
    const a = parseTimestamp("2026-01-01T00:00:00Z")!;
    const b = parseTimestamp("2026-01-01T00:00:00.000000Z")!;
    const c = parseTimestamp("2026-01-01T00:00:00.500Z")!;
    expect(compareTimestamps(a, b)).toBe(0);
    // As strings, "…00Z" sorts after "…00.500Z"; as instants it is before.
    expect("2026-01-01T00:00:00Z" > "2026-01-01T00:00:00.500Z").toBe(true);
    expect(compareTimestamps(a, c)).toBeLessThan(0);
    expect(compareTimestamps(c, a)).toBeGreaterThan(0);
  });

  it("parses offsets and nanosecond precision", () => {
    expect(formatTimestamp(parseTimestamp("2026-01-01T01:00:00+01:00")!)).toBe("2026-01-01T00:00:00.000Z");
    expect(parseTimestamp("2026-01-01T00:00:00.123456789Z")?.nanos).toBe(123456789);
  });

  it("rejects what is not RFC 3339", () => {
    for (const bad of ["2026-01-01", "yesterday", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00"]) {
      expect(parseTimestamp(bad)).toBeUndefined();
    }
  });

  it("formats with millisecond precision (§5.6.1)", () => {
    expect(formatTimestamp(parseTimestamp("2026-05-28T10:30:00Z")!)).toBe("2026-05-28T10:30:00.000Z");
  });
});
