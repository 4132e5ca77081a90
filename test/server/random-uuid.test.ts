/** The harness's UUIDs: RFC 9562 version 4 text, unique across many batches of random bytes. */
import { describe, expect, it } from "vitest";
import { randomUuid } from "../../src/server/random-uuid.js";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("randomUuid", () => {
  it("writes version-4, variant-10 UUIDs in lower-case canonical form, all distinct", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const uuid = randomUuid();
      expect(uuid).toMatch(V4);
      seen.add(uuid);
    }
    expect(seen.size).toBe(10_000);
  });

  it("uses every bit it does not fix: each of the other 122 bit positions is seen both set and clear", () => {
    const hex = Array.from({ length: 2_000 }, () => randomUuid().replaceAll("-", ""));
    for (let nibble = 0; nibble < 32; nibble++) {
      const values = new Set(hex.map((h) => Number.parseInt(h[nibble] as string, 16)));
      if (nibble === 12) expect([...values]).toEqual([4]);
      else if (nibble === 16) expect([...values].every((v) => v >= 8 && v <= 11)).toBe(true);
      else expect(values.size).toBe(16);
    }
  });
});
