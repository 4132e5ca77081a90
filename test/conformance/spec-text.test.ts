import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { a2aBindingList } from "../../src/a2a/bindings.js";
import { A2A_ERRORS } from "../../src/a2a/error-table.js";
import { loadPinnedSpec, readSpecLock } from "../../tools/spec-lock.js";

/** The rows of the first markdown table after `heading` in the pinned specification text. */
function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(heading);
  if (start < 0) throw new Error(`heading not found: ${heading}`);
  const lines = markdown.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim().replace(/`/g, "")),
    );
  }
  return rows;
}

const root = resolve(import.meta.dirname, "../..");
const spec = loadPinnedSpec(root, readSpecLock(resolve(root, "proto/a2a.lock")));

describe("conformance with the pinned specification text", () => {
  if (!spec.specificationFile) throw new Error("the spec source has no specification.md; set A2A_SPEC_DIR");
  const text = readFileSync(spec.specificationFile, "utf8");

  it("§5.4: every A2A error's JSON-RPC code, gRPC status and HTTP status", () => {
    const rows = tableAfter(text, "### 5.4. Error Code Mappings");
    expect(rows).toHaveLength(9);
    for (const [type, code, grpc, http] of rows) {
      const spec = A2A_ERRORS[type as keyof typeof A2A_ERRORS];
      expect(spec, type).toBeDefined();
      expect([spec.jsonRpcCode, spec.grpcStatus, spec.httpStatus]).toEqual([
        Number(code),
        grpc,
        Number(http?.split(" ")[0]),
      ]);
    }
  });

  it("§9.5: the standard JSON-RPC errors and their messages", () => {
    const rows = tableAfter(text, "**Standard JSON-RPC Error Codes:**");
    expect(rows).toHaveLength(5);
    for (const [code, name, message] of rows) {
      const spec = A2A_ERRORS[name as keyof typeof A2A_ERRORS];
      expect([spec?.jsonRpcCode, `"${spec?.message}"`]).toEqual([Number(code), message]);
    }
  });

  it("§5.3: every method's JSON-RPC name, gRPC name and REST endpoint", () => {
    const rows = tableAfter(text, "### 5.3. Method Mapping Reference");
    expect(rows).toHaveLength(a2aBindingList.length);
    for (const [, jsonRpc, grpc, rest] of rows) {
      const binding = a2aBindingList.find((b) => b.jsonRpcMethod === jsonRpc);
      expect(binding?.rpc.name, jsonRpc).toBe(grpc);
      const [method, path] = (rest as string).split(" ");
      // The spec text names variables {id}/{configId}; the proto binds {id=*}/{task_id=*}.
      const normalise = (p: string) => p.replace(/\{[^}]+\}/g, "{}");
      const routes = binding?.http.map((r) => `${r.method} ${normalise(r.template)}`);
      // SubscribeToTask: the text says POST, the proto GET — servers accept both, clients send POST.
      const expected =
        jsonRpc === "SubscribeToTask" ? `GET ${normalise(path as string)}` : `${method} ${normalise(path as string)}`;
      expect(routes).toContain(expected);
    }
  });
});
