/**
 * The bench runner's arithmetic (bench/support/rounds.ts, bench/support/report.ts):
 * the sides of a scenario are measured in turn within each round, a row
 * reports the median of its rounds with their range, ratios are taken within
 * each round (not between medians), and a row's targets are judged on those
 * medians. No server runs here: the scenarios are scripted samples.
 */
import { describe, expect, it } from "vitest";
import type { BenchScenario, RoundsScenario, Sample, Side } from "../../bench/scenario.js";
import { markdownTable, missedRows, verdicts } from "../../bench/support/report.js";
import { runScenario } from "../../bench/support/rounds.js";
import { quantile, spread } from "../../bench/support/stats.js";

/** A rounds scenario answering `samples[side][round]`, logging each measure and the close. */
function scripted(samples: Record<Side, Sample[]>, sides: readonly Side[] = ["ours", "peer", "ceiling"]) {
  const log: string[] = [];
  const rounds: Record<Side, number> = { ours: 0, peer: 0, ceiling: 0 };
  const scenario: RoundsScenario = {
    name: "scripted",
    rows: [
      { key: "rate", name: "rate", unit: "req/s", targets: { vsPeer: 2, vsCeiling: 0.5 } },
      { key: "cpu", name: "  server CPU per call", unit: "µs", targets: { maxVsCeiling: 1.3 } },
    ],
    async open() {
      log.push("open");
      return {
        sides,
        async measure(side) {
          log.push(side);
          const sample = samples[side][rounds[side]] ?? {};
          rounds[side] += 1;
          return sample;
        },
        async close() {
          log.push("close");
        },
      };
    },
  };
  return { scenario, log };
}

const quiet = () => {};

describe("bench rounds", () => {
  it("measures the sides in turn within each round (ours, peer, ceiling, ours, …), opening and closing once", async () => {
    const sample = { rate: 1, cpu: 1 };
    const { scenario, log } = scripted({ ours: [sample, sample], peer: [sample, sample], ceiling: [sample, sample] });
    const result = await runScenario(scenario, 2, quiet);
    expect(log).toEqual(["open", "ours", "peer", "ceiling", "ours", "peer", "ceiling", "close"]);
    expect(result.rounds).toBe(2);
  });

  it("reports per side the median of the rounds with their range", async () => {
    const rates = (values: number[]) => values.map((rate) => ({ rate, cpu: 10 }));
    const { scenario } = scripted({
      ours: rates([100, 300, 200]),
      peer: rates([10, 50, 20, 999]),
      ceiling: rates([400, 400, 400]),
    });
    const [rate] = (await runScenario(scenario, 3, quiet)).rows;
    expect(rate?.sides.ours).toEqual({ median: 200, min: 100, max: 300, count: 3 });
    expect(rate?.sides.peer).toEqual({ median: 20, min: 10, max: 50, count: 3 });
  });

  it("takes ratios within each round, so a slow round slows both sides of its ratio alike", async () => {
    // Round 2 ran while the machine was busy (every side at about a tenth), round 3 had a fast ceiling and
    // a slow peer. Per round ours / peer is 2.5×, 2.4×, 1.5×: median 2.4×, where the medians' ratio is 2.5×.
    const { scenario } = scripted({
      ours: [{ rate: 100 }, { rate: 12 }, { rate: 300 }],
      peer: [{ rate: 40 }, { rate: 5 }, { rate: 200 }],
      ceiling: [{ rate: 200 }, { rate: 24 }, { rate: 600 }],
    });
    const [rate] = (await runScenario(scenario, 3, quiet)).rows;
    expect(rate?.sides.ours?.median).toBe(100);
    expect(rate?.sides.peer?.median).toBe(40);
    expect(rate?.vsPeer).toEqual({ median: 2.4, min: 1.5, max: 2.5, count: 3 });
    expect(rate?.vsCeiling).toEqual({ median: 0.5, min: 0.5, max: 0.5, count: 3 });
  });

  it("leaves a side out of a round's ratio when it has no value that round, and a row without a side has no ratio", async () => {
    const { scenario } = scripted(
      { ours: [{ rate: 100, cpu: 40 }, { rate: 90 }], peer: [{ rate: 50 }, {}], ceiling: [] },
      ["ours", "peer"],
    );
    const [rate, cpu] = (await runScenario(scenario, 2, quiet)).rows;
    expect(rate?.vsPeer).toEqual({ median: 2, min: 2, max: 2, count: 1 });
    expect(rate?.vsCeiling).toBeUndefined();
    expect(cpu?.sides.ours?.count).toBe(1);
    expect(cpu?.vsPeer).toBeUndefined();
  });

  it("judges every target of a row on the medians, and counts the rows that miss one", async () => {
    const { scenario } = scripted({
      ours: [
        { rate: 100, cpu: 130 },
        { rate: 110, cpu: 110 },
      ],
      peer: [
        { rate: 40, cpu: 500 },
        { rate: 60, cpu: 500 },
      ],
      ceiling: [
        { rate: 180, cpu: 100 },
        { rate: 240, cpu: 100 },
      ],
    });
    const result = await runScenario(scenario, 2, quiet);
    const [rate, cpu] = result.rows;
    // ours / peer: 2.5× and 1.83× (median 2.17×); ours / ceiling: 0.56× and 0.46× (median 0.51×).
    expect(verdicts(rate as never)).toEqual([
      { met: true, text: "≥2× peer" },
      { met: true, text: "≥50% ceiling" },
    ]);
    // CPU per call against the ceiling: 1.3× and 1.1×, median 1.2×.
    expect(verdicts(cpu as never)).toEqual([{ met: true, text: "≤1.3× ceiling" }]);
    expect(missedRows([result])).toBe(0);
    const slower = await runScenario(
      scripted({ ours: [{ rate: 100, cpu: 200 }], peer: [{ rate: 60 }], ceiling: [{ rate: 400, cpu: 100 }] }).scenario,
      1,
      quiet,
    );
    expect(verdicts(slower.rows[0] as never).map((v) => v.met)).toEqual([false, false]);
    expect(missedRows([slower])).toBe(2);
    expect(markdownTable([slower])).toContain("✗ ≤1.3× ceiling");
  });

  it("runs a one-shot scenario once unless it asks for rounds, and takes the medians of its rows by name", async () => {
    let calls = 0;
    const oneShot = (rounds?: number): BenchScenario => ({
      name: "one shot",
      ...(rounds === undefined ? {} : { rounds }),
      async run() {
        calls += 1;
        return [{ name: "stream", unit: "events/s", ours: calls * 100, peer: calls * 10 }];
      },
    });
    expect((await runScenario(oneShot(), 5, quiet)).rounds).toBe(1);
    calls = 0;
    const asked = await runScenario(oneShot(3), 5, quiet);
    expect(calls).toBe(3);
    expect(asked.rows[0]?.sides.ours).toEqual({ median: 200, min: 100, max: 300, count: 3 });
    expect(asked.rows[0]?.vsPeer?.median).toBe(10);
  });
});

describe("bench statistics", () => {
  it("interpolate quantiles between neighbours", () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([0, 10], 0.99)).toBeCloseTo(9.9);
    expect(quantile([], 0.5)).toBeNaN();
    expect(spread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, count: 3 });
  });
});
