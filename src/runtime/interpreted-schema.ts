/**
 * JSON Schema checks where the runtime refuses to generate code from strings
 * (workerd, a page under a strict Content-Security-Policy), so Ajv cannot
 * compile: @cfworker/json-schema interprets the schema instead, made to judge
 * as the Ajv path does where it can (decision D136):
 *
 * - `format` stays an annotation: the copy it gets leaves out every string
 *   `format` keyword (it would assert the formats it knows);
 * - a pattern RE2 refuses (lookarounds, backreferences) makes the schema
 *   unusable, as on the Ajv path; the patterns RE2 accepts run on the
 *   runtime's own RegExp engine, which this library calls itself;
 * - every violation it reports is listed, its messages are its own, and a
 *   schema is not checked against its meta-schema first.
 */
import { type Schema, type SchemaDraft, Validator } from "@cfworker/json-schema";
import { compileRe2Pattern } from "./re2-pattern.js";
import type { Dialect, SchemaCheck, SchemaViolation } from "./schema-validation.js";

const DRAFTS: Readonly<Record<Dialect, SchemaDraft>> = { "2020-12": "2020-12", "2019-09": "2019-09", "draft-07": "7" };

/** Keywords whose value is a schema or a list of schemas, and those whose value maps names or patterns to schemas. */
const SUBSCHEMAS = new Set([
  "not",
  "if",
  "then",
  "else",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "contains",
  "additionalItems",
  "unevaluatedItems",
  "items",
  "allOf",
  "anyOf",
  "oneOf",
  "prefixItems",
]);
const SCHEMA_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * A copy of `schema` for the interpreter (which annotates what it is given),
 * without string `format` keywords; throws on a pattern RE2 refuses. Only
 * subschemas are walked, so a `format` inside `const` or `enum` data stays.
 */
function prepared(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "format" && typeof value === "string") continue;
    if (key === "pattern" && typeof value === "string") compileRe2Pattern(value);
    if (SUBSCHEMAS.has(key)) out[key] = Array.isArray(value) ? value.map(prepared) : prepared(value);
    else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      if (key === "patternProperties") for (const pattern of Object.keys(value)) compileRe2Pattern(pattern);
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, prepared(sub)]));
    } else out[key] = value;
  }
  return out;
}

/** `#/a/0` → `/a/0`: the interpreter's instance locations as JSON Pointers. */
const pointer = (location: string) => decodeURI(location.replace(/^#/, ""));

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";

/** The check of `schema` in `dialect`, or the reason it cannot be used. */
export function interpretedCheck(schema: unknown, dialect: Dialect): SchemaCheck | SchemaViolation[] {
  let validator: Validator;
  try {
    validator = new Validator(prepared(schema) as Schema | boolean, DRAFTS[dialect], false);
  } catch (error) {
    return [{ path: "", message: `The schema cannot be used: ${firstLine(error)}`, keyword: "schema" }];
  }
  return (value) => {
    let result: ReturnType<Validator["validate"]>;
    try {
      result = validator.validate(value);
    } catch (error) {
      // A `$ref` it cannot resolve is found only when a value reaches it: nothing is ever fetched.
      if (!firstLine(error).startsWith("Unresolved $ref")) throw error;
      return [{ path: "", message: `The schema cannot be used: ${firstLine(error)}`, keyword: "schema" }];
    }
    return result.errors.map((unit) => ({
      path: pointer(unit.instanceLocation),
      message: unit.error,
      keyword: unit.keyword,
    }));
  };
}
