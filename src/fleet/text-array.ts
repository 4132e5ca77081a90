/**
 * A `text[]` statement parameter in PostgreSQL's binary format (what the
 * server's `array_recv` reads): a header, then each element as its byte
 * length and its UTF-8 bytes. The driver sends a Buffer parameter as binary,
 * so the server copies each element as it is, where a text array or a JSON
 * parameter is scanned for quotes and escapes, and parsed (a JSON parameter
 * twice: once by the `json` type's input, again by `json_to_recordset`).
 * Saving a batch of tasks this way costs PostgreSQL a fifth less CPU per
 * task (docs/fleet.md, "The numbers").
 */

/** The `text` type's OID, the element type of every array written here. */
const TEXT_OID = 25;
/** ndim, has-nulls flag, element type; then, with one dimension, its length and lower bound. */
const HEADER_BYTES = 20;

/**
 * The binary form of a one-dimensional `text[]` of `values` (no nulls; `[]`
 * when empty). Every value must be storable (`isStorableText`, request-ids.ts).
 */
export function textArray(values: readonly string[]): Buffer {
  const count = values.length;
  if (count === 0) {
    const empty = Buffer.alloc(12);
    empty.writeInt32BE(TEXT_OID, 8);
    return empty;
  }
  const lengths = new Array<number>(count);
  let size = HEADER_BYTES + 4 * count;
  for (let i = 0; i < count; i++) {
    const length = Buffer.byteLength(values[i] as string);
    lengths[i] = length;
    size += length;
  }
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(1, 0);
  out.writeInt32BE(0, 4);
  out.writeInt32BE(TEXT_OID, 8);
  out.writeInt32BE(count, 12);
  out.writeInt32BE(1, 16);
  let at = HEADER_BYTES;
  for (let i = 0; i < count; i++) {
    const length = lengths[i] as number;
    out.writeInt32BE(length, at);
    at += 4;
    if (length > 0) at += out.write(values[i] as string, at, length, "utf8");
  }
  return out;
}
