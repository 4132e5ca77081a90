/**
 * Random (version 4) UUIDs for the ids the harness mints on every request
 * (task, context, artifact, message). The same as `crypto.randomUUID()`:
 * 122 bits from the CSPRNG, drawn in batches; but written as ASCII into a
 * buffer and read out as one flat string, where Node builds each UUID from
 * twenty string concatenations that V8 then has to flatten before hashing,
 * comparing or writing it (four UUIDs were ~4% of a SendMessage's work).
 * Web Crypto and a Node-style `Buffer` when the runtime has one (Node, Bun,
 * Deno), a TextDecoder elsewhere: the server runs on Fetch runtimes too.
 */

/** The part of Node's `Buffer` used here, found on the global object rather than imported from `node:buffer`. */
interface BufferClass {
  from(memory: ArrayBufferLike, offset: number, length: number): { toString(encoding: "latin1"): string };
}
const NodeBuffer = (globalThis as { Buffer?: BufferClass }).Buffer;

/** UUIDs per draw from the CSPRNG: one 16 KB draw costs about what a 2 KB one does (decision S693). */
const BATCH = 1024;
const random = new Uint8Array(16 * BATCH);
let used = BATCH;
const text = new Uint8Array(36);
const HEX = new TextEncoder().encode("0123456789abcdef");
const textAsString: () => string = NodeBuffer
  ? (
      (view) => () =>
        view.toString("latin1")
    )(NodeBuffer.from(text.buffer, 0, 36))
  : (
      (decoder) => () =>
        decoder.decode(text)
    )(new TextDecoder("latin1"));

export function randomUuid(): string {
  if (used === BATCH) {
    crypto.getRandomValues(random);
    used = 0;
  }
  const at = used++ * 16;
  let out = 0;
  for (let i = 0; i < 16; i++) {
    let byte = random[at + i] as number;
    if (i === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // variant 10xx (RFC 9562)
    if (i === 4 || i === 6 || i === 8 || i === 10) text[out++] = 0x2d; // "-"
    text[out++] = HEX[byte >> 4] as number;
    text[out++] = HEX[byte & 0x0f] as number;
  }
  return textAsString();
}
