/**
 * `validateAgainstSchema`: checks a value against a caller-supplied JSON
 * Schema (`ctx.outputSchema`, a connector's `paramsSchema`) and answers the
 * violations, never throwing. The schema is untrusted input, so:
 *
 * - a schema that cannot be used (not an object or boolean, invalid against
 *   its meta-schema, an unknown `$schema`, a `$ref` that does not resolve
 *   inside it, a pattern the engine refuses) is itself a violation;
 * - nothing is ever fetched: a `$ref` to a URL (`http://169.254.169.254/…`)
 *   or a file resolves only against the schema itself, else is a violation;
 * - patterns run on RE2 (re2js), which matches in linear time, so no
 *   pattern can hang the process; lookarounds and backreferences, which
 *   RE2 cannot run in linear time and which the JSON Schema authors advise
 *   against in portable patterns, are refused;
 * - one schema's `$id`s never leak into another's: every compiled schema is
 *   removed from the shared Ajv instance right after compiling, and the
 *   instance itself is replaced every 256 compiles (Ajv never forgets the
 *   code it generated), so memory stays bounded;
 * - a property named `__proto__` in a schema is ignored (Ajv's guard against
 *   prototype pollution), so it constrains nothing.
 *
 * `$schema` picks the dialect: 2020-12 when absent, or 2019-09 or draft-07
 * (the dialects Ajv ships; an older one is a violation). `format` is an annotation (not asserted), as 2020-12 specifies by
 * default. Compiled validators are cached by the schema's canonical JSON
 * (RFC 8785), the last 128 schemas of up to 64 KiB each. Where the runtime
 * refuses to generate code from strings, a schema is interpreted instead
 * (interpreted-schema.ts).
 */
import { Ajv, type AnySchema, type ErrorObject, type Options } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import canonicalize from "canonicalize";
import { interpretedCheck } from "./interpreted-schema.js";
import { compileRe2Pattern } from "./re2-pattern.js";

export interface SchemaViolation {
  /** JSON Pointer to the offending part of the value; "" for the whole value, or for a problem with the schema. */
  readonly path: string;
  /** What is wrong, in words. */
  readonly message: string;
  /** The keyword that failed (`type`, `required`, …), or `schema` when the schema itself is unusable. */
  readonly keyword: string;
}

/** At most this many violations are listed; one more says how many were left out. */
export const MAX_VIOLATIONS = 100;
export const SCHEMA_CACHE_SIZE = 128;
/** Schemas whose canonical JSON is longer are compiled on every call rather than cached. */
export const SCHEMA_CACHE_MAX_CHARS = 64 * 1024;

export type Dialect = "2020-12" | "2019-09" | "draft-07";

const DIALECTS: Readonly<Record<string, Dialect>> = {
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "https://json-schema.org/draft/2019-09/schema": "2019-09",
  "http://json-schema.org/draft-07/schema": "draft-07",
};

/**
 * Ajv's pattern engine: RE2 semantics (search, not full match, as `pattern`
 * requires). Ajv files compiled patterns under their `toString()`, so each
 * must name its own pattern.
 */
const re2Engine = Object.assign(
  (pattern: string) => {
    const compiled = compileRe2Pattern(pattern);
    return { test: (text: string) => compiled.matcher(text).find(), toString: () => `re2:${pattern}` };
  },
  { code: "re2js" },
);

const AJV_OPTIONS: Options = {
  strict: false,
  allErrors: true,
  validateFormats: false,
  logger: false,
  code: { regExp: re2Engine },
};

/**
 * An Ajv instance keeps what every compile added to its code scope (each
 * pattern, each helper) for its whole life, so an instance is replaced after
 * this many compiles: memory stays bounded however many distinct schemas
 * callers send. Validators already compiled keep working.
 */
export const COMPILES_PER_AJV = 256;

const instances = new Map<Dialect, { ajv: Ajv; compiles: number }>();

