/**
 * JSON form rules of spec §5.5 and §5.6.1, checked against the schema: field
 * names are the proto3 JSON (camelCase) names, enums are their names, and
 * timestamps are ISO 8601 in UTC with a `Z`. Walks the JSON along the
 * message descriptors, so map keys and free-form `Struct` contents (metadata,
 * data parts) are never mistaken for field names.
 */
import type { DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import { isJsonObjectValue } from "./wire.js";

const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export type JsonFormProblemKind = "name" | "enum" | "timestamp";

type Visit = (kind: JsonFormProblemKind, problem: string) => void;

function walk(schema: DescMessage, json: JsonObject, path: string, visit: Visit): void {
  for (const [key, value] of Object.entries(json)) {
    const field = schema.fields.find((f) => f.jsonName === key) ?? schema.fields.find((f) => f.name === key);
    if (!field) continue;
    const at = `${path}${key}`;
    if (field.jsonName !== key) visit("name", `${at}: "${key}" is the proto name; JSON uses "${field.jsonName}"`);
    const each = (item: JsonValue, where: string) => {
      if (field.fieldKind === "enum" || (field.fieldKind === "list" && field.listKind === "enum")) {
        if (typeof item !== "string") visit("enum", `${where}: enum value ${JSON.stringify(item)} is not a name`);
        return;
      }
      const message =
        field.fieldKind === "message"
          ? field.message
          : field.fieldKind === "list" && field.listKind === "message"
            ? field.message
            : undefined;
      if (!message) return;
      if (message.typeName === "google.protobuf.Timestamp") {
        if (typeof item !== "string" || !UTC_TIMESTAMP.test(item))
          visit("timestamp", `${where}: timestamp ${JSON.stringify(item)} is not ISO 8601 UTC (…Z)`);
        return;
      }
      if (message.typeName.startsWith("google.protobuf.")) return;
      if (isJsonObjectValue(item)) walk(message, item, `${where}.`, visit);
    };
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) each(item, `${at}[${i}]`);
    } else if (field.fieldKind === "map" && field.mapKind === "message" && isJsonObjectValue(value)) {
      for (const [k, v] of Object.entries(value))
        if (isJsonObjectValue(v)) walk(field.message, v, `${at}.${k}.`, visit);
    } else if (value !== null) each(value, at);
  }
}

/** Where `json` breaks the JSON form rules of the given kinds. */
export function jsonFormProblems(
  schema: DescMessage,
  json: JsonObject,
  kinds: readonly JsonFormProblemKind[],
): string[] {
  const out: string[] = [];
  walk(schema, json, "", (kind, problem) => {
    if (kinds.includes(kind)) out.push(problem);
  });
  return out;
}
