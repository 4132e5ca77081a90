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
 */
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
 * more than `maxValues` values.
 */
export function parseRequestJson(body: Uint8Array, maxValues = MAX_REQUEST_VALUES): unknown {
  if (countJsonTextValues(body, maxValues) > maxValues) throw tooManyValues(maxValues);
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
