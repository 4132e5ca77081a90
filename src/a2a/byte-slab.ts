/**
 * Short byte arrays copied into shared slabs, as Node's `Buffer` pool does
 * for short buffers: one 8 KiB `ArrayBuffer` holds many encoded messages
 * (gRPC replies), where a buffer of their own per message is an allocation
 * the garbage collector tracks one by one (decision B415). A slab stays
 * allocated while any array cut from it is reachable, so it suits bytes
 * dropped soon after, not bytes kept.
 */
const SLAB_BYTES = 8 * 1024;
/** Longer arrays are copied to a buffer of their own: a slab would hold too few of them. */
const MAX_SLAB_COPY = SLAB_BYTES / 4;

let slab = new Uint8Array(SLAB_BYTES);
let used = 0;

/** A copy of `bytes`: in a shared slab when short, in a buffer of its own otherwise. */
export function copyToSlab(bytes: Uint8Array): Uint8Array {
  const length = bytes.byteLength;
  if (length > MAX_SLAB_COPY) return bytes.slice();
  if (used + length > SLAB_BYTES) {
    slab = new Uint8Array(SLAB_BYTES);
    used = 0;
  }
  const copy = slab.subarray(used, used + length);
  copy.set(bytes);
  // The next copy starts 8-byte aligned, as Node's pool does, so a view of any width can be laid over one.
  used = (used + length + 7) & ~7;
  return copy;
}
