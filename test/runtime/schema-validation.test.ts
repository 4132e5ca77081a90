import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  COMPILES_PER_AJV,
  MAX_VIOLATIONS,
  SCHEMA_CACHE_SIZE,
  validateAgainstSchema,
} from "../../src/runtime/schema-validation.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const PERSON = {
  type: "object",
  required: ["name", "age"],
  additionalProperties: false,
  properties: { name: { type: "string", minLength: 1 }, age: { type: "integer", minimum: 0 } },
};

/** The one violation a schema problem gives. */
const schemaProblem = (message: RegExp) => [{ path: "", keyword: "schema", message: expect.stringMatching(message) }];

describe("validateAgainstSchema", () => {
  it("answers no violation for a conforming value, and every violation (path, keyword, message) otherwise", () => {
    expect(validateAgainstSchema(PERSON, { name: "Ada", age: 36 })).toEqual([]);
    expect(validateAgainstSchema(PERSON, { name: "", age: -1.5, email: "x" })).toEqual([
      { path: "", keyword: "additionalProperties", message: "must NOT have additional properties ('email')" },
      { path: "/name", keyword: "minLength", message: "must NOT have fewer than 1 characters" },
      { path: "/age", keyword: "type", message: "must be integer" },
      { path: "/age", keyword: "minimum", message: "must be >= 0" },
    ]);
    expect(validateAgainstSchema(PERSON, {})).toEqual([
      { path: "", keyword: "required", message: "must have required property 'name'" },
      { path: "", keyword: "required", message: "must have required property 'age'" },
    ]);
  });

  it("reads 2020-12 by default and the dialect $schema names", () => {
    const tuple2020 = { prefixItems: [{ type: "string" }], items: false };
    expect(validateAgainstSchema(tuple2020, ["a"])).toEqual([]);
    expect(validateAgainstSchema(tuple2020, ["a", 1])).toHaveLength(1);
    const tuple07 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      items: [{ type: "string" }],
      additionalItems: false,
    };
    expect(validateAgainstSchema(tuple07, ["a", 1])).toHaveLength(1);
    const draft07Ref = {
      $schema: "http://json-schema.org/draft-07/schema",
      definitions: { n: { type: "number" } },
      $ref: "#/definitions/n",
    };
    expect(validateAgainstSchema(draft07Ref, "x")).toEqual([expect.objectContaining({ keyword: "type" })]);
    const draft2019 = { $schema: "https://json-schema.org/draft/2019-09/schema", dependentRequired: { a: ["b"] } };
    expect(validateAgainstSchema(draft2019, { a: 1 })).toEqual([
      expect.objectContaining({ keyword: "dependentRequired" }),
    ]);
    for (const older of ["http://json-schema.org/draft-06/schema#", "http://json-schema.org/draft-04/schema#", 7]) {
      expect(validateAgainstSchema({ $schema: older }, {})).toEqual(schemaProblem(/not supported/));
    }
  });

  it("takes boolean schemas", () => {
    expect(validateAgainstSchema(true, { anything: 1 })).toEqual([]);
    expect(validateAgainstSchema(false, 1)).toEqual([expect.objectContaining({ path: "", keyword: "false schema" })]);
  });

  it("treats format as an annotation, as 2020-12 does", () => {
    expect(validateAgainstSchema({ type: "string", format: "email" }, "not an email")).toEqual([]);
  });

  it("matches patterns as a search, with \\u escapes and astral characters", () => {
    expect(validateAgainstSchema({ pattern: "b" }, "abc")).toEqual([]);
    expect(validateAgainstSchema({ pattern: "^b" }, "abc")).toEqual([expect.objectContaining({ keyword: "pattern" })]);
    expect(validateAgainstSchema({ pattern: "^\\u00e9\\u{1F600}$" }, "é😀")).toEqual([]);
    expect(validateAgainstSchema({ pattern: "^.$" }, "😀")).toEqual([]);
    expect(validateAgainstSchema({ patternProperties: { "^x-": { type: "string" } } }, { "x-a": 1 })).toEqual([
      expect.objectContaining({ path: "/x-a", keyword: "type" }),
    ]);
  });
});

