/**
 * `make bench`: runs every registered scenario (bench/scenarios/index.ts) and
 * prints one table: ours, @a2a-js/sdk 1.3.0, the raw node:http ceiling, the
 * ratios, and whether each row meets its target. `npx tsx bench/run.ts
 * <filter>` runs only the scenarios whose name contains the filter.
 */
import os from "node:os";
import type { BenchRow, BenchTargets } from "./scenario.js";
import { scenarios } from "./scenarios/index.js";

const filter = process.argv[2]?.toLowerCase();
const selected = scenarios.filter((s) => !filter || s.name.toLowerCase().includes(filter));

const fmt = (n: number | undefined) =>
  n === undefined ? "—" : n >= 100 ? Math.round(n).toLocaleString("en") : n.toFixed(2);
const ratio = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(2)}×` : "—");

function verdict(row: BenchRow): string {
  const t: BenchTargets | undefined = row.targets;
  if (!t) return "";
  const checks: [boolean, string][] = [];
  if (t.vsPeer !== undefined)
    checks.push([row.peer !== undefined && row.ours / row.peer >= t.vsPeer, `≥${t.vsPeer}× peer`]);
  if (t.vsCeiling !== undefined)
    checks.push([row.ceiling !== undefined && row.ours / row.ceiling >= t.vsCeiling, `≥${t.vsCeiling * 100}% raw`]);
  if (t.absolute !== undefined) checks.push([row.ours >= t.absolute, `≥${fmt(t.absolute)}`]);
  if (t.maximum !== undefined) checks.push([row.ours <= t.maximum, `≤${t.maximum}`]);
  if (t.maxVsPeer !== undefined)
    checks.push([row.peer !== undefined && row.ours / row.peer <= t.maxVsPeer, `≤${t.maxVsPeer}× peer`]);
  return checks.map(([ok, what]) => `${ok ? "✓" : "✗"} ${what}`).join(", ");
}

const header = ["row", "unit", "ours", "@a2a-js/sdk", "raw node:http", "ours/peer", "ours/raw", "target"];
const table: string[][] = [];
let missed = 0;
for (const scenario of selected) {
  process.stderr.write(`running ${scenario.name}…\n`);
  const rows = await scenario.run();
  table.push([`[${scenario.name}]`, "", "", "", "", "", "", ""]);
  for (const row of rows) {
    const v = verdict(row);
    if (v.includes("✗")) missed++;
    table.push([
      row.name + (row.note ? ` (${row.note})` : ""),
      row.unit,
      fmt(row.ours),
      fmt(row.peer),
      fmt(row.ceiling),
      ratio(row.ours, row.peer),
      ratio(row.ours, row.ceiling),
      v,
    ]);
  }
}

const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? "").length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i >= 2 && i <= 6 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join("  ");
process.stdout.write(`\nNode ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}\n\n`);
process.stdout.write(`${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n`);
for (const row of table) process.stdout.write(`${line(row)}\n`);
process.stdout.write(missed === 0 ? "\nEvery target met.\n" : `\n${missed} row(s) below target.\n`);
