/**
 * Query parameters → request fields (spec §11.5), driven by the request's
 * descriptor. Names are the proto3 JSON names (the proto names are accepted
 * too, as ProtoJSON readers do); values become their ProtoJSON form and the
 * message is then decoded by `decodeMessage`, so number, enum and timestamp
 * syntax and REQUIRED fields are checked in one place.
 */
import { type DescField, type DescMessage, type JsonObject, type JsonValue, ScalarType } from "@bufbuild/protobuf";
import { invalidParams } from "../../a2a/protojson.js";
import { parseTimestamp } from "../../a2a/timestamps.js";

/** Well-known types whose ProtoJSON form is a string, so a query value can carry them. */
const STRING_FORM_MESSAGES = new Set([
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
  "google.protobuf.FieldMask",
  "google.protobuf.StringValue",
  "google.protobuf.BytesValue",
  "google.protobuf.Int64Value",
  "google.protobuf.UInt64Value",
]);

const fieldsByName = new WeakMap<DescMessage, Map<string, DescField>>();

/** The field of `schema` called `name`, by JSON name or proto name. */
export function fieldNamed(schema: DescMessage, name: string): DescField | undefined {
  let byName = fieldsByName.get(schema);
  if (!byName) {
    byName = new Map();
    for (const field of schema.fields) {
      byName.set(field.name, field);
      byName.set(field.jsonName, field);
    }
    fieldsByName.set(schema, byName);
  }
  return byName.get(name);
}

function unsupported(field: DescField, why: string): never {
  throw invalidParams([{ field: field.jsonName, description: `${field.jsonName}: ${why}` }]);
}

/** What one query value is parsed as: a field's type, or a repeated field's element type. */
type Element =
  | { readonly kind: "scalar"; readonly scalar: ScalarType }
  | { readonly kind: "enum" }
  | { readonly kind: "message"; readonly typeName: string };

function elementOf(field: DescField): Element | undefined {
  switch (field.fieldKind) {
    case "scalar":
      return { kind: "scalar", scalar: field.scalar };
    case "enum":
      return { kind: "enum" };
    case "message":
      return { kind: "message", typeName: field.message.typeName };
    case "list":
      if (field.listKind === "scalar") return { kind: "scalar", scalar: field.scalar };
      if (field.listKind === "enum") return { kind: "enum" };
      return { kind: "message", typeName: field.message.typeName };
    default:
      return undefined;
  }
}

/** One query value in the ProtoJSON form of `element`. */
function jsonOf(field: DescField, element: Element, value: string): JsonValue {
  switch (element.kind) {
    case "enum":
      return /^-?\d+$/.test(value) ? Number(value) : value;
    case "message":
      if (element.typeName === "google.protobuf.Timestamp" && parseTimestamp(value) === undefined) {
        return unsupported(field, `expected an RFC 3339 timestamp such as 2025-11-09T10:30:00.000Z, got "${value}"`);
      }
      if (STRING_FORM_MESSAGES.has(element.typeName)) return value;
      return unsupported(field, "nested objects cannot be passed as query parameters");
    case "scalar":
      if (element.scalar !== ScalarType.BOOL) return value; // numbers and bytes are strings in ProtoJSON too
      if (value === "true" || value === "false") return value === "true";
      return unsupported(field, `expected true or false, got "${value}"`);
  }
}

/**
 * The request JSON named by `query`. Parameters that name no field are
 * ignored (§5.7), and so are those that `skip` (fields bound by the path:
 * the path wins). Repeated fields take repeated parameters and comma lists.
 */
export function queryToJson(schema: DescMessage, query: URLSearchParams, skip: ReadonlySet<string>): JsonObject {
  // Grouped by field: `contextId` and `context_id` name the same one.
  const valuesOf = new Map<DescField, string[]>();
  for (const [name, value] of query) {
    const field = fieldNamed(schema, name);
    if (!field || skip.has(field.jsonName)) continue;
    valuesOf.set(field, [...(valuesOf.get(field) ?? []), value]);
  }
  const json: JsonObject = {};
  for (const [field, values] of valuesOf) {
    const element = elementOf(field);
    if (!element) unsupported(field, "maps cannot be passed as query parameters");
    if (field.fieldKind === "list") {
      json[field.jsonName] = values.flatMap((v) => v.split(",")).map((v) => jsonOf(field, element, v));
    } else {
      if (values.length > 1) unsupported(field, "given more than once");
      json[field.jsonName] = jsonOf(field, element, values[0] as string);
    }
  }
  return json;
}