describe("validateAgainstSchema with hostile schemas", () => {
  it("reports a schema that is not a schema instead of throwing", () => {
    for (const schema of [null, undefined, 5, "string", [], () => 1]) {
      expect(validateAgainstSchema(schema, {}), String(schema)).toEqual(schemaProblem(/not a JSON Schema|not JSON/));
    }
    expect(validateAgainstSchema({ type: 5 }, {})).toEqual(schemaProblem(/cannot be used: schema is invalid/));
    expect(validateAgainstSchema({ $ref: "#/$defs/missing" }, {})).toEqual(schemaProblem(/can't resolve reference/));
    expect(validateAgainstSchema({ pattern: "(" }, "x")).toEqual(schemaProblem(/cannot be used/));
  });

  it("never fetches a $ref: a URL or a file resolves only inside the schema", async () => {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(request.url ?? "");
      response.end('{"type":"string"}');
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      for (const ref of [
        `http://127.0.0.1:${port}/schema.json`,
        "http://169.254.169.254/latest/meta-data",
        `file://${process.cwd()}/package.json`,
      ]) {
        expect(validateAgainstSchema({ $ref: ref }, 1), ref).toEqual(schemaProblem(/can't resolve reference/));
      }
      // A request the validator had sent would have reached the server before this one.
      await fetch(`http://127.0.0.1:${port}/probe`).then((r) => r.text());
      expect(requests).toEqual(["/probe"]);
    } finally {
      server.close();
    }
  });

  it("runs patterns in linear time, and refuses the constructs that cannot be", () => {
    const catastrophic = { type: "string", pattern: "^(a+)+$" };
    expect(validateAgainstSchema(catastrophic, `${"a".repeat(50_000)}b`)).toEqual([
      expect.objectContaining({ keyword: "pattern" }),
    ]);
    expect(validateAgainstSchema({ pattern: "(a|aa)+$" }, `${"a".repeat(50_000)}b`)).toEqual([
      expect.objectContaining({ keyword: "pattern" }),
    ]);
    expect(validateAgainstSchema({ pattern: "^(?=.*\\d).{8,}$" }, "password1")).toEqual(
      schemaProblem(/cannot be used/),
    );
    expect(validateAgainstSchema({ pattern: "(\\w)\\1" }, "aa")).toEqual(schemaProblem(/cannot be used/));
  });

  it("survives schemas nested beyond the stack and cyclic schema objects", () => {
    let deep: object = { type: "string" };
    for (let i = 0; i < 50_000; i++) deep = { items: deep };
    expect(validateAgainstSchema(deep, [])).toEqual([expect.objectContaining({ path: "", keyword: "schema" })]);
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic };
    expect(validateAgainstSchema(cyclic, {})).toEqual(schemaProblem(/not JSON/));
  });

  it("keeps each schema's $ids to itself, and a schema cannot replace a meta-schema", () => {
    const definesId = {
      $defs: { n: { $id: "https://evil.example/n", type: "number" } },
      $ref: "https://evil.example/n",
    };
    expect(validateAgainstSchema(definesId, 1)).toEqual([]);
    expect(validateAgainstSchema({ $ref: "https://evil.example/n" }, "x")).toEqual(schemaProblem(/can't resolve/));
    const impostor = { $id: "https://json-schema.org/draft/2020-12/schema", type: "string" };
    expect(validateAgainstSchema(impostor, 1)).toEqual(schemaProblem(/cannot be used/));
    expect(validateAgainstSchema({ type: 5 }, {})).toEqual(schemaProblem(/schema is invalid/));
  });

  it("pollutes no prototype through __proto__, constructor or prototype names", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","default":{"polluted":1}},"constructor":{"type":"string"},"prototype":{"properties":{"polluted":{"default":1}}},"n":{"type":"number"}}}',
    );
    const value = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": 5, "prototype": {}, "n": "x"}');
    expect(validateAgainstSchema(schema, value)).toEqual([
      expect.objectContaining({ path: "/constructor", keyword: "type" }),
      expect.objectContaining({ path: "/n", keyword: "type" }),
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("gives every pattern its own engine, and replaces the Ajv instance (whose code scope only grows) as it goes", () => {
    // Ajv2020's constructor loads its meta-schemas: one call per new instance.
    const created = vi.spyOn(
      Ajv2020.prototype as unknown as { _addDefaultMetaSchema(): void },
      "_addDefaultMetaSchema",
    );
    const schemas = Array.from({ length: 2 * COMPILES_PER_AJV + 1 }, (_, n) => ({ pattern: `^p${n}$` }));
    for (const [n, schema] of schemas.entries()) {
      expect(validateAgainstSchema(schema, `p${n}`)).toEqual([]);
      expect(validateAgainstSchema(schema, `p${n + 1}`)).toEqual([expect.objectContaining({ keyword: "pattern" })]);
    }
    expect(created.mock.calls.length).toBeGreaterThanOrEqual(2);
  });
});

describe("validateAgainstSchema with hostile values", () => {
  it("reports a cyclic value it cannot finish checking", () => {
    const value: Record<string, unknown> = {};
    value.next = value;
    const recursive = { type: "object", properties: { next: { $ref: "#" } } };
    expect(validateAgainstSchema(recursive, value)).toEqual([
      expect.objectContaining({ path: "", keyword: "value", message: expect.stringMatching(/cannot be checked/) }),
    ]);
  });

  it("lists at most 100 violations and counts the rest", () => {
    const violations = validateAgainstSchema(
      { items: { type: "string" } },
      Array.from({ length: 1000 }, (_, i) => i),
    );
    expect(violations).toHaveLength(MAX_VIOLATIONS + 1);
    expect(violations[0]).toEqual({ path: "/0", keyword: "type", message: "must be string" });
    expect(violations.at(-1)).toEqual({ path: "", keyword: "truncated", message: "900 more violations not listed" });
  });
});

describe("validateAgainstSchema's cache", () => {
  it("compiles a schema once, found again by content whatever the key order", () => {
    const compile = vi.spyOn(Ajv2020.prototype, "compile");
    const schema = { type: "object", properties: { cacheA: { type: "string" } } };
    validateAgainstSchema(schema, {});
    validateAgainstSchema({ properties: { cacheA: { type: "string" } }, type: "object" }, { cacheA: "x" });
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it("keeps the last 128 schemas and never caches a very large one", () => {
    const compile = vi.spyOn(Ajv2020.prototype, "compile");
    const numbered = (n: number) => ({ type: "object", properties: { [`cacheB${n}`]: { type: "string" } } });
    for (let n = 0; n <= SCHEMA_CACHE_SIZE; n++) validateAgainstSchema(numbered(n), {});
    expect(compile).toHaveBeenCalledTimes(SCHEMA_CACHE_SIZE + 1);
    validateAgainstSchema(numbered(SCHEMA_CACHE_SIZE), {});
    expect(compile).toHaveBeenCalledTimes(SCHEMA_CACHE_SIZE + 1);
    validateAgainstSchema(numbered(0), {});
    expect(compile).toHaveBeenCalledTimes(SCHEMA_CACHE_SIZE + 2);
    const large = { type: "string", description: "x".repeat(70_000) };
    validateAgainstSchema(large, "a");
    validateAgainstSchema(large, "a");
    expect(compile).toHaveBeenCalledTimes(SCHEMA_CACHE_SIZE + 4);
  });
});
