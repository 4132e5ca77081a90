/**
 * What the generated ProtoJSON codecs (`gen/a2a_json_codecs.ts`, made by
 * tools/protoc-gen-a2a-json.ts) share: the well-known types they write and
 * read by hand (Timestamp, Struct as a JSON object, Value), strings, bytes,
 * and the bail-out.
 *
 * A generated codec is a fast path, never a second opinion: it handles the
 * inputs it can handle exactly as protobuf-es's `toJson`/`fromJson` (plus
 * the REQUIRED rules of required-fields.ts) would, byte for byte and field
 * for field, and bails out on anything else (a type it does not expect, a
 * string number, an unknown enum name or, in a request, number, a missing
 * REQUIRED field, a duplicate key...). The caller then runs the reflective path, which answers (or
 * fails) as it always did. test/a2a/json-codecs.test.ts holds the two paths
 * to the same results over many generated messages.
 *
 * Two rules hold on both paths (decided in protojson.ts, enforced here for
 * the fast one): a number JSON cannot write (NaN, ±Infinity; `1e400` parses
 * to Infinity) is never read, and is written as `null`; and a read spends
 * one unit of a value budget per JSON value it visits, so a request with
 * more values than its budget is refused before it is fully read.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { protoInt64 } from "@bufbuild/protobuf";
import { base64Decode, base64Encode, getTextEncoding } from "@bufbuild/protobuf/wire";
import type { Timestamp, Value } from "@bufbuild/protobuf/wkt";

/** A generated codec for one message type. */
export interface JsonCodec<T = unknown> {
  /** The message as JSON text, exactly `JSON.stringify(encodeMessage(schema, message))`. */
  write(message: T): string;
  /** The message `json` decodes to, exactly what `decodeMessage` returns (REQUIRED checked when `required`). */
  read(json: unknown, required: boolean, depth: number): T;
  /**
   * True when the message is one `read` could have returned (e.g. one decoded
   * from binary): no REQUIRED field missing, no number that is not finite, in
   * the message or the messages it holds. Spends the value budget. False
   * sends the caller to the reflective checks for the details.
   */
  valid(message: T): boolean;
}

/** Thrown (never escapes a codec's caller) when the fast path cannot answer exactly. */
export const BAIL: unique symbol = Symbol("json-codec-bail");

export function bail(): never {
  throw BAIL;
}

/** Thrown by a read or a validity check that has spent its value budget; the caller refuses the message. */
export const OVER_BUDGET: unique symbol = Symbol("json-codec-over-budget");

/**
 * JSON values the current read may still visit: set before a read, reset to
 * unlimited after it. Reads are synchronous, so one budget serves them all.
 */
let budget = Number.POSITIVE_INFINITY;

/** Sets the value budget of the read or check about to run. */
export function setValueBudget(values: number): void {
  budget = values;
}

/**
 * Spends `n` values (two per object member: its name and its value; one per
 * array item or message); throws OVER_BUDGET past the budget.
 */
export function spend(n: number): void {
  budget -= n;
  if (budget < 0) throw OVER_BUDGET;
}

/** A number as JSON text: `null` for NaN and ±Infinity, which JSON cannot write (as `JSON.stringify` does). */
function writeNumber(x: number): string {
  return Number.isFinite(x) ? JSON.stringify(x) : "null";
}

/**
 * Nesting (messages and JSON values) beyond which the readers bail, well
 * inside protobuf-es's recursion limit of 100, so that limit keeps deciding.
 */
export const MAX_DEPTH = 64;

export const hasOwn: (o: object, key: PropertyKey) => boolean = (o, key) => Object.hasOwn(o, key);

// ------------------------------------------------------------------ scalars

/** What JSON.stringify escapes in a string: quote, backslash, control characters, (lone) surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must be escaped.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Strings of the text being written found to need no escaping, by `slot`: a
 * task repeats its ids (in its messages, its history) and often its text, and
 * an equality test costs less than a scan. Short strings only, forgotten when
 * a writer ends its text (`endWrite`), so a written task is not kept alive.
 */
