/** Short byte arrays copied into shared slabs (src/a2a/byte-slab.ts). */
import { describe, expect, it } from "vitest";
import { copyToSlab } from "../../src/a2a/byte-slab.js";

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);

describe("copyToSlab", () => {
  it("copies short arrays into one shared buffer, each 8-byte aligned and independent of its source", () => {
    const source = bytes(13, 1);
    const first = copyToSlab(source);
    const second = copyToSlab(bytes(100, 2));
    source.fill(9);
    expect([...first]).toEqual(Array(13).fill(1));
    expect([...second]).toEqual(Array(100).fill(2));
    // The module's first slab, fresh in this file: the second copy starts at the first 8-byte boundary after the first.
    expect(second.buffer).toBe(first.buffer);
    expect(first.byteOffset).toBe(0);
    expect(second.byteOffset).toBe(16);
    // Writing through one copy leaves the others as they were.
    first.fill(7);
    expect([...second]).toEqual(Array(100).fill(2));
  });

  it("starts a new slab when the current one is full, and gives a long array a buffer of its own", () => {
    const copies = Array.from({ length: 40 }, (_, i) => copyToSlab(bytes(1000, i)));
    const slabs = new Set(copies.map((copy) => copy.buffer));
    expect(slabs.size).toBeGreaterThan(1);
    for (const slab of slabs) expect(slab.byteLength).toBe(8192);
    for (const [i, copy] of copies.entries()) expect(copy.every((b) => b === i)).toBe(true);

    const long = copyToSlab(bytes(5000, 3));
    expect(long.buffer.byteLength).toBe(5000);
    expect(long.byteOffset).toBe(0);
  });
});
