/** Short byte arrays and texts written into shared slabs (src/a2a/byte-slab.ts). */
import { describe, expect, it } from "vitest";
import { copyToSlab, encodeToSlab } from "../../src/a2a/byte-slab.js";

const SLAB = 64 * 1024;
const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);
const utf8 = (text: string) => [...Buffer.from(text, "utf8")];

/** Fills the current slab until at most `left` bytes of it are free; returns it. */
function fillSlab(left: number): ArrayBufferLike {
  let last = encodeToSlab("x");
  for (;;) {
    const free = SLAB - ((last.byteOffset + last.byteLength + 7) & ~7);
    if (free <= left) return last.buffer;
    last = copyToSlab(bytes(Math.min(8000, free - left), 0));
  }
}

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
    const copies = Array.from({ length: 80 }, (_, i) => copyToSlab(bytes(1000, i)));
    const slabs = new Set(copies.map((copy) => copy.buffer));
    expect(slabs.size).toBeGreaterThan(1);
    for (const slab of slabs) expect(slab.byteLength).toBe(SLAB);
    for (const [i, copy] of copies.entries()) expect(copy.every((b) => b === i)).toBe(true);

    const long = copyToSlab(bytes(SLAB / 4 + 1, 3));
    expect(long.buffer.byteLength).toBe(SLAB / 4 + 1);
    expect(long.byteOffset).toBe(0);
  });
});

describe("encodeToSlab", () => {
  it("writes a text's UTF-8 into the shared slab, as Buffer.from does, lone surrogates included", () => {
    const texts = ["plain ascii", "é 日本語 🧪", "half a pair \ud800 and \udc00 alone", ""];
    const encoded = texts.map((text) => encodeToSlab(text));
    for (const [i, text] of texts.entries()) expect([...(encoded[i] as Uint8Array)]).toEqual(utf8(text));
    expect(new Set(encoded.map((e) => e.buffer)).size).toBe(1);
    expect((encoded[1] as Uint8Array).byteOffset % 8).toBe(0);
  });

  it("writes a text the slab's free end cannot hold whole into a fresh slab, and a long text into a buffer of its own", () => {
    const full = fillSlab(24);
    const text = "🧪".repeat(16); // 64 bytes
    const wide = encodeToSlab(text);
    expect([...wide]).toEqual(utf8(text));
    expect(wide.buffer).not.toBe(full);
    expect(wide.byteOffset).toBe(0);

    const long = "z".repeat(SLAB / 4 + 1);
    const own = encodeToSlab(long);
    expect(own.byteLength).toBe(long.length);
    expect(own.buffer.byteLength).toBe(long.length);
  });
});