const SLOTS = 32;
const safe: string[] = Array.from({ length: SLOTS }, () => "");
const MAX_SAFE_LENGTH = 128;

/** Ends a writer's text: forgets its strings (a loop: `fill` costs more for so few). */
export function endWrite(): void {
  for (let i = 0; i < SLOTS; i++) safe[i] = "";
}

/** A string's place in `safe`: from its length and its first and last characters, which tell random ids apart. */
function slot(s: string): number {
  return (s.length + 7 * s.charCodeAt(0) + s.charCodeAt(s.length - 1)) & (SLOTS - 1);
}

function needsEscape(s: string): boolean {
  if (s.length > MAX_SAFE_LENGTH) return NEEDS_ESCAPE.test(s);
  const i = slot(s);
  if (safe[i] === s) return false;
  if (NEEDS_ESCAPE.test(s)) return true;
  safe[i] = s;
  return false;
}

/**
 * `text` (ending with a string's opening quote) followed by `s` as
 * `JSON.stringify` writes it between the quotes, and `close` (the closing
 * quote and what follows it). Most strings need no escaping: they are
 * appended as they are, without a copy.
 */
export function putString(text: string, s: string, close = '"'): string {
  if (!needsEscape(s)) return text + s + close;
  const json = JSON.stringify(s);
  return text + json.substring(1, json.length - 1) + close;
}

/** A string field's value: protobuf-es accepts well-formed UTF-16 only. */
export function readString(x: unknown): string {
  if (typeof x !== "string" || !getTextEncoding().checkUtf8(x)) bail();
  return x;
}

export function readBool(x: unknown): boolean {
  if (typeof x !== "boolean") bail();
  return x;
}

/** int32 from a JSON number (string-encoded numbers take the reflective path). */
export function readInt32(x: unknown): number {
  if (typeof x !== "number" || !Number.isInteger(x) || x > 0x7fffffff || x < -0x80000000) bail();
  return x;
}

export function readBytes(x: unknown): Uint8Array {
  if (typeof x !== "string") bail();
  if (x === "") return new Uint8Array(0);
  try {
    return base64Decode(x);
  } catch {
    return bail();
  }
}

/** `text` (ending with the opening quote) followed by a bytes value (standard base64 needs no escaping). */
export function putBytes(text: string, x: Uint8Array): string {
  return `${text + base64Encode(x)}"`;
}

/** A value of a `map<string, …>` field: an object, or bail. */
export function readObject(x: unknown): Record<string, unknown> {
  if (typeof x !== "object" || x === null || Array.isArray(x)) bail();
  return x as Record<string, unknown>;
}

/** A map key as protobuf-es checks it; `__proto__` is left to the reflective path. */
export function readMapKey(key: string): string {
  if (key === "__proto__") bail();
  return readString(key);
}

// ---------------------------------------------------------------- Timestamp

const TIMESTAMP_MS_MIN = Date.parse("0001-01-01T00:00:00Z");
const TIMESTAMP_MS_MAX = Date.parse("9999-12-31T23:59:59Z");
const RFC3339 =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?(?:Z|([+-][0-9][0-9]:[0-9][0-9]))$/;

/** The last second written and its `YYYY-MM-DDTHH:MM:SS` (timestamps written together are mostly in one second). */
let isoSecond = Number.NaN;
let isoPrefix = "";

/** `text` (ending with the opening quote) followed by a Timestamp's RFC 3339 text. */
export function putTimestamp(text: string, t: Timestamp): string {
  if (t.$typeName !== "google.protobuf.Timestamp") bail();
  const seconds = Number(t.seconds);
  const ms = seconds * 1000;
  if (!Number.isInteger(seconds) || ms < TIMESTAMP_MS_MIN || ms > TIMESTAMP_MS_MAX) bail();
  if (t.nanos < 0 || t.nanos > 999_999_999) bail();
  let z = 'Z"';
  if (t.nanos > 0) {
    const nanos = (t.nanos + 1_000_000_000).toString().substring(1);
    if (nanos.substring(3) === "000000") z = `.${nanos.substring(0, 3)}Z"`;
    else if (nanos.substring(6) === "000") z = `.${nanos.substring(0, 6)}Z"`;
    else z = `.${nanos}Z"`;
  }
  // toISOString() of a whole second ends in ".000Z", which protobuf-es replaces with the fraction.
  if (seconds !== isoSecond) {
    isoPrefix = new Date(ms).toISOString().substring(0, 19);
    isoSecond = seconds;
  }
  return text + isoPrefix + z;
}

