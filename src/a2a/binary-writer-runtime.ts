/**
 * What the generated binary writers (`gen/a2a_binary.ts`, made by
 * tools/protoc-gen-a2a-binary.ts) share: the wire primitives, the
 * well-known types they write by hand (Timestamp; Struct, held as a JSON
 * object in a singular field; Value, held as a message in a oneof), unknown
 * fields, and the bail-out.
 *
 * A generated writer is a fast path, never a second opinion: it writes the
 * messages it can write exactly as protobuf-es's `toBinary` would, byte for
 * byte, and bails out on anything else (a value of the wrong type, a
 * message of another type, an int32 out of range...). The caller then runs
 * `toBinary`, which answers (or fails) as it always did.
 * test/a2a/binary-writers.test.ts holds the two to the same bytes over many
 * generated messages.
 *
 * Why a writer of our own under the generated code: protobuf-es's
 * `BinaryWriter` checks every varint and grows its buffer from a small one
 * per message; straight-line code over it was ~25 % faster than `toBinary`
 * on a SendMessage reply, over this writer ~2.7×. Its buffer is kept
 * between messages, and the bytes of one message are copied out once,
 * a short message into a shared slab (byte-slab.ts, decision B415).
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { ListValue, Struct, Timestamp, Value } from "@bufbuild/protobuf/wkt";
import { copyToSlab } from "./byte-slab.js";

/** Thrown (never escapes `encodeBinary`) when the fast path cannot answer exactly. */
export const BAIL: unique symbol = Symbol("binary-writer-bail");

export function bail(): never {
  throw BAIL;
}

/** A generated writer of one message type. */
export type BinaryMessageWriter<T = unknown> = (w: ProtoWriter, message: T) => void;

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_DELIMITED = 2;
const FIELD_1_DELIMITED = (1 << 3) | WIRE_DELIMITED;
const FIELD_2_DELIMITED = (2 << 3) | WIRE_DELIMITED;
/** The tags of google.protobuf.Value's `kind` members. */
const NULL_VALUE = (1 << 3) | WIRE_VARINT;
const NUMBER_VALUE = (2 << 3) | WIRE_FIXED64;
const STRING_VALUE = (3 << 3) | WIRE_DELIMITED;
const BOOL_VALUE = (4 << 3) | WIRE_VARINT;
const STRUCT_VALUE = (5 << 3) | WIRE_DELIMITED;
const LIST_VALUE = (6 << 3) | WIRE_DELIMITED;

/** The first buffer; it doubles as messages need, and is kept for the next message. */
const INITIAL_BYTES = 1024;
/** A buffer grown past this for one large message is not kept for the next. */
const KEEP_BYTES = 1 << 20;

const textEncoder = new TextEncoder();

export class ProtoWriter {
  #buffer: Uint8Array = new Uint8Array(INITIAL_BYTES);
  #view: DataView = new DataView(this.#buffer.buffer);
  #pos = 0;
  readonly #forks: number[] = [];

