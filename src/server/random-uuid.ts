/**
 * Random (version 4) UUIDs for the ids the harness mints on every request
 * (task, context, artifact, message). The same as `crypto.randomUUID()`:
 * 122 bits from the CSPRNG, drawn in batches; but written as ASCII into a
 * buffer and read out as one flat string, where Node builds each UUID from
 * twenty string concatenations that V8 then has to flatten before hashing,
 * comparing or writing it (four UUIDs were ~4% of a SendMessage's work).
 */
import { Buffer } from "node:buffer";
import { randomFillSync } from "node:crypto";

const BATCH = 128;
const random = Buffer.allocUnsafe(16 * BATCH);
let used = BATCH;
const text = Buffer.allocUnsafe(36);
const HEX = Buffer.from("0123456789abcdef", "latin1");

export function randomUuid(): string {
  if (used === BATCH) {
    randomFillSync(random);
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
  return text.toString("latin1", 0, 36);
}
