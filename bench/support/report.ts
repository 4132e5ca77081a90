/**
 * The bench's table, as text for the terminal and as markdown for
 * docs/performance.md: per row the median of each side with its range over
 * the rounds, the per-round ratios, and whether the medians meet the row's
 * targets.
 */
import type { BenchTargets } from "../scenario.js";
import type { RowResult, ScenarioResult } from "./rounds.js";
import type { Spread } from "./stats.js";

const HEADER = ["row", "unit", "ours", "@a2a-js/sdk", "ceiling", "ours/peer", "ours/ceiling", "target"];
/** Columns holding numbers (right-aligned). */
const NUMERIC = new Set([2, 3, 4, 5, 6]);

export function formatNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 100) return Math.round(n).toLocaleString("en");
  return n.toFixed(abs >= 10 ? 1 : 2);
}

/** A target's limit as written: whole numbers with separators, others as given. */
const limit = (n: number) => (Number.isInteger(n) ? n.toLocaleString("en") : String(n));

/** `median (min–max)`; the median alone for one round. */
export function formatSpread(value: Spread | undefined, suffix = ""): string {
  if (!value) return "—";
  const median = `${formatNumber(value.median)}${suffix}`;
  return value.count > 1 ? `${median} (${formatNumber(value.min)}–${formatNumber(value.max)})` : median;
}

/** Each target of the row: whether its median meets it, and what it is. */
export function verdicts(row: RowResult): { met: boolean; text: string }[] {
  const t: BenchTargets = row.targets ?? {};
  const ours = row.sides.ours?.median;
  const vsPeer = row.vsPeer?.median;
  const vsCeiling = row.vsCeiling?.median;
  const checks: { met: boolean; text: string }[] = [];
  const check = (met: boolean, text: string) => checks.push({ met, text });
  if (t.vsPeer !== undefined) check(vsPeer !== undefined && vsPeer >= t.vsPeer, `≥${t.vsPeer}× peer`);
  if (t.maxVsPeer !== undefined) check(vsPeer !== undefined && vsPeer <= t.maxVsPeer, `≤${t.maxVsPeer}× peer`);
  if (t.vsCeiling !== undefined)
    check(vsCeiling !== undefined && vsCeiling >= t.vsCeiling, `≥${t.vsCeiling * 100}% ceiling`);
  if (t.maxVsCeiling !== undefined)
    check(vsCeiling !== undefined && vsCeiling <= t.maxVsCeiling, `≤${t.maxVsCeiling}× ceiling`);
  if (t.absolute !== undefined) check(ours !== undefined && ours >= t.absolute, `≥${limit(t.absolute)}`);
  if (t.maximum !== undefined) check(ours !== undefined && ours <= t.maximum, `≤${limit(t.maximum)}`);
  return checks;
}

function cells(row: RowResult): string[] {
  return [
    row.name + (row.note ? ` (${row.note})` : ""),
    row.unit,
    formatSpread(row.sides.ours),
    formatSpread(row.sides.peer),
    formatSpread(row.sides.ceiling),
    formatSpread(row.vsPeer, "×"),
    formatSpread(row.vsCeiling, "×"),
    verdicts(row)
      .map(({ met, text }) => `${met ? "✓" : "✗"} ${text}`)
      .join(", "),
  ];
}

const sectionTitle = (s: ScenarioResult) =>
  `${s.name} — ${s.rounds} round${s.rounds === 1 ? "" : "s"}, ${Math.round(s.seconds)} s, load ${s.load[0].toFixed(1)} → ${s.load[1].toFixed(1)}`;

export function textTable(results: readonly ScenarioResult[]): string {
  const lines: (string[] | string)[] = [];
  for (const s of results) {
    lines.push(`[${sectionTitle(s)}]`);
    for (const row of s.rows) lines.push(cells(row));
  }
  const rows = lines.filter((l): l is string[] => Array.isArray(l));
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (c: string[]) =>
    c
      .map((text, i) => (NUMERIC.has(i) ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [
    line(HEADER),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...lines.map((l) => (typeof l === "string" ? l : line(l))),
  ].join("\n");
}

export function markdownTable(results: readonly ScenarioResult[]): string {
  const escapePipes = (text: string) => text.replaceAll("|", "\\|");
  const out = [
    `| ${HEADER.join(" | ")} |`,
    `| ${HEADER.map((_, i) => (NUMERIC.has(i) ? "---:" : "---")).join(" | ")} |`,
  ];
  for (const s of results) {
    out.push(`| **${escapePipes(sectionTitle(s))}** |${" |".repeat(HEADER.length - 1)}`);
    for (const row of s.rows) {
      // An indented row (a detail of the row above) keeps its indent as an arrow: markdown trims spaces.
      const [name = "", ...rest] = cells(row);
      const shown = name.startsWith(" ") ? `↳ ${name.trim()}` : name;
      out.push(`| ${[shown, ...rest].map(escapePipes).join(" | ")} |`);
    }
  }
  return out.join("\n");
}

/** Rows with a target their median misses. */
export function missedRows(results: readonly ScenarioResult[]): number {
  return results.flatMap((s) => s.rows).filter((row) => verdicts(row).some((v) => !v.met)).length;
}
