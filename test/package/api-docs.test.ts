/**
 * docs/api.md is the build's list of names, entry by entry, and the published
 * types are fit for a consumer: no `@internal` member ships, and the `.d.ts`
 * compile under `lib: ["ES2022"]` with `types: ["node"]` (no DOM lib).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { apiMarkdown } from "../../tools/api-docs.js";
import { DIST, ROOT } from "./support/package.js";

const declarations = () => readdirSync(DIST).filter((f) => f.endsWith(".d.ts"));

describe("published types", () => {
  it("docs/api.md lists every entry's names as the build exports them (npx tsx tools/api-docs.ts)", () => {
    expect(readFileSync(path.join(ROOT, "docs/api.md"), "utf8")).toBe(apiMarkdown(ROOT));
  });

  it("ship no @internal member", () => {
    const marked = declarations().filter((f) => readFileSync(path.join(DIST, f), "utf8").includes("@internal"));
    expect(declarations().length).toBeGreaterThan(5);
    expect(marked).toEqual([]);
  });

  it("compile for a consumer without the DOM lib (lib ES2022, types node)", () => {
    const consumer = path.join(ROOT, ".cache/package/consumer.ts");
    const text = ["index", "server", "node", "grpc", "discovery", "platform", "security", "protocol", "fleet"]
      .map((name, i) => `export * as e${i} from "../../dist/${name}.js";`)
      .join("\n");
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2022.d.ts"],
      types: ["node"],
      typeRoots: [path.join(ROOT, "node_modules/@types")],
      strict: true,
      noEmit: true,
    };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.getSourceFile = (file, language, ...rest) =>
      file === consumer ? ts.createSourceFile(file, text, language) : getSourceFile(file, language, ...rest);
    host.fileExists = (file) => file === consumer || fileExists(file);
    const program = ts.createProgram([consumer], options, host);
    // Our own declarations only: a dependency's types are its own affair (consumers skip them with skipLibCheck).
    const ours = program.getSourceFiles().filter((s) => s.fileName === consumer || s.fileName.startsWith(`${DIST}/`));
    expect(ours.length).toBeGreaterThan(10);
    const problems = ours.flatMap((s) =>
      [...program.getSyntacticDiagnostics(s), ...program.getSemanticDiagnostics(s)].map(
        (d) => `${path.relative(ROOT, s.fileName)}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
      ),
    );
    expect(problems).toEqual([]);
  }, 120_000);
});
