/**
 * Strict enums on requests. proto3 enums are open and protobuf-es, told to
 * ignore unknown fields, also drops an enum name it does not know: the field
 * is then left at its zero value, which for `ListTasksRequest.status` means
 * "no filter", so `status: "INVALID_STATUS"` listed every task. A request
 * naming a value its enum does not have (by name or by number) is refused
 * instead, naming the field and the values it takes; unknown fields stay
 * ignored (§5.7), and replies are read leniently as before.
 *
 * Two walks, read from the descriptors: one over request JSON (before
 * protobuf-es drops what it does not know), one over a decoded message (a
 * binary request keeps an unknown number as is). The generated codecs make
 * the same check on their fast path and leave the message to these walks
 * when it fails (json-codec-runtime.ts).
 */
import type { DescEnum, DescField, DescMessage, MessageShape } from "@bufbuild/protobuf";
import { type FieldViolation, messageOf } from "./required-fields.js";

const numbersOf = new WeakMap<DescEnum, ReadonlySet<number>>();
const namesOf = new WeakMap<DescEnum, ReadonlySet<string>>();

/** The numbers an enum declares. */
export function enumNumbers(e: DescEnum): ReadonlySet<number> {
  let numbers = numbersOf.get(e);
  if (!numbers) {
    numbers = new Set(e.values.map((v) => v.number));
    numbersOf.set(e, numbers);
  }
  return numbers;
}

function enumNames(e: DescEnum): ReadonlySet<string> {
  let names = namesOf.get(e);
  if (!names) {
    names = new Set(e.values.map((v) => v.name));
    namesOf.set(e, names);
  }
  return names;
}

/** What a caller may send: every value but the zero `…_UNSPECIFIED` one, by name. */
function accepted(e: DescEnum): string {
  return e.values
    .filter((v) => !(v.number === 0 && v.name.endsWith("_UNSPECIFIED")))
    .map((v) => v.name)
    .join(", ");
}

function violation(e: DescEnum, path: string, value: unknown): FieldViolation {
  return {
    field: path,
    description: `${path}: ${JSON.stringify(value)} is not a ${e.name} value; must be one of: ${accepted(e)}`,
  };
}

function enumOf(field: DescField): DescEnum | undefined {
  if (field.fieldKind === "enum") return field.enum;
  if (field.fieldKind === "list" && field.listKind === "enum") return field.enum;
  if (field.fieldKind === "map" && field.mapKind === "enum") return field.enum;
  return undefined;
}

/** The message type a field holds, unless it is a well-known type (Struct, Value, Timestamp…: no enum a caller chooses). */
function callerMessageOf(field: DescField): DescMessage | undefined {
  const m = messageOf(field);
  return m && !m.typeName.startsWith("google.protobuf.") ? m : undefined;
}

/** Each item of a field's JSON value with its path: the value, a list's items, a map's values. */
function itemsOf(field: DescField, value: unknown, path: string): [unknown, string][] {
  if (field.fieldKind === "list") return Array.isArray(value) ? value.map((v, i) => [v, `${path}[${i}]`]) : [];
  if (field.fieldKind === "map") {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
    return Object.entries(value).map(([k, v]) => [v, `${path}[${k}]`]);
  }
  return [[value, path]];
}

/** A JSON value protobuf-es reads as a known value of `e` (or as unset: null). */
function knownJson(e: DescEnum, value: unknown): boolean {
  if (value === null) return true;
  if (typeof value === "string") return enumNames(e).has(value);
  if (typeof value === "number") return enumNumbers(e).has(value);
  // Anything else is not an enum at all: protobuf-es refuses it with its own message.
  return true;
}

function walkJson(schema: DescMessage, json: unknown, prefix: string, out: FieldViolation[], depth: number): void {
  if (typeof json !== "object" || json === null || Array.isArray(json) || depth > 100) return;
  const record = json as Record<string, unknown>;
  for (const field of schema.fields) {
    const key = Object.hasOwn(record, field.jsonName) ? field.jsonName : field.name;
    if (!Object.hasOwn(record, key)) continue;
    const e = enumOf(field);
    const m = e ? undefined : callerMessageOf(field);
    if (!e && !m) continue;
    for (const [item, path] of itemsOf(field, record[key], prefix + field.jsonName)) {
      if (e && !knownJson(e, item)) out.push(violation(e, path, item));
      else if (m) walkJson(m, item, `${path}.`, out, depth + 1);
    }
  }
}

/** Every enum value of a request's JSON that its enum does not declare, by JSON path. */
export function enumJsonViolations(schema: DescMessage, json: unknown): FieldViolation[] {
  const out: FieldViolation[] = [];
  walkJson(schema, json, "", out, 0);
  return out;
}

function fieldValue(message: Record<string, unknown>, field: DescField): unknown {
  if (!field.oneof) return message[field.localName];
  const oneof = message[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
  return oneof?.case === field.localName ? oneof.value : undefined;
}

function walkMessage(schema: DescMessage, message: Record<string, unknown>, prefix: string, out: FieldViolation[]) {
  for (const field of schema.fields) {
    const value = fieldValue(message, field);
    if (value === undefined) continue;
    const e = enumOf(field);
    const m = e ? undefined : callerMessageOf(field);
    if (!e && !m) continue;
    for (const [item, path] of itemsOf(field, value, prefix + field.jsonName)) {
      if (e && !enumNumbers(e).has(item as number)) out.push(violation(e, path, item));
      else if (m && item !== undefined) walkMessage(m, item as Record<string, unknown>, `${path}.`, out);
    }
  }
}

/** Every enum number of a decoded request that its enum does not declare, by JSON path. */
export function enumValueViolations<S extends DescMessage>(schema: S, message: MessageShape<S>): FieldViolation[] {
  const out: FieldViolation[] = [];
  walkMessage(schema, message as unknown as Record<string, unknown>, "", out);
  return out;
}