  /** Starts a message after `prefix` bytes left for the caller (e.g. a gRPC envelope header). */
  start(prefix: number): void {
    if (this.#buffer.length > KEEP_BYTES) this.#replace(new Uint8Array(INITIAL_BYTES));
    this.#forks.length = 0;
    this.#pos = 0;
    this.#reserve(prefix);
    this.#pos = prefix;
  }

  /** The bytes written since `start` (the prefix included), copied out (a short message into a shared slab). */
  finish(): Uint8Array {
    return copyToSlab(this.#buffer.subarray(0, this.#pos));
  }

  #replace(buffer: Uint8Array): void {
    this.#buffer = buffer;
    this.#view = new DataView(buffer.buffer);
  }

  #reserve(bytes: number): void {
    const needed = this.#pos + bytes;
    if (needed <= this.#buffer.length) return;
    let size = this.#buffer.length * 2;
    while (size < needed) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.#buffer.subarray(0, this.#pos));
    this.#replace(grown);
  }

  /** An unsigned 32-bit varint; a tag is one, computed by the generator. */
  uint32(value: number): void {
    this.#reserve(5);
    const buffer = this.#buffer;
    let pos = this.#pos;
    while (value > 0x7f) {
      buffer[pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buffer[pos++] = value;
    this.#pos = pos;
  }

  /** An int32 or enum value: negatives take ten bytes (sign-extended to 64 bits), as protobuf-es writes them. */
  int32(value: unknown): void {
    if (typeof value !== "number" || (value | 0) !== value) bail();
    if (value >= 0) {
      this.uint32(value);
      return;
    }
    this.#reserve(10);
    const buffer = this.#buffer;
    let pos = this.#pos;
    let rest = value;
    for (let i = 0; i < 9; i++) {
      buffer[pos++] = (rest & 0x7f) | 0x80;
      rest >>= 7;
    }
    buffer[pos++] = 1;
    this.#pos = pos;
  }

  /** An int64 held as a bigint (protobuf-es's default), two's complement for negatives. */
  int64(value: unknown): void {
    if (typeof value !== "bigint" || BigInt.asIntN(64, value) !== value) bail();
    if (value >= 0n && value <= 0xffffffffn) {
      // Small enough for number arithmetic (a timestamp's seconds, until 2106).
      let n = Number(value);
      this.#reserve(5);
      const buffer = this.#buffer;
      let pos = this.#pos;
      while (n > 0x7f) {
        buffer[pos++] = (n % 0x80) | 0x80;
        n = Math.floor(n / 0x80);
      }
      buffer[pos++] = n;
      this.#pos = pos;
      return;
    }
    this.#reserve(10);
    let rest = BigInt.asUintN(64, value);
    while (rest > 0x7fn) {
      this.#buffer[this.#pos++] = Number(rest & 0x7fn) | 0x80;
      rest >>= 7n;
    }
    this.#buffer[this.#pos++] = Number(rest);
  }

  bool(value: unknown): void {
    if (typeof value !== "boolean") bail();
    this.#reserve(1);
    this.#buffer[this.#pos++] = value ? 1 : 0;
  }

  double(value: unknown): void {
    if (typeof value !== "number") bail();
    this.#reserve(8);
    this.#view.setFloat64(this.#pos, value, true);
    this.#pos += 8;
  }

  /** Length-delimited UTF-8 (a lone surrogate becomes U+FFFD, as with `TextEncoder`, which protobuf-es uses). */
  string(value: unknown): void {
    if (typeof value !== "string") bail();
    const length = value.length;
    if (length < 0x80) {
      // Short ASCII, the usual case: the length is one byte and each character one byte.
      this.#reserve(length + 1);
      const buffer = this.#buffer;
      const start = this.#pos + 1;
      let i = 0;
      for (; i < length; i++) {
        const code = value.charCodeAt(i);
        if (code > 0x7f) break;
        buffer[start + i] = code;
      }
      if (i === length) {
        buffer[start - 1] = length;
        this.#pos = start + length;
        return;
      }
    }
    // UTF-8 takes at most three bytes per UTF-16 unit. The length goes first but is known only after
    // encoding: guess its size from the UTF-16 length, and shift the text if the guess was short.
    this.#reserve(length * 3 + 5);
    const guess = varintSize(length);
    const start = this.#pos;
    const { written } = textEncoder.encodeInto(value, this.#buffer.subarray(start + guess));
    const size = varintSize(written);
    if (size !== guess) this.#buffer.copyWithin(start + size, start + guess, start + guess + written);
    this.uint32(written);
    this.#pos += written;
  }

  bytes(value: unknown): void {
    if (!(value instanceof Uint8Array)) bail();
    this.uint32(value.byteLength);
    this.raw(value);
  }

  raw(bytes: Uint8Array): void {
    this.#reserve(bytes.byteLength);
    this.#buffer.set(bytes, this.#pos);
    this.#pos += bytes.byteLength;
  }

  /** Starts a length-delimited value whose length is written by `join()` (one byte reserved for it). */
  fork(): void {
    this.#reserve(1);
    this.#forks.push(this.#pos);
    this.#pos++;
  }

  join(): void {
    const at = this.#forks.pop() as number;
    const length = this.#pos - at - 1;
    if (length < 0x80) {
      this.#buffer[at] = length;
      return;
    }
    const prefix = varintSize(length);
    this.#reserve(prefix - 1);
    const buffer = this.#buffer;
    buffer.copyWithin(at + prefix, at + 1, this.#pos);
    let pos = at;
    let rest = length;
    while (rest > 0x7f) {
      buffer[pos++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    buffer[pos] = rest;
    this.#pos += prefix - 1;
  }
}

/** Bytes of the varint of `value` (an unsigned 32-bit number). */
function varintSize(value: number): number {
  let size = 1;
  for (let rest = value; rest > 0x7f; rest >>>= 7) size++;
  return size;
}

/** The fields protobuf-es kept from a binary read of a newer schema (`$unknown`), written back as they came. */
export function writeUnknown(w: ProtoWriter, unknown: unknown): void {
  if (!Array.isArray(unknown)) bail();
  for (const field of unknown as { no: number; wireType: number; data: Uint8Array }[]) {
    w.uint32(((field.no << 3) | field.wireType) >>> 0);
    w.raw(field.data);
  }
}

/** A message's own fields are done; its unknown fields follow, when it has any. */
function unknownOf(message: object): unknown {
  return (message as { $unknown?: unknown }).$unknown;
}

/** google.protobuf.Timestamp: seconds (1), nanos (2), unknown fields. */
export function writeTimestamp(w: ProtoWriter, t: Timestamp): void {
  if (t.$typeName !== "google.protobuf.Timestamp") bail();
  if (t.seconds !== 0n) {
    w.uint32((1 << 3) | WIRE_VARINT);
    w.int64(t.seconds);
  }
  if (t.nanos !== 0) {
    w.uint32((2 << 3) | WIRE_VARINT);
    w.int32(t.nanos);
  }
  const unknown = unknownOf(t);
  if (unknown !== undefined) writeUnknown(w, unknown);
}

/** google.protobuf.Struct, held as a JSON object (a singular field): `fields` (1) as map entries in key order. */
export function writeStruct(w: ProtoWriter, struct: JsonObject): void {
  if (typeof struct !== "object" || struct === null || Array.isArray(struct)) bail();
  for (const key of Object.keys(struct)) {
    w.uint32(FIELD_1_DELIMITED);
    w.fork();
    w.uint32(FIELD_1_DELIMITED);
    w.string(key);
    w.uint32(FIELD_2_DELIMITED);
    w.fork();
    writeJsonValue(w, struct[key] as JsonValue);
    w.join();
    w.join();
  }
}

/** A google.protobuf.Value held as a JSON value (inside a JSON-held Struct): one member of `kind`. */
function writeJsonValue(w: ProtoWriter, value: JsonValue): void {
  switch (typeof value) {
    case "number":
      w.uint32(NUMBER_VALUE);
      w.double(value);
      return;
    case "string":
      w.uint32(STRING_VALUE);
      w.string(value);
      return;
    case "boolean":
      w.uint32(BOOL_VALUE);
      w.bool(value);
      return;
    case "object":
      if (value === null) {
        w.uint32(NULL_VALUE);
        w.uint32(0);
      } else if (Array.isArray(value)) {
        w.uint32(LIST_VALUE);
        w.fork();
        for (const item of value) {
          w.uint32(FIELD_1_DELIMITED);
          w.fork();
          writeJsonValue(w, item);
          w.join();
        }
        w.join();
      } else {
        w.uint32(STRUCT_VALUE);
        w.fork();
        writeStruct(w, value);
        w.join();
      }
      return;
    default:
      bail();
  }
}

/** google.protobuf.Value as a message (a oneof member): one member of `kind`, then unknown fields. */
export function writeValue(w: ProtoWriter, v: Value): void {
  if (v.$typeName !== "google.protobuf.Value") bail();
  const kind = v.kind;
  switch (kind.case) {
    case undefined:
      break;
    case "nullValue":
      w.uint32(NULL_VALUE);
      w.int32(kind.value);
      break;
    case "numberValue":
      w.uint32(NUMBER_VALUE);
      w.double(kind.value);
      break;
    case "stringValue":
      w.uint32(STRING_VALUE);
      w.string(kind.value);
      break;
    case "boolValue":
      w.uint32(BOOL_VALUE);
      w.bool(kind.value);
      break;
    case "structValue":
      w.uint32(STRUCT_VALUE);
      w.fork();
      writeStructMessage(w, kind.value);
      w.join();
      break;
    case "listValue":
      w.uint32(LIST_VALUE);
      w.fork();
      writeListValueMessage(w, kind.value);
      w.join();
      break;
    default:
      bail();
  }
  const unknown = unknownOf(v);
  if (unknown !== undefined) writeUnknown(w, unknown);
}

function writeStructMessage(w: ProtoWriter, struct: Struct): void {
  if (struct.$typeName !== "google.protobuf.Struct") bail();
  const fields = struct.fields;
  for (const key of Object.keys(fields)) {
    w.uint32(FIELD_1_DELIMITED);
    w.fork();
    w.uint32(FIELD_1_DELIMITED);
    w.string(key);
    w.uint32(FIELD_2_DELIMITED);
    w.fork();
    writeValue(w, fields[key] as Value);
    w.join();
    w.join();
  }
  const unknown = unknownOf(struct);
  if (unknown !== undefined) writeUnknown(w, unknown);
}

function writeListValueMessage(w: ProtoWriter, list: ListValue): void {
  if (list.$typeName !== "google.protobuf.ListValue") bail();
  for (const item of list.values) {
    w.uint32(FIELD_1_DELIMITED);
    w.fork();
    writeValue(w, item);
    w.join();
  }
  const unknown = unknownOf(list);
  if (unknown !== undefined) writeUnknown(w, unknown);
}