export function readTimestamp(x: unknown): Timestamp {
  if (typeof x !== "string") bail();
  const match = RFC3339.exec(x);
  if (!match) bail();
  const ms = Date.parse(
    `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}${match[8] ? match[8] : "Z"}`,
  );
  if (Number.isNaN(ms) || ms < TIMESTAMP_MS_MIN || ms > TIMESTAMP_MS_MAX) bail();
  const fraction = match[7];
  return {
    $typeName: "google.protobuf.Timestamp",
    seconds: protoInt64.parse(ms / 1000),
    nanos: fraction ? Number.parseInt(`1${fraction}${"0".repeat(9 - fraction.length)}`, 10) - 1_000_000_000 : 0,
  };
}

// ------------------------------------------------------ Struct as JsonObject

/** `text` (ending with "{") followed by the rest of a `google.protobuf.Struct` field (held as a JsonObject). */
export function putStruct(text: string, x: JsonObject): string {
  if (typeof x !== "object" || x === null || Array.isArray(x)) bail();
  return putJsonObject(text, x, 0);
}

/** `text` (ending with "{") followed by the members of `x` and the closing "}". */
function putJsonObject(text: string, x: object, depth: number): string {
  const keys = Object.keys(x);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    text = putJson(putString(text + (i === 0 ? '"' : ',"'), key, '":'), (x as Record<string, unknown>)[key], depth + 1);
  }
  return `${text}}`;
}

function putJson(text: string, x: unknown, depth: number): string {
  if (depth > MAX_DEPTH) bail();
  switch (typeof x) {
    case "string":
      return putString(`${text}"`, x);
    case "number":
      return text + writeNumber(x);
    case "boolean":
      return text + (x ? "true" : "false");
    case "object": {
      if (x === null) return `${text}null`;
      if (!Array.isArray(x)) return putJsonObject(`${text}{`, x, depth);
      text += "[";
      for (let i = 0; i < x.length; i++) text = putJson(i === 0 ? text : `${text},`, x[i], depth + 1);
      return `${text}]`;
    }
    default:
      return bail();
  }
}

/** A `google.protobuf.Struct` field read into its JsonObject (a copy, as protobuf-es makes). */
export function readStruct(x: unknown, depth: number): JsonObject {
  if (typeof x !== "object" || x === null || Array.isArray(x)) bail();
  return copyJsonObject(x, depth);
}

function copyJsonObject(x: object, depth: number): JsonObject {
  const out: JsonObject = {};
  const keys = Object.keys(x);
  spend(2 * keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key === "__proto__") bail();
    out[key] = copyJson((x as Record<string, unknown>)[key], depth + 1);
  }
  return out;
}

function copyJson(x: unknown, depth: number): JsonValue {
  if (depth > MAX_DEPTH) bail();
  switch (typeof x) {
    case "number":
      if (!Number.isFinite(x)) bail();
      return x;
    case "string":
    case "boolean":
      return x;
    case "object": {
      if (x === null) return null;
      if (!Array.isArray(x)) return copyJsonObject(x, depth);
      spend(x.length);
      const out: JsonValue[] = [];
      for (let i = 0; i < x.length; i++) out.push(copyJson(x[i], depth + 1));
      return out;
    }
    default:
      return bail();
  }
}

// -------------------------------------------------------------------- Value

/** `text` followed by a `google.protobuf.Value` message as JSON. */
export function putValue(text: string, v: Value): string {
  if (v.$typeName !== "google.protobuf.Value") bail();
  return putValueKind(text, v, 0);
}

