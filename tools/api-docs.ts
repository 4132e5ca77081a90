/**
 * docs/api.md from the built `.d.ts`: every entry of the package (package.json
 * `exports`) and the names it exports, by kind. `make build` first.
 *
 *   tsx tools/api-docs.ts          writes docs/api.md
 *   tsx tools/api-docs.ts --check  exits 1 when docs/api.md differs
 *
 * test/package/api-docs.test.ts runs the same comparison in `make test`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The entries as package.json lists them: subpath and the `.d.ts` it resolves to. */
export function packageEntries(root = ROOT): { subpath: string; types: string }[] {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    exports: Record<string, string | { types?: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([subpath, target]) =>
    typeof target === "object" && target.types ? [{ subpath, types: path.join(root, target.types) }] : [],
  );
}

const KINDS: [ts.SymbolFlags, string][] = [
  [ts.SymbolFlags.Class, "Classes"],
  [ts.SymbolFlags.Function, "Functions"],
  [ts.SymbolFlags.Enum, "Enums"],
  [ts.SymbolFlags.Variable, "Constants"],
  [ts.SymbolFlags.Interface, "Interfaces"],
  [ts.SymbolFlags.TypeAlias, "Types"],
];

/** Each entry's exported names, by kind, from the `.d.ts` files under `root`. */
export function entryNames(root = ROOT): Map<string, Map<string, string[]>> {
  const entries = packageEntries(root);
  const program = ts.createProgram(
    entries.map((e) => e.types),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
    },
  );
  const checker = program.getTypeChecker();
  const result = new Map<string, Map<string, string[]>>();
  for (const entry of entries) {
    const source = program.getSourceFile(entry.types);
    if (!source) throw new Error(`${entry.types} is missing: run make build first`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    const byKind = new Map<string, string[]>(KINDS.map(([, kind]) => [kind, []]));
    for (const symbol of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const kind = KINDS.find(([flag]) => target.flags & flag)?.[1] ?? "Constants";
      byKind.get(kind)?.push(symbol.name);
    }
    for (const names of byKind.values()) names.sort((a, b) => a.localeCompare(b, "en"));
    result.set(entry.subpath === "." ? "@novaos/client-sdk" : `@novaos/client-sdk/${entry.subpath.slice(2)}`, byKind);
  }
  return result;
}

/** The text of docs/api.md. */
export function apiMarkdown(root = ROOT): string {
  const entries = entryNames(root);
  const count = (byKind: Map<string, string[]>) => [...byKind.values()].reduce((n, names) => n + names.length, 0);
  const total = [...entries.values()].reduce((n, byKind) => n + count(byKind), 0);
  const lines = [
    "# API: the names each entry exports",
    "",
    "Generated from the built `.d.ts` by `tools/api-docs.ts` (`make build`, then `npx tsx tools/api-docs.ts`);",
    "`test/package/api-docs.test.ts` fails when this page and the build differ. What each entry is for, and the",
    'rule that a folder\'s `index.ts` is its entry, is in docs/architecture.md ("Package entries"). The',
    "`/protocol` entry is not covered by semver.",
    "",
    `${entries.size} entries, ${total} names (a name two entries share is counted in each).`,
    "",
  ];
  for (const [entry, byKind] of entries) {
    lines.push(`## \`${entry}\``, "", `${count(byKind)} names.`, "");
    for (const [kind, names] of byKind) {
      if (names.length === 0) continue;
      lines.push(`**${kind}.** ${names.map((n) => `\`${n}\``).join(", ")}`, "");
    }
  }
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = path.join(ROOT, "docs/api.md");
  const text = apiMarkdown();
  if (process.argv.includes("--check")) {
    if (readFileSync(file, "utf8") !== text) {
      console.error("docs/api.md differs from the build: run make build && npx tsx tools/api-docs.ts");
      process.exit(1);
    }
  } else {
    writeFileSync(file, text);
  }
}
