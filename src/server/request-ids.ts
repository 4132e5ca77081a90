/**
 * The ids a request names (a task, its context, the tasks it references, a
 * push config, the tenant) are keys every task store must hold exactly. Two
 * kinds of text cannot be: NUL, which PostgreSQL `text` refuses, and an
 * unpaired surrogate, which UTF-8 has no form for. Such an id is refused up
 * front as invalid params, on every store alike, instead of being accepted by
 * the in-memory store and failing a save in fleet mode (decision S694).
 */
import { invalidParams } from "../a2a/protojson.js";

/** NUL, or (in `u` mode a surrogate pair is one code point, so `\p{Cs}` matches only) an unpaired surrogate. */
const UNSTORABLE = /[\0\p{Cs}]/u;

/** Whether a store can hold `value` exactly as a key. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** Refuses `value` (the request's `field`) as invalid params unless every store can hold it. */
export function checkId(value: string, field: string): void {
  if (value !== "" && !isStorableText(value)) {
    throw invalidParams([{ field, description: `${field} holds NUL or an unpaired surrogate, which no id may` }]);
  }
}

/** `checkId` for each of a list of ids (`field[i]`). */
export function checkIds(values: readonly string[], field: string): void {
  for (let i = 0; i < values.length; i++) checkId(values[i] as string, `${field}[${i}]`);
}
