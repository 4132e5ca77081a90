/**
 * Reading the fields of a platform service's JSON answer into the SDK's
 * result types. A field that is absent, null or of another type reads as the
 * result type's default (the reference's dataclass defaults), so an older or
 * newer service build never makes a client throw a `TypeError`; an answer
 * that is not a JSON object at all is the caller's NovaOSServerError
 * (`objectAnswer`).
 */
import { NovaOSServerError } from "../errors/novaos-errors.js";

export type JsonRecord = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` when it is a JSON object, else NovaOSServerError naming what answered it. */
export function objectAnswer(value: unknown, what: string): JsonRecord {
  if (isRecord(value)) return value;
  throw new NovaOSServerError(`${what} answered ${value === null ? "null" : typeof value}, not a JSON object`, {
    details: { body: value },
  });
}

export const stringField = (value: unknown, fallback = ""): string => (typeof value === "string" ? value : fallback);

export const optionalString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

export const numberField = (value: unknown, fallback = 0): number =>
  typeof value === "number" && Number.isFinite(value) ? value : fallback;

export const optionalNumber = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

export const booleanField = (value: unknown, fallback = false): boolean =>
  typeof value === "boolean" ? value : fallback;

/** The items of an array that `read` accepts (it answers undefined to skip one); [] for anything else. */
export function arrayField<T>(value: unknown, read: (item: unknown) => T | undefined): T[] {
  if (!Array.isArray(value)) return [];
  const out: T[] = [];
  for (const item of value) {
    const entry = read(item);
    if (entry !== undefined) out.push(entry);
  }
  return out;
}

export const stringArray = (value: unknown): string[] => arrayField(value, optionalString);

export const optionalRecord = (value: unknown): Record<string, unknown> | undefined =>
  isRecord(value) ? { ...value } : undefined;
