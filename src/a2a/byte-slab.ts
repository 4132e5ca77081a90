/**
 * Short byte arrays written into shared slabs, as Node's `Buffer` pool does
 * for short buffers, but in 64 KiB slabs where Node's are 8 KiB: one
 * `ArrayBuffer` holds many encoded replies (gRPC messages, JSON bodies),
 * where a buffer of their own per reply, or a new 8 KiB pool every few
 * replies, is an allocation V8 tracks one by one (decisions B415, B416). A
 * slab stays allocated while any array cut from it is reachable, so it suits
 * bytes dropped soon after (a reply, once the socket took it), not bytes
 * kept.
 */
const SLAB_BYTES = 64 * 1024;
/**
 * Longer arrays (and texts of more UTF-16 units) get a buffer of their own: a
 * slab would hold too few of them. A text this long encodes to at most three
 * times as many bytes, which a fresh slab holds.
 */
const MAX_SLAB_COPY = SLAB_BYTES / 4;

const encoder = new TextEncoder();
let slab = new Uint8Array(SLAB_BYTES);
let used = 0;

/** The `length` bytes written last, from `used`; the next array starts 8-byte aligned, as in Node's pool. */
function cut(length: number): Uint8Array {
  const bytes = slab.subarray(used, used + length);
  used = (used + length + 7) & ~7;
  return bytes;
}

function nextSlab(): void {
  slab = new Uint8Array(SLAB_BYTES);
  used = 0;
}

/** A copy of `bytes`: in a shared slab when short, in a buffer of its own otherwise. */
export function copyToSlab(bytes: Uint8Array): Uint8Array {
  const length = bytes.byteLength;
  if (length > MAX_SLAB_COPY) return bytes.slice();
  if (used + length > SLAB_BYTES) nextSlab();
  slab.set(bytes, used);
  return cut(length);
}

/**
 * `text` as UTF-8: in a shared slab when short, in a buffer of its own
 * otherwise. One pass: the text is encoded into the slab's free end, and
 * again into a fresh slab when that end was too short for it.
 */
export function encodeToSlab(text: string): Uint8Array {
  if (text.length > MAX_SLAB_COPY) return encoder.encode(text);
  let done = encoder.encodeInto(text, slab.subarray(used));
  if (done.read < text.length) {
    nextSlab();
    done = encoder.encodeInto(text, slab);
  }
  return cut(done.written);
}
