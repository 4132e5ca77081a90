/**
 * Every TypeScript snippet in docs/*.md type-checks against the package's
 * entries: names it imports from `@novaos/client-sdk` or a subpath entry
 * (`@novaos/client-sdk/server`, …) must be exported by that entry,
 * and calls of them must fit their types. A snippet may lean on names an
 * earlier one defined (`client`, `agent`, a `card` in hand): "cannot find
 * name" is tolerated, except for a name the package exports, which the
 * snippet then uses without importing it.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ENTRY_FOLDERS } from "../architecture/layers.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOCS = path.join(ROOT, "docs");
const ENTRY = path.join(ROOT, "src/index.ts");
/** Each package entry a snippet may import, and its source file. */
const ENTRY_PATHS: Record<string, string[]> = {
  "@novaos/client-sdk": [ENTRY],
  ...Object.fromEntries(
    ENTRY_FOLDERS.map((name) => [`@novaos/client-sdk/${name}`, [path.join(ROOT, `src/${name}/index.ts`)]]),
  ),
};

/** Diagnostics a free variable of a fragment produces. */
const UNKNOWN_NAME = new Set([2304, 2552, 2582, 18004]);

interface Snippet {
  readonly doc: string;
  readonly line: number;
  readonly file: string;
  readonly text: string;
}

function snippets(): Snippet[] {
  return readdirSync(DOCS)
    .filter((name) => name.endsWith(".md"))
    .flatMap((doc) => {
      const lines = readFileSync(path.join(DOCS, doc), "utf8").split("\n");
      const found: Snippet[] = [];
      for (let i = 0; i < lines.length; i++) {
        if (lines[i]?.trim() !== "```ts") continue;
        const start = i + 1;
        while (i + 1 < lines.length && lines[i + 1]?.trim() !== "```") i++;
        const text = `${lines.slice(start, i + 1).join("\n")}\nexport {};\n`;
        found.push({ doc, line: start + 1, file: path.join(ROOT, ".snippets", `${doc}-${start + 1}.ts`), text });
        i++;
      }
      return found;
    });
}

function check(all: Snippet[]): { problems: string[]; exported: Set<string> } {
  const byFile = new Map(all.map((s) => [s.file, s]));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts", "lib.esnext.disposable.d.ts"],
    types: ["node"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    baseUrl: ROOT,
    paths: ENTRY_PATHS,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => byFile.get(file)?.text ?? readFile(file);
  host.fileExists = (file) => byFile.has(file) || fileExists(file);
  host.getSourceFile = (file, language, ...rest) => {
    const snippet = byFile.get(file);
    return snippet ? ts.createSourceFile(file, snippet.text, language) : getSourceFile(file, language, ...rest);
  };
  const entries = Object.values(ENTRY_PATHS).flat();
  const program = ts.createProgram([...entries, ...byFile.keys()], options, host);
  const checker = program.getTypeChecker();
  const exported = new Set(
    entries.flatMap((file) => {
      const source = program.getSourceFile(file);
      const symbol = source && checker.getSymbolAtLocation(source);
      return symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : [];
    }),
  );
  const problems: string[] = [];
  for (const snippet of all) {
    const source = program.getSourceFile(snippet.file);
    if (!source) continue;
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      const name = /(?:Cannot find name|the shorthand property) '([^']+)'/.exec(text)?.[1];
      if (UNKNOWN_NAME.has(d.code) && name !== undefined && !exported.has(name)) continue;
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
      problems.push(`docs/${snippet.doc}:${snippet.line + line}: TS${d.code} ${text}`);
    }
  }
  return { problems, exported };
}

describe("docs snippets", () => {
  const all = snippets();

  it("finds the snippets", () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it("type-check against the package's exports", () => {
    const { problems, exported } = check(all);
    expect(exported.has("Client")).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);
});