function putValueKind(text: string, v: Value, depth: number): string {
  if (depth > MAX_DEPTH) bail();
  const kind = v.kind;
  switch (kind.case) {
    case "nullValue":
      return `${text}null`;
    case "numberValue":
      if (typeof kind.value !== "number") bail();
      return text + writeNumber(kind.value);
    case "boolValue":
      if (typeof kind.value !== "boolean") bail();
      return text + (kind.value ? "true" : "false");
    case "stringValue":
      if (typeof kind.value !== "string") bail();
      return putString(`${text}"`, kind.value);
    case "structValue": {
      const fields = kind.value.fields;
      const keys = Object.keys(fields);
      text += "{";
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        text = putValueKind(putString(text + (i === 0 ? '"' : ',"'), key, '":'), fields[key] as Value, depth + 1);
      }
      return `${text}}`;
    }
    case "listValue": {
      const values = kind.value.values;
      text += "[";
      for (let i = 0; i < values.length; i++)
        text = putValueKind(i === 0 ? text : `${text},`, values[i] as Value, depth + 1);
      return `${text}]`;
    }
    default:
      return bail();
  }
}

/** A `google.protobuf.Value` message read from any JSON value. */
export function readValue(x: unknown, depth: number): Value {
  if (depth > MAX_DEPTH) bail();
  switch (typeof x) {
    case "number":
      if (!Number.isFinite(x)) bail();
      return { $typeName: "google.protobuf.Value", kind: { case: "numberValue", value: x } };
    case "string":
      return { $typeName: "google.protobuf.Value", kind: { case: "stringValue", value: x } };
    case "boolean":
      return { $typeName: "google.protobuf.Value", kind: { case: "boolValue", value: x } };
    case "object": {
      if (x === null) return { $typeName: "google.protobuf.Value", kind: { case: "nullValue", value: 0 } };
      if (Array.isArray(x)) {
        spend(x.length);
        const values: Value[] = [];
        for (let i = 0; i < x.length; i++) values.push(readValue(x[i], depth + 1));
        return {
          $typeName: "google.protobuf.Value",
          kind: { case: "listValue", value: { $typeName: "google.protobuf.ListValue", values } },
        };
      }
      const fields: Record<string, Value> = {};
      const keys = Object.keys(x);
      spend(2 * keys.length);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        if (key === "__proto__") bail();
        fields[key] = readValue((x as Record<string, unknown>)[key], depth + 1);
      }
      return {
        $typeName: "google.protobuf.Value",
        kind: { case: "structValue", value: { $typeName: "google.protobuf.Struct", fields } },
      };
    }
    default:
      return bail();
  }
}

// ---------------------------------------------------------------- validity

/** A Struct field (held as a JsonObject, e.g. decoded from binary) holds only finite numbers. Spends the budget. */
export function validStruct(x: JsonObject): boolean {
  return validJson(x, 0);
}

function validJson(x: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) bail();
  if (typeof x === "number") return Number.isFinite(x);
  if (typeof x !== "object" || x === null) return true;
  if (Array.isArray(x)) {
    spend(x.length);
    for (let i = 0; i < x.length; i++) if (!validJson(x[i], depth + 1)) return false;
    return true;
  }
  const keys = Object.keys(x);
  spend(2 * keys.length);
  for (let i = 0; i < keys.length; i++) {
    if (!validJson((x as Record<string, unknown>)[keys[i] as string], depth + 1)) return false;
  }
  return true;
}

/** A `google.protobuf.Value` message holds only finite numbers. Spends the budget. */
export function validValue(v: Value): boolean {
  return validValueKind(v, 0);
}

function validValueKind(v: Value, depth: number): boolean {
  if (depth > MAX_DEPTH) bail();
  const kind = v.kind;
  switch (kind.case) {
    case "numberValue":
      return Number.isFinite(kind.value);
    case "structValue": {
      const fields = kind.value.fields;
      const keys = Object.keys(fields);
      spend(2 * keys.length);
      for (let i = 0; i < keys.length; i++) {
        if (!validValueKind(fields[keys[i] as string] as Value, depth + 1)) return false;
      }
      return true;
    }
    case "listValue": {
      const values = kind.value.values;
      spend(values.length);
      for (let i = 0; i < values.length; i++) if (!validValueKind(values[i] as Value, depth + 1)) return false;
      return true;
    }
    default:
      return true;
  }
}
