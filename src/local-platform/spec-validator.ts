/**
 * The checks of one OpenAPI document of `openapi/`, compiled lazily: the
 * Ajv of a spec is made, and the validator of an operation's body,
 * parameter or response schema built, the first time a request needs it, so
 * the platform starts without compiling the seven specs up front.
 *
 * The document is added to one Ajv (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1) under its own key, and every check is a `$ref` into it, so
 * the spec's own `#/components/schemas/…` references resolve as written.
 * The specs are the repository's own, so their patterns run on JavaScript's
 * RegExp (the RE2 engine of `validateAgainstSchema`, meant for untrusted
 * schemas, refuses the lookahead of the gateway's attachment name).
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

type Json = { readonly [key: string]: unknown };

/** JSON Pointer escaping of one segment (RFC 6901). */
function escapeSegment(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

export class SpecValidator {
  readonly name: string;
  readonly document: Json;
  readonly #key: string;
  #ajvInstance: Ajv2020 | undefined;
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly #inline = new WeakMap<object, ValidateFunction>();

  readonly #siblings: Readonly<Record<string, Json>>;

  /**
   * `siblings` are the other specs, by name, for the references between
   * specs (`./memory.yaml#/components/…` in the MCP Gateway's).
   */
  constructor(name: string, document: Json, siblings: Readonly<Record<string, Json>> = {}) {
    this.name = name;
    this.document = document;
    this.#key = specKey(name);
    this.#siblings = siblings;
  }

  /** The Ajv holding the document, made on the first check (an Ajv costs tens of milliseconds to make). */
  get #ajv(): Ajv2020 {
    if (!this.#ajvInstance) {
      const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
      ajv.addFormat("uuid", UUID);
      ajv.addFormat("uri", (value: string) => URL.canParse(value));
      ajv.addFormat("date-time", DATE_TIME);
      ajv.addSchema(this.document as object, this.#key);
      for (const [name, sibling] of Object.entries(this.#siblings)) {
        if (name !== this.name) ajv.addSchema(sibling as object, specKey(name));
      }
      this.#ajvInstance = ajv;
    }
    return this.#ajvInstance;
  }

  /** The object at a JSON Pointer of the document, following one `$ref` to a component (parameters, responses). */
  resolve(value: unknown): Json | undefined {
    let current = value;
    for (let hops = 0; hops < 8 && isObject(current) && typeof current.$ref === "string"; hops++) {
      current = this.at(current.$ref.replace(/^#/, ""));
    }
    return isObject(current) ? current : undefined;
  }

  /** The value at `pointer` (`/paths/~1agents/get`), or undefined. */
  at(pointer: string): unknown {
    let current: unknown = this.document;
    for (const raw of pointer.split("/").slice(1)) {
      const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      if (!isObject(current)) return undefined;
      current = current[segment];
    }
    return current;
  }

  /** Whether the document has a value at `segments`. */
  has(segments: readonly string[]): boolean {
    return this.at(pointerOf(segments)) !== undefined;
  }

  /** The violations of `value` against the schema at `segments` (unescaped), as readable lines. */
  check(segments: readonly string[], value: unknown): string[] {
    const pointer = pointerOf(segments);
    let validate = this.#compiled.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `${this.#key}#${pointer}` });
      this.#compiled.set(pointer, validate);
    }
    return violationsOf(validate, value);
  }

  /** The violations of `value` against a parameter's schema: inline, or one `$ref` into the document. */
  checkValue(schema: unknown, value: unknown): string[] {
    if (!isObject(schema)) return [];
    if (typeof schema.$ref === "string" && schema.$ref.startsWith("#/"))
      return this.check(refSegments(schema.$ref), value);
    let validate = this.#inline.get(schema);
    if (!validate) {
      validate = this.#ajv.compile(schema);
      this.#inline.set(schema, validate);
    }
    return violationsOf(validate, value);
  }
}

/** The unescaped segments of a local reference (`#/components/schemas/X`). */
export function refSegments(ref: string): string[] {
  return ref
    .replace(/^#\//, "")
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** Where a spec lives for Ajv: a URL, so `./<other>.yaml` in one resolves to the other's key. */
function specKey(name: string): string {
  return `https://openapi.novaos.local/${name}.yaml`;
}

function pointerOf(segments: readonly string[]): string {
  return `/${segments.map(escapeSegment).join("/")}`;
}

function violationsOf(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => {
    const extra = error.keyword === "additionalProperties" ? ` '${String(error.params.additionalProperty)}'` : "";
    return `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}${extra}`;
  });
}

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
