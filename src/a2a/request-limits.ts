/**
 * How much one request may hold. The body cap (10 MiB) bounds bytes, not
 * work: ten megabytes of tiny JSON values cost seconds to parse, decode, keep
 * and write back, during which the process answers nobody. A request body
 * (or a gRPC message) may hold at most `MAX_REQUEST_VALUES` JSON values; more
 * is refused with -32602 (HTTP 400, gRPC INVALID_ARGUMENT) naming the limit,
 * before `JSON.parse` where the text is at hand, during the decode otherwise.
 *
 * A JSON value is anything a parser makes: every object, array, string,
 * number, boolean and null, at any depth, the envelope included; an object
 * member counts twice (its name is a string to make and to hash, and costs
 * about what its value does). Long strings cost one value each: the limit
 * is on work, the body cap on bytes.
 *
 * A binary request (gRPC) is counted on the wire before it is decoded
 * (`countBinaryValues`), by a rule that never counts more than the JSON
 * form of the same message holds, so the two forms are refused alike.
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { BAD_REQUEST_TYPE } from "./error-wire.js";
import { InvalidParamsError, JSONParseError } from "./errors.js";

/** JSON values one request may hold. See docs/decisions.md. */
export const MAX_REQUEST_VALUES = 100_000;

/** The -32602 refusal of a request holding more than `limit` JSON values. */
export function tooManyValues(limit: number): InvalidParamsError {
  const description = `The request holds more than ${limit} JSON values (the limit MAX_REQUEST_VALUES)`;
  return new InvalidParamsError(description, {
    metadata: { limit: "MAX_REQUEST_VALUES", maxValues: String(limit) },
    errorDetails: [{ "@type": BAD_REQUEST_TYPE, fieldViolations: [{ field: "", description }] }],
  });
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function isJsonSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The index of the quote closing the string whose content starts at `from` (the text's length if none). */
function stringEnd(text: Uint8Array, from: number): number {
  for (;;) {
    const quote = text.indexOf(QUOTE, from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * The number of JSON values (member names included) in a JSON text, counted
 * without parsing it, or the first count past `stopAt`. Every value but the
 * root follows a comma or opens a non-empty container, and every member name
 * is followed by a colon, so the count is one, plus the commas, the colons and
 * the non-empty objects and arrays (outside strings). Exact for valid JSON;
 * for anything else a number the parser will not get to use.
 */
export function countJsonTextValues(text: Uint8Array, stopAt = Number.POSITIVE_INFINITY): number {
  let count = 1;
  const length = text.length;
  for (let i = 0; i < length && count <= stopAt; i++) {
    const c = text[i];
    if (c === QUOTE) i = stringEnd(text, i + 1);
    else if (c === COMMA || c === COLON) count++;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      let next = i + 1;
      while (isJsonSpace(text[next])) next++;
      if (text[next] !== (c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) count++;
    }
  }
  return count;
}

/** `countJsonTextValues` of a parsed value, or the first count past `stopAt`. Iterative: depth costs no stack. */
export function countJsonValues(value: unknown, stopAt = Number.POSITIVE_INFINITY): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && count <= stopAt) {
    const x = pending.pop();
    count++;
    if (typeof x !== "object" || x === null) continue;
    if (Array.isArray(x)) for (let i = 0; i < x.length; i++) pending.push(x[i]);
    else {
      const keys = Object.keys(x);
      count += keys.length;
      for (const key of keys) pending.push((x as Record<string, unknown>)[key]);
    }
  }
  return count;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A request body's JSON: JSONParseError (-32700) for text that is not UTF-8
 * JSON, the -32602 `tooManyValues` refusal, before parsing, for a body with
 * more than `maxValues` values. A body shorter than `maxValues` bytes is not
 * counted: the count is one plus at most one per byte (a comma, a colon or an
 * opening bracket), so it cannot pass the limit.
 */
export function parseRequestJson(body: Uint8Array, maxValues = MAX_REQUEST_VALUES): unknown {
  if (body.byteLength >= maxValues && countJsonTextValues(body, maxValues) > maxValues) throw tooManyValues(maxValues);
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    throw new JSONParseError();
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new JSONParseError();
  }
}

/**
 * How the wire walk reads the inside of one length-delimited value: what
 * each field occurrence in it counts, what opening it counts, and the
 * fields that open a further message, by number.
 */
interface WirePlan {
  readonly weight: number;
  readonly opening: number;
  readonly nested: Map<number, WirePlan>;
  /** A group, closed by its end tag rather than by a length. */
  readonly group?: true;
}

const NO_FIELDS = new Map<number, WirePlan>();
const GROUP: WirePlan = { weight: 1, opening: 0, nested: NO_FIELDS, group: true };
const plans = new WeakMap<DescMessage, WirePlan>();

/** The plan of a message of `desc` (made once per type; cycles such as Value → Struct → Value share plans). */
function planOf(desc: DescMessage): WirePlan {
  let plan = plans.get(desc);
  if (plan) return plan;
  const nested = new Map<number, WirePlan>();
  // Inside a google.protobuf.Value nothing counts: the Value was counted where it occurs.
  plan = { weight: desc.typeName === "google.protobuf.Value" ? 0 : 1, opening: 0, nested };
  plans.set(desc, plan);
  for (const field of desc.fields) {
    if (field.fieldKind === "map") {
      // An entry counts two, as a member in JSON: its key and value fields count nothing more.
      const value = field.mapKind === "message" ? new Map([[2, planOf(field.message)]]) : NO_FIELDS;
      nested.set(field.number, { weight: 0, opening: 1, nested: value });
    } else if (field.fieldKind === "message" || (field.fieldKind === "list" && field.listKind === "message")) {
      nested.set(field.number, planOf(field.message));
    }
  }
  return plan;
}

/**
 * The number of values in a binary protobuf message of `schema`, counted on
 * the wire without decoding it, or the first count past `stopAt`. Every field
 * occurrence at any depth counts one, a map entry two (its key and its
 * value, as an object member in JSON), and the fields inside a
 * `google.protobuf.Value` nothing (the Value was counted where it occurs).
 * So a message never counts more here than its JSON form holds values (a
 * member there is two, a message an object of its own), and what the JSON
 * bindings accept is accepted here. Unknown fields count like known ones,
 * groups included. Bytes the decoder would refuse end the count early.
 * Iterative, allocation-free, and linear in the bytes.
 */
export function countBinaryValues(schema: DescMessage, bytes: Uint8Array, stopAt = Number.POSITIVE_INFINITY): number {
  const outerPlans: WirePlan[] = [];
  const outerEnds: number[] = [];
  let plan = planOf(schema);
  let end = bytes.length;
  let count = 0;
  let pos = 0;
  for (;;) {
    if (pos >= end) {
      // Past the end of its message, or a group never closed: the decoder refuses it.
      if (outerPlans.length === 0 || pos > end || plan.group) return count;
      plan = outerPlans.pop() as WirePlan;
      end = outerEnds.pop() as number;
      continue;
    }
    // The tag: a varint, of which the decoder keeps the low 32 bits (so does this, for lengths too).
    let tag = bytes[pos++] as number;
    if (tag >= 0x80) {
      tag = varint32(bytes, pos - 1);
      pos = varintEnd;
      if (tag < 0) return count;
    }
    count += plan.weight;
    if (count > stopAt) return count;
    switch (tag & 7) {
      case 0:
        while ((bytes[pos] ?? 0) >= 0x80) pos++;
        pos++;
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2: {
        let length = bytes[pos++] ?? -1;
        if (length >= 0x80) {
          length = varint32(bytes, pos - 1);
          pos = varintEnd;
        }
        if (length < 0 || pos + length > end) return count;
        const inner = plan.nested.get(tag >>> 3);
        if (!inner) {
          pos += length;
          break;
        }
        count += inner.opening;
        outerPlans.push(plan);
        outerEnds.push(end);
        plan = inner;
        end = pos + length;
        break;
      }
      case 3:
        outerPlans.push(plan);
        outerEnds.push(end);
        plan = GROUP;
        break;
      case 4:
        if (!plan.group) return count;
        plan = outerPlans.pop() as WirePlan;
        end = outerEnds.pop() as number;
        break;
      default:
        return count;
    }
  }
}

/** Where the last `varint32` ended. */
let varintEnd = 0;

/** The varint at `at` as the decoder reads a 32-bit one (at most ten bytes, the low 32 bits kept); -1 if cut off. */
function varint32(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let i = 0; i < 10; i++) {
    const byte = bytes[at + i];
    if (byte === undefined) return -1;
    if (i < 5) value += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) {
      varintEnd = at + i + 1;
      return value % 2 ** 32;
    }
  }
  return -1;
}
