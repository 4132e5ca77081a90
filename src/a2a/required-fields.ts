/**
 * Spec §5.7: fields annotated `(google.api.field_behavior) = REQUIRED` must be
 * present. Read from the generated descriptors, so a spec bump changes the
 * rules with the proto. Servers reject requests that miss one; writers emit
 * every REQUIRED field even at its zero value (e.g. `nextPageToken: ""`).
 */
import { type DescField, type DescMessage, getOption, type MessageShape, ScalarType } from "@bufbuild/protobuf";
import { type ReflectMessage, reflect } from "@bufbuild/protobuf/reflect";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { FieldBehavior, field_behavior } from "../../gen/google/api/field_behavior_pb.js";

export interface FieldViolation {
  /** JSON path of the field, e.g. `message.parts`. */
  field: string;
  description: string;
}

function isRequired(field: DescField): boolean {
  return getOption(field, field_behavior).includes(FieldBehavior.REQUIRED);
}

const requiredCache = new WeakMap<DescMessage, readonly DescField[]>();

/** The REQUIRED fields of a message type. */
export function requiredFields(schema: DescMessage): readonly DescField[] {
  let fields = requiredCache.get(schema);
  if (!fields) {
    fields = schema.fields.filter(isRequired);
    requiredCache.set(schema, fields);
  }
  return fields;
}

function isWellKnown(schema: DescMessage): boolean {
  return schema.typeName.startsWith("google.protobuf.");
}

function isMissing(m: ReflectMessage, field: DescField): boolean {
  if (!m.isSet(field)) return true;
  // A REQUIRED list must hold at least one element (§5.7).
  return field.fieldKind === "list" && (m.get(field) as { size: number }).size === 0;
}

function collect(m: ReflectMessage, path: string, out: FieldViolation[]): void {
  if (isWellKnown(m.desc)) return;
  for (const field of requiredFields(m.desc)) {
    if (isMissing(m, field)) out.push({ field: path + field.jsonName, description: `${field.jsonName} is required` });
  }
  for (const field of m.desc.fields) {
    if (!m.isSet(field)) continue;
    if (field.fieldKind === "message") {
      collect(m.get(field) as ReflectMessage, `${path}${field.jsonName}.`, out);
    } else if (field.fieldKind === "list" && field.listKind === "message") {
      let i = 0;
      for (const item of m.get(field) as Iterable<ReflectMessage>) {
        collect(item, `${path}${field.jsonName}[${i++}].`, out);
      }
    } else if (field.fieldKind === "map" && field.mapKind === "message") {
      for (const [key, value] of m.get(field) as Iterable<[unknown, ReflectMessage]>) {
        collect(value, `${path}${field.jsonName}[${String(key)}].`, out);
      }
    }
  }
}

/** Every REQUIRED field missing in `message` and the messages it holds. */
export function requiredFieldViolations<S extends DescMessage>(schema: S, message: MessageShape<S>): FieldViolation[] {
  const out: FieldViolation[] = [];
  collect(reflect(schema, message), "", out);
  return out;
}

interface PresencePlan {
  /** REQUIRED implicit-presence fields and their JSON zero value. */
  readonly zeros: readonly (readonly [string, unknown])[];
  /** Message-typed fields whose types (transitively) have zeros to add. */
  readonly nested: readonly DescField[];
}

const planCache = new WeakMap<DescMessage, PresencePlan | null>();

function zeroJson(field: DescField): unknown {
  switch (field.fieldKind) {
    case "list":
      return [];
    case "map":
      return {};
    case "enum":
      return field.enum.values.find((v) => v.number === 0)?.name ?? 0;
    case "scalar":
      switch (field.scalar) {
        case ScalarType.STRING:
        case ScalarType.BYTES:
          return "";
        case ScalarType.BOOL:
          return false;
        case ScalarType.INT64:
        case ScalarType.UINT64:
        case ScalarType.SINT64:
        case ScalarType.FIXED64:
        case ScalarType.SFIXED64:
          return "0";
        default:
          return 0;
      }
    default:
      return undefined;
  }
}

/** The message type a field holds (alone, as list items or as map values), if any. */
export function messageOf(field: DescField): DescMessage | undefined {
  if (field.fieldKind === "message") return field.message;
  if (field.fieldKind === "list" && field.listKind === "message") return field.message;
  if (field.fieldKind === "map" && field.mapKind === "message") return field.message;
  return undefined;
}

/** null when nothing in the type's tree needs a zero added. Cycles resolve to "no plan" while being built. */
function presencePlan(schema: DescMessage): PresencePlan | null {
  if (planCache.has(schema)) return planCache.get(schema) ?? null;
  planCache.set(schema, null);
  if (isWellKnown(schema)) return null;
  const zeros = requiredFields(schema)
    .filter(
      (f) =>
        f.fieldKind === "list" ||
        f.fieldKind === "map" ||
        ((f.fieldKind === "scalar" || f.fieldKind === "enum") && f.presence === FeatureSet_FieldPresence.IMPLICIT),
    )
    .map((f) => [f.jsonName, zeroJson(f)] as const);
  const nested = schema.fields.filter((f) => {
    const m = messageOf(f);
    return m !== undefined && (m === schema || presencePlan(m) !== null);
  });
  const plan = zeros.length > 0 || nested.length > 0 ? { zeros, nested } : null;
  planCache.set(schema, plan);
  return plan;
}

/** Adds every REQUIRED field that proto3 JSON omitted at its zero value, in place on fresh JSON. */
export function addRequiredZeros(schema: DescMessage, json: Record<string, unknown>): void {
  const plan = presencePlan(schema);
  if (!plan) return;
  for (const [key, zero] of plan.zeros) {
    if (!(key in json)) json[key] = typeof zero === "object" && zero !== null ? (Array.isArray(zero) ? [] : {}) : zero;
  }
  for (const field of plan.nested) {
    const value = json[field.jsonName];
    const sub = messageOf(field) as DescMessage;
    if (value === undefined || value === null) continue;
    if (field.fieldKind === "list") {
      for (const item of value as Record<string, unknown>[]) addRequiredZeros(sub, item);
    } else if (field.fieldKind === "map") {
      for (const item of Object.values(value as Record<string, Record<string, unknown>>)) addRequiredZeros(sub, item);
    } else {
      addRequiredZeros(sub, value as Record<string, unknown>);
    }
  }
}
