/**
 * docs/seed-map.md cannot rot: every TypeScript name a row lists as mapped
 * (or as the replacement a decision names) is exported by the entry the row
 * names; every decision a row cites exists; every row has a status it may
 * have and nothing blank where it counts; the counts the page states are the
 * rows' counts. Planned rows are skipped until their issue flips them.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ENTRY_FOLDERS } from "../architecture/layers.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every package entry the map may name, and the source file that is its public API. */
const ENTRIES: Readonly<Record<string, string>> = {
  "@novaos/client-sdk": "src/index.ts",
  ...Object.fromEntries(ENTRY_FOLDERS.map((name) => [`@novaos/client-sdk/${name}`, `src/${name}/index.ts`])),
};

interface Row {
  readonly line: number;
  readonly section: string;
  readonly reference: string;
  readonly typescript: string[];
  readonly entry: string;
  readonly status: string;
  readonly note: string;
}

const STATUS = /^(mapped|replaced \(([A-Z]+\d+)\)|not applicable|planned \(#\d+\))$/;
const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

function readMap(): { rows: Row[]; text: string } {
  const text = readFileSync(path.join(ROOT, "docs/seed-map.md"), "utf8");
  const rows: Row[] = [];
  let section = "";
  text.split("\n").forEach((line, i) => {
    if (line.startsWith("## ")) section = line.slice(3).trim();
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    if (cells.length !== 7 || !cells[1]?.startsWith("`")) return;
    const [, reference, typescript, entry, status, note] = cells as [string, string, string, string, string, string];
    rows.push({
      line: i + 1,
      section,
      reference,
      typescript: names(typescript),
      entry: names(entry)[0] ?? "",
      status,
      note,
    });
  });
  return { rows, text };
}

/** The names each entry exports, with the members of each exported class, interface or object. */
function exportsOf(files: readonly string[]): Map<string, Map<string, Set<string>>> {
  const program = ts.createProgram(
    files.map((f) => path.join(ROOT, f)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.esnext.disposable.d.ts"],
      types: ["node"],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const result = new Map<string, Map<string, Set<string>>>();
  for (const file of files) {
    const source = program.getSourceFile(path.join(ROOT, file));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    const exported = new Map<string, Set<string>>();
    for (const symbol of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const members = new Set<string>();
      const add = (type: ts.Type) => {
        for (const p of type.getProperties()) members.add(p.name);
      };
      if (target.flags & ts.SymbolFlags.Class) {
        add(checker.getTypeOfSymbol(target));
        add(checker.getDeclaredTypeOfSymbol(target));
      } else if (target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
        add(checker.getDeclaredTypeOfSymbol(target));
      } else if (target.flags & ts.SymbolFlags.Variable) {
        add(checker.getTypeOfSymbol(target));
      }
      exported.set(symbol.name, members);
    }
    result.set(file, exported);
  }
  return result;
}

/** The decisions of docs/decisions.md. */
function decisionIds(): Set<string> {
  const ids = new Set<string>();
  for (const m of readFileSync(path.join(ROOT, "docs/decisions.md"), "utf8").matchAll(/^### ([A-Z]+\d+) —/gm)) {
    ids.add(m[1] as string);
  }
  return ids;
}

describe("docs/seed-map.md", () => {
  const { rows, text } = readMap();

  it("has a row for every name, each with a known entry, a status, and no blank cell where it counts", () => {
    expect(rows.length).toBeGreaterThan(700);
    const problems = rows.flatMap((row) => {
      const at = `docs/seed-map.md:${row.line} ${row.reference}`;
      const found: string[] = [];
      if (!(row.entry in ENTRIES)) found.push(`${at}: unknown entry "${row.entry}"`);
      if (!STATUS.test(row.status)) found.push(`${at}: status "${row.status}"`);
      if (row.status === "mapped" && row.typescript.length === 0) found.push(`${at}: mapped to nothing`);
      if (row.status === "not applicable" && row.note === "") found.push(`${at}: not applicable without a reason`);
      return found;
    });
    expect(problems).toEqual([]);
    const keys = rows.map((r) => `${r.section} ${r.reference}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it("states the counts of its rows", () => {
    const count = (prefix: string) => rows.filter((r) => r.status.startsWith(prefix)).length;
    expect(text).toContain(
      `**Counts.** ${rows.length} rows: ${count("mapped")} mapped, ${count("replaced")} replaced by a decision, ` +
        `${count("not applicable")} not applicable, ${count("planned")} planned.`,
    );
  });

  it("cites only decisions that exist", () => {
    const ids = decisionIds();
    const cited = rows.flatMap((r) => {
      const id = STATUS.exec(r.status)?.[2];
      return id === undefined || ids.has(id) ? [] : [`docs/seed-map.md:${r.line} ${r.reference}: ${id}`];
    });
    expect(cited).toEqual([]);
  });

  it("lists only names the named entry exports", () => {
    const exported = exportsOf(Object.values(ENTRIES));
    const missing = rows.flatMap((row) => {
      if (!(row.status === "mapped" || row.status.startsWith("replaced"))) return [];
      const names = exported.get(ENTRIES[row.entry] as string);
      return row.typescript.flatMap((name) => {
        if (name.endsWith("/")) return existsSync(path.join(ROOT, name)) ? [] : [`${row.reference}: no folder ${name}`];
        const [top, member] = name.split(".", 2) as [string, string | undefined];
        const members = names?.get(top);
        const ok = members !== undefined && (member === undefined || members.has(member));
        return ok ? [] : [`docs/seed-map.md:${row.line} ${row.reference}: ${row.entry} does not export ${name}`];
      });
    });
    expect(missing).toEqual([]);
  }, 120_000);
});
