/**
 * Runs a scenario in rounds and reduces its samples to rows: per side the
 * median of the rounds and their range, and the ratios ours / peer and
 * ours / ceiling taken within each round (so a slow spell of the machine
 * that hits one round hits both sides of its ratio), with their median and
 * range. See bench/scenario.ts.
 */
import os from "node:os";
import type { BenchScenario, BenchTargets, RoundsScenario, Sample, Scenario, Side } from "../scenario.js";
import { type Spread, spread } from "./stats.js";

export interface RowResult {
  readonly name: string;
  readonly unit: string;
  readonly targets?: BenchTargets | undefined;
  readonly note?: string | undefined;
  readonly sides: Partial<Record<Side, Spread>>;
  readonly vsPeer?: Spread;
  readonly vsCeiling?: Spread;
}

export interface ScenarioResult {
  readonly name: string;
  readonly rows: readonly RowResult[];
  readonly rounds: number;
  /** One-minute load average when the scenario started and when it ended. */
  readonly load: readonly [number, number];
  readonly seconds: number;
}

/** Progress lines (stderr). */
export type Progress = (line: string) => void;

interface RowValues {
  readonly name: string;
  readonly unit: string;
  readonly targets?: BenchTargets | undefined;
  readonly note?: string | undefined;
  /** Per side, the value of each round (undefined where the side had none that round). */
  readonly values: Record<Side, (number | undefined)[]>;
}

export async function runScenario(scenario: Scenario, rounds: number, progress: Progress): Promise<ScenarioResult> {
  const started = performance.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  const isOneShot = "run" in scenario;
  // A one-shot scenario returns finished rows, often already repeated inside: once, unless it asks for rounds.
  const count = Math.min(rounds, scenario.rounds ?? (isOneShot ? 1 : rounds));
  const rows = isOneShot
    ? await oneShotRounds(scenario, count, progress)
    : await interleavedRounds(scenario, count, progress);
  return {
    name: scenario.name,
    rows: rows.map(reduce),
    rounds: count,
    load: [loadBefore, os.loadavg()[0] ?? 0],
    seconds: (performance.now() - started) / 1000,
  };
}

const noValues = (): Record<Side, (number | undefined)[]> => ({ ours: [], peer: [], ceiling: [] });

async function interleavedRounds(scenario: RoundsScenario, rounds: number, progress: Progress): Promise<RowValues[]> {
  progress(`${scenario.name}: starting`);
  const open = await scenario.open();
  const rows = scenario.rows.map((spec) => ({ ...spec, values: noValues() }));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const side of open.sides) {
        progress(`${scenario.name}: round ${round + 1}/${rounds}, ${side}`);
        const sample: Sample = await open.measure(side);
        for (const row of rows) row.values[side][round] = sample[row.key];
      }
    }
  } finally {
    await open.close();
  }
  return rows;
}

async function oneShotRounds(scenario: BenchScenario, rounds: number, progress: Progress): Promise<RowValues[]> {
  const rows = new Map<string, RowValues>();
  for (let round = 0; round < rounds; round++) {
    progress(`${scenario.name}: round ${round + 1}/${rounds}`);
    for (const row of await scenario.run()) {
      let values = rows.get(row.name);
      if (!values) {
        values = { name: row.name, unit: row.unit, targets: row.targets, note: row.note, values: noValues() };
        rows.set(row.name, values);
      }
      values.values.ours[round] = row.ours;
      values.values.peer[round] = row.peer;
      values.values.ceiling[round] = row.ceiling;
    }
  }
  return [...rows.values()];
}

function reduce(row: RowValues): RowResult {
  const sides: Partial<Record<Side, Spread>> = {};
  for (const side of ["ours", "peer", "ceiling"] as const) {
    const values = row.values[side].filter((v): v is number => v !== undefined && Number.isFinite(v));
    if (values.length > 0) sides[side] = spread(values);
  }
  const ratios = (other: Side) => {
    const out: number[] = [];
    row.values.ours.forEach((ours, round) => {
      const theirs = row.values[other][round];
      if (ours !== undefined && theirs) out.push(ours / theirs);
    });
    return out.length > 0 ? spread(out) : undefined;
  };
  const vsPeer = ratios("peer");
  const vsCeiling = ratios("ceiling");
  return {
    name: row.name,
    unit: row.unit,
    targets: row.targets,
    note: row.note,
    sides,
    ...(vsPeer ? { vsPeer } : {}),
    ...(vsCeiling ? { vsCeiling } : {}),
  };
}
