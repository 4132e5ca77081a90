/**
 * `make bench`: runs the registered scenarios (bench/scenarios/index.ts) in
 * interleaved rounds (bench/scenario.ts) and prints one table: per row the
 * median and range over the rounds of ours, @a2a-js/sdk 1.3.0 and the raw
 * ceiling, the per-round ratios, and whether the medians meet the row's
 * targets, under the machine, the load average before and after, and the
 * time taken. The same table is written as markdown to
 * .cache/bench/results.md (for docs/performance.md).
 *
 * `npx tsx bench/run.ts [filter…] [--rounds N] [--long]`: only the scenarios
 * whose name contains a filter; N rounds (default 5, or `BENCH_ROUNDS`);
 * `--long` (`make bench-long`) runs the long scenarios (the 1M rows) instead
 * of the others.
 */
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { scenarios } from "./scenarios/index.js";
import { markdownTable, missedRows, textTable } from "./support/report.js";
import { runScenario, type ScenarioResult } from "./support/rounds.js";

const DEFAULT_ROUNDS = 5;
const RESULTS = fileURLToPath(new URL("../.cache/bench/results.md", import.meta.url));

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: "string" }, long: { type: "boolean", default: false } },
});
const rounds = Number(values.rounds ?? process.env.BENCH_ROUNDS ?? DEFAULT_ROUNDS);
if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError(`rounds must be a positive integer, not ${rounds}`);
const filters = positionals.map((f) => f.toLowerCase());
const selected = scenarios.filter(
  (s) =>
    (s.long ?? false) === values.long &&
    (filters.length === 0 || filters.some((f) => s.name.toLowerCase().includes(f))),
);

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const cpus = os.cpus();
const machine = `Node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GB`;
const loadBefore = loadAverage();
const started = performance.now();

const results: ScenarioResult[] = [];
for (const scenario of selected) {
  results.push(await runScenario(scenario, rounds, (line) => process.stderr.write(`${line}…\n`)));
}

const minutes = (performance.now() - started) / 60_000;
const header = [
  machine,
  `${rounds} round${rounds === 1 ? "" : "s"} (ours, peer, ceiling in turn); median (min–max) of the rounds`,
  `load average (1, 5, 15 min): ${loadBefore} before, ${loadAverage()} after; ${minutes.toFixed(1)} min`,
];
const missed = missedRows(results);
const verdict = missed === 0 ? "Every target met." : `${missed} row(s) below target.`;
process.stdout.write(`\n${header.join("\n")}\n\n${textTable(results)}\n\n${verdict}\n`);
await mkdir(fileURLToPath(new URL("../.cache/bench", import.meta.url)), { recursive: true });
await writeFile(RESULTS, `${header.join("  \n")}\n\n${markdownTable(results)}\n\n${verdict}\n`);
process.stderr.write(`markdown table written to ${RESULTS}\n`);
