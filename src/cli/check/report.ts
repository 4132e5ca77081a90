/** The check's results as a person reads them (one line each, grouped by interface) and as a summary. */
import type { Output } from "../output.js";
import type { Requirement } from "./requirement.js";
import type { RequirementResult } from "./run-check.js";

export interface CheckSummary {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly mustFailed: number;
  readonly shouldFailed: number;
}

export function summarize(results: readonly RequirementResult[]): CheckSummary {
  const count = (f: (r: RequirementResult) => boolean) => results.filter(f).length;
  return {
    passed: count((r) => r.status === "pass"),
    failed: count((r) => r.status === "fail"),
    skipped: count((r) => r.status === "skip"),
    mustFailed: count((r) => r.status === "fail" && r.level === "MUST"),
    shouldFailed: count((r) => r.status === "fail" && r.level === "SHOULD"),
  };
}

/** Prints each result as it arrives, with a heading whenever the interface changes. */
export function resultPrinter(out: Output): (result: RequirementResult) => void {
  const c = out.colors;
  let group: string | undefined;
  return (r) => {
    const heading = r.binding ? `${r.binding} ${r.url}` : "card";
    if (heading !== group) {
      out.line(`${group === undefined ? "" : "\n"}${c.bold(heading)}`);
      group = heading;
    }
    const mark = r.status === "pass" ? c.green("✓") : r.status === "fail" ? c.red("✗") : c.dim("-");
    const level = r.level === "MUST" ? r.level : c.dim(r.level);
    const line = `  ${mark} ${r.id.padEnd(30)} ${c.dim(r.section.padEnd(18))} ${level.padEnd(r.level === "MUST" ? 6 : 6 + (level.length - r.level.length))} ${r.title}`;
    out.line(line);
    if (r.reason && r.status !== "pass") out.line(`      ${r.status === "fail" ? c.red(r.reason) : c.dim(r.reason)}`);
  };
}

export function summaryLine(summary: CheckSummary, out: Output): string {
  const c = out.colors;
  const failed =
    summary.failed === 0
      ? "0 failed"
      : c.red(`${summary.failed} failed (${summary.mustFailed} MUST, ${summary.shouldFailed} SHOULD)`);
  return `requirements: ${c.green(`${summary.passed} passed`)} · ${failed} · ${summary.skipped} skipped`;
}

/** The table itself, for `check --list`. */
export function requirementLines(requirements: readonly Requirement[]): string[] {
  return requirements.map((r) => {
    const where = r.scope === "card" ? "card" : (r.bindings?.join(", ") ?? "every binding");
    return `${r.id.padEnd(30)} ${r.section.padEnd(18)} ${r.level.padEnd(6)} ${r.title} [${where}]`;
  });
}
