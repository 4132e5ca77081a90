/**
 * The JSON values a decoded message carries in its `google.protobuf.Struct`
 * and `Value` fields (metadata, data parts, extension params), read from the
 * descriptors: the reflective twin of the generated codecs' validity checks,
 * used when those cannot answer and to say where the problem is.
 *
 * JSON has no NaN or Infinity, yet `1e400` parses to Infinity and a binary
 * Value may hold NaN. A message holding one is refused on every binding
 * (`nonFiniteViolations`), so no store ever holds a task that cannot be
 * written back; a writer that meets one anyway (a skill's output, a store of
 * the application's) writes `null` in its place (`withFiniteNumbers`), as
 * `JSON.stringify` does, instead of failing the whole reply.
 */
import { clone, type DescField, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import type { Value } from "@bufbuild/protobuf/wkt";
import { a2aJsonCodecs } from "../../gen/a2a_json.js";
import type { FieldViolation } from "./required-fields.js";

const STRUCT = "google.protobuf.Struct";
const VALUE = "google.protobuf.Value";
const LIST_VALUE = "google.protobuf.ListValue";

/** Where a non-finite number sits, and how to put `null` there. */
type Found = (path: string, setNull: () => void) => void;

/** What a walk does: `found` for each number that is not finite, `counted` for each value visited. */
interface Walk {
  readonly found: Found;
  readonly counted: (n: number) => void;
}

function visitJson(x: unknown, path: string, walk: Walk, setNull: () => void): void {
  if (typeof x === "number") {
    if (!Number.isFinite(x)) walk.found(path, setNull);
    return;
  }
  if (typeof x !== "object" || x === null) return;
  if (Array.isArray(x)) {
    walk.counted(x.length);
    for (let i = 0; i < x.length; i++) {
      visitJson(x[i], `${path}[${i}]`, walk, () => {
        x[i] = null;
      });
    }
    return;
  }
  const record = x as Record<string, unknown>;
  const keys = Object.keys(record);
  walk.counted(2 * keys.length);
  for (const key of keys) {
    visitJson(record[key], `${path}.${key}`, walk, () => {
      record[key] = null;
    });
  }
}

function visitValue(v: Value, path: string, walk: Walk): void {
  const kind = v.kind;
  switch (kind.case) {
    case "numberValue":
      if (!Number.isFinite(kind.value)) {
        walk.found(path, () => {
          v.kind = { case: "nullValue", value: 0 };
        });
      }
      return;
    case "structValue": {
      const keys = Object.keys(kind.value.fields);
      walk.counted(2 * keys.length);
      for (const key of keys) visitValue(kind.value.fields[key] as Value, `${path}.${key}`, walk);
      return;
    }
    case "listValue":
      walk.counted(kind.value.values.length);
      kind.value.values.forEach((item, i) => {
        visitValue(item, `${path}[${i}]`, walk);
      });
      return;
    default:
      return;
  }
}

const KEEP = () => undefined;

/** One value of a message-typed field (a singular value, a list item, a map value). */
function visitMessageValue(schema: DescMessage, value: unknown, path: string, walk: Walk): void {
  switch (schema.typeName) {
    case STRUCT:
      // protobuf-es holds a Struct field as a plain JsonObject: its root is an object, never replaced.
      visitJson(value, path, walk, KEEP);
      return;
    case VALUE:
      visitValue(value as Value, path, walk);
      return;
    case LIST_VALUE:
      visitValue({ $typeName: VALUE, kind: { case: "listValue", value } } as Value, path, walk);
      return;
    default:
      if (!schema.typeName.startsWith("google.protobuf.")) {
        visitMessage(schema, value as Record<string, unknown>, `${path}.`, walk);
      }
  }
}

function fieldValue(message: Record<string, unknown>, field: DescField): unknown {
  if (!field.oneof) return message[field.localName];
  const oneof = message[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
  return oneof?.case === field.localName ? oneof.value : undefined;
}

function visitMessage(schema: DescMessage, message: Record<string, unknown>, prefix: string, walk: Walk): void {
  walk.counted(1);
  for (const field of schema.fields) {
    const value = fieldValue(message, field);
    if (value === undefined || value === null) continue;
    const path = prefix + field.jsonName;
    if (field.fieldKind === "message") {
      visitMessageValue(field.message, value, path, walk);
    } else if (field.fieldKind === "list" && field.listKind === "message") {
      (value as unknown[]).forEach((item, i) => {
        visitMessageValue(field.message, item, `${path}[${i}]`, walk);
      });
    } else if (field.fieldKind === "map" && field.mapKind === "message") {
      const entries = value as Record<string, unknown>;
      for (const key of Object.keys(entries)) visitMessageValue(field.message, entries[key], `${path}[${key}]`, walk);
    }
  }
}

/**
 * Every number of `message`'s Struct and Value fields that JSON cannot write,
 * by JSON path (`message.metadata.x`, `message.parts[0].data[2]`). `counted`
 * sees the number of values visited, e.g. to enforce a request's limit.
 */
export function nonFiniteViolations<S extends DescMessage>(
  schema: S,
  message: MessageShape<S>,
  counted: (n: number) => void = () => undefined,
): FieldViolation[] {
  const out: FieldViolation[] = [];
  const found: Found = (path) => {
    out.push({ field: path, description: `${path}: a number JSON cannot carry (NaN or Infinity)` });
  };
  visitMessage(schema, message as unknown as Record<string, unknown>, "", { found, counted });
  return out;
}

/** `message` itself when every number is finite; otherwise a copy with `null` in place of each one that is not. */
export function withFiniteNumbers<S extends DescMessage>(schema: S, message: MessageShape<S>): MessageShape<S> {
  try {
    // The generated check answers the common case (nothing to replace) without walking descriptors.
    if (a2aJsonCodecs.get(schema)?.valid(message)) return message;
  } catch {
    // A message the generated check does not read: the walk below decides.
  }
  const walk = (m: MessageShape<S>, found: Found) =>
    visitMessage(schema, m as unknown as Record<string, unknown>, "", { found, counted: () => undefined });
  let finite = true;
  walk(message, () => {
    finite = false;
  });
  if (finite) return message;
  const copy = clone(schema, message);
  walk(copy, (_path, setNull) => setNull());
  return copy;
}

/** `value` itself when every number in it is finite; otherwise a copy with `null` in place of each one that is not. */
export function withFiniteJson<T extends JsonValue | undefined>(value: T): T {
  // Most values are no container (a skill's metadata is mostly absent): nothing to walk, and a root of its own.
  if (typeof value !== "object" || value === null) {
    return (typeof value === "number" && !Number.isFinite(value) ? null : value) as T;
  }
  let finite = true;
  const walk = (found: Found) => ({ found, counted: () => undefined });
  visitJson(
    value,
    "",
    walk(() => {
      finite = false;
    }),
    KEEP,
  );
  if (finite) return value;
  const copy = structuredClone(value);
  visitJson(
    copy,
    "",
    walk((_path, setNull) => setNull()),
    KEEP,
  );
  return copy;
}
