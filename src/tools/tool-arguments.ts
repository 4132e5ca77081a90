/**
 * Tool arguments as the JSON the gateway receives. Checked before anything
 * is sent: an object (never an array or a scalar), and nothing JSON would
 * silently change or cannot carry (NaN or an infinity would become null, a
 * function or a symbol would vanish, a BigInt or a cycle would throw).
 */
import { NovaOSValidationError } from "../errors/novaos-errors.js";

function strict(key: string, value: unknown): unknown {
  const at = key === "" ? "the value" : `the value of '${key}'`;
  if (typeof value === "number" && !Number.isFinite(value)) throw new TypeError(`${at} is ${value}`);
  if (typeof value === "bigint") throw new TypeError(`${at} is a BigInt`);
  if (typeof value === "function" || typeof value === "symbol") throw new TypeError(`${at} is a ${typeof value}`);
  return value;
}

/** `value` as JSON text, or NovaOSValidationError naming `field` when it is not a JSON object. */
export function encodeJsonObject(value: unknown, field: string): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    throw new NovaOSValidationError(`${field} must be a JSON object, got ${got}`, { field });
  }
  try {
    return JSON.stringify(value, strict);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new NovaOSValidationError(`${field} is not JSON: ${reason}`, { field, cause: error });
  }
}

/** The UTF-8 size of `text` in bytes. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
