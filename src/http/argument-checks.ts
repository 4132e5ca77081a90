/**
 * Arguments of a platform client's call, checked before anything is sent: a
 * bad one is a NovaOSValidationError naming the field, and nothing reaches
 * the network. Characters are counted as code points, as JSON Schema's
 * `maxLength` counts them; a byte cap counts UTF-8.
 */
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import { isRecord } from "./json-fields.js";

export function invalid(field: string, message: string): NovaOSValidationError {
  return new NovaOSValidationError(`${field} ${message}`, { field });
}

/** Code points in `text`, counting no further than `limit + 1`. */
function codePoints(text: string, limit: number): number {
  if (text.length <= limit) return [...text].length;
  let count = 0;
  for (const _ of text) if (++count > limit) break;
  return count;
}

/** A non-empty string of at most `maxChars` code points and `maxBytes` UTF-8 bytes. */
export function text(value: unknown, field: string, limits: { maxChars?: number; maxBytes?: number } = {}): string {
  if (typeof value !== "string" || value === "") throw invalid(field, "must be a non-empty string");
  if (limits.maxChars !== undefined && codePoints(value, limits.maxChars) > limits.maxChars) {
    throw invalid(field, `must be at most ${limits.maxChars} characters`);
  }
  if (limits.maxBytes !== undefined && Buffer.byteLength(value, "utf8") > limits.maxBytes) {
    throw invalid(field, `must be at most ${limits.maxBytes} bytes of UTF-8`);
  }
  return value;
}

export function optionalText(
  value: unknown,
  field: string,
  limits?: { maxChars?: number; maxBytes?: number },
): string | undefined {
  return value === undefined ? undefined : text(value, field, limits);
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw invalid(field, `must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

export function optionalOneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T | undefined {
  return value === undefined ? undefined : oneOf(value, allowed, field);
}

/** A whole number in [min, max]. */
export function integer(value: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ""}`);
  }
  return value;
}

export function optionalInteger(value: unknown, field: string, min: number, max?: number): number | undefined {
  return value === undefined ? undefined : integer(value, field, min, max);
}

export function optionalObject(value: unknown, field: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw invalid(field, "must be a JSON object");
  return { ...value };
}