function newAjv(dialect: Dialect): Ajv {
  if (dialect === "2020-12") return new Ajv2020(AJV_OPTIONS);
  if (dialect === "2019-09") return new Ajv2019(AJV_OPTIONS);
  return new Ajv(AJV_OPTIONS);
}

/** The dialect's instance for one more compile. */
function ajvFor(dialect: Dialect): Ajv {
  let instance = instances.get(dialect);
  if (!instance || instance.compiles >= COMPILES_PER_AJV) {
    instance = { ajv: newAjv(dialect), compiles: 0 };
    instances.set(dialect, instance);
  }
  instance.compiles++;
  return instance.ajv;
}

/** Every way a value breaks the schema (empty when it conforms); may throw on a value it cannot check. */
export type SchemaCheck = (value: unknown) => SchemaViolation[];

type Compiled = SchemaCheck | SchemaViolation[];

/** Least recently used first: a hit is re-inserted at the end, the first key is evicted. */
const cache = new Map<string, Compiled>();

const schemaViolation = (message: string): SchemaViolation[] => [{ path: "", message, keyword: "schema" }];

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function compile(schema: unknown): Compiled {
  if (typeof schema === "boolean") return compileIn("2020-12", schema);
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    return schemaViolation("The schema is not a JSON Schema: expected an object or a boolean");
  }
  const declared = (schema as { $schema?: unknown }).$schema;
  const dialect =
    declared === undefined ? "2020-12" : DIALECTS[typeof declared === "string" ? declared.replace(/#$/, "") : ""];
  if (!dialect) {
    return schemaViolation(
      `The schema's $schema ${JSON.stringify(declared)} is not supported: use 2020-12, 2019-09 or draft-07`,
    );
  }
  return compileIn(dialect, schema);
}

/**
 * Ajv compiles the schema to code; where the runtime refuses to generate
 * code from strings (an EvalError: workerd, a page under a strict
 * Content-Security-Policy) the schema is interpreted instead (decision D136).
 */
function compileIn(dialect: Dialect, schema: AnySchema): Compiled {
  const ajv = ajvFor(dialect);
  try {
    const validate = ajv.compile(schema);
    return (value) => (validate(value) ? [] : (validate.errors ?? []).map(toViolation));
  } catch (error) {
    if (error instanceof EvalError) return interpretedCheck(schema, dialect);
    return schemaViolation(`The schema cannot be used: ${reason(error)}`);
  } finally {
    ajv.removeSchema();
  }
}

function compiled(schema: unknown): Compiled {
  let key: string | undefined;
  try {
    key = canonicalize(schema);
  } catch (error) {
    return schemaViolation(`The schema is not JSON: ${reason(error)}`);
  }
  if (key === undefined) return schemaViolation("The schema is not JSON");
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const result = compile(schema);
  if (key.length <= SCHEMA_CACHE_MAX_CHARS) {
    cache.set(key, result);
    if (cache.size > SCHEMA_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  return result;
}

function toViolation(error: ErrorObject): SchemaViolation {
  const extra = error.keyword === "additionalProperties" ? ` ('${String(error.params.additionalProperty)}')` : "";
  return { path: error.instancePath, message: `${error.message ?? "is invalid"}${extra}`, keyword: error.keyword };
}

/**
 * The ways `value` breaks `schema`, in the order the validator finds them;
 * empty when it conforms. Never throws: an unusable schema, or a value that
 * cannot be checked (one nested beyond the stack, a cycle), is a violation.
 */
export function validateAgainstSchema(schema: unknown, value: unknown): SchemaViolation[] {
  const check = compiled(schema);
  if (Array.isArray(check)) return [...check];
  let violations: SchemaViolation[];
  try {
    violations = check(value);
  } catch (error) {
    return [{ path: "", message: `The value cannot be checked: ${reason(error)}`, keyword: "value" }];
  }
  if (violations.length <= MAX_VIOLATIONS) return violations;
  const more = violations.length - MAX_VIOLATIONS;
  return [
    ...violations.slice(0, MAX_VIOLATIONS),
    { path: "", message: `${more} more violations not listed`, keyword: "truncated" },
  ];
}
