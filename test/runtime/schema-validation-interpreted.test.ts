/**
 * Where the runtime refuses to generate code from strings (workerd, a page
 * under a strict Content-Security-Policy), Ajv cannot compile a schema; the
 * schema is interpreted instead (src/runtime/interpreted-schema.ts). Node run
 * with `--disallow-code-generation-from-strings` refuses as workerd does.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SCRIPT = path.join(import.meta.dirname, "fixtures/validate-without-codegen.ts");

/** The violations of each `[schema, value]` pair, judged in a process that refuses code generation. */
async function judgedWithoutCodegen(cases: [unknown, unknown][]): Promise<unknown[]> {
  const child = spawn(process.execPath, ["--disallow-code-generation-from-strings", "--import", "tsx", SCRIPT], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  child.stdin.end(JSON.stringify(cases));
  const [code] = await once(child, "close");
  expect(code).toBe(0);
  const { refused, results } = JSON.parse(out) as { refused: boolean; results: unknown[] };
  expect(refused).toBe(true);
  return results;
}

const PERSON = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
};

describe("validateAgainstSchema without code generation", () => {
  it("judges values as the compiled path does: none for a conforming value, each violation with its path", async () => {
    const [ok, wrong, missing] = await judgedWithoutCodegen([
      [PERSON, { name: "Ada", tags: ["x"] }],
      [PERSON, { name: 1, tags: ["x", 2] }],
      [{ $schema: "http://json-schema.org/draft-07/schema#", ...PERSON }, {}],
    ]);
    expect(ok).toEqual([]);
    expect(wrong).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "/name", keyword: "type" }),
        expect.objectContaining({ path: "/tags/1", keyword: "type" }),
      ]),
    );
    expect(missing).toEqual([expect.objectContaining({ path: "", keyword: "required" })]);
  }, 60_000);

  it("keeps format an annotation, and a property named format still constrains", async () => {
    const [email, named] = await judgedWithoutCodegen([
      [{ type: "string", format: "email" }, "not an email"],
      [{ type: "object", properties: { format: { type: "string" } } }, { format: 1 }],
    ]);
    expect(email).toEqual([]);
    expect(named).toEqual(expect.arrayContaining([expect.objectContaining({ path: "/format", keyword: "type" })]));
  }, 60_000);

  it("refuses a pattern RE2 cannot run, runs the others, and fetches no $ref", async () => {
    const [lookahead, pattern, remote] = await judgedWithoutCodegen([
      [{ type: "string", pattern: "^(?=a)a$" }, "a"],
      [{ type: "string", pattern: "^a+$" }, "b"],
      [{ $ref: "http://169.254.169.254/latest/meta-data" }, 1],
    ]);
    expect(lookahead).toEqual([expect.objectContaining({ path: "", keyword: "schema" })]);
    expect(pattern).toEqual([expect.objectContaining({ path: "", keyword: "pattern" })]);
    expect(remote).toEqual([expect.objectContaining({ path: "", keyword: "schema" })]);
  }, 60_000);
});
