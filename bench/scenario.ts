/**
 * What a bench scenario is. `make bench` (bench/run.ts) measures in rounds:
 * each round measures every side of a scenario once, in turn (ours, the peer
 * @a2a-js/sdk 1.3.0, the raw ceiling; ours, peer, ceiling; …), so that
 * background load on a shared machine hits the sides alike, and a row reports
 * the median of its rounds with their range. Ratios (ours / peer, ours /
 * ceiling) are taken within each round and their median judged against the
 * row's targets.
 *
 * A scenario comes in one of two shapes:
 *
 * - `RoundsScenario`: it declares its rows, `open()` starts what it measures
 *   (servers, filled stores) once, and `measure(side)` takes one sample of one
 *   side; the runner interleaves the sides and the rounds.
 * - `BenchScenario` (the older shape): `run()` measures every side and
 *   returns finished rows. The runner calls it once, or `rounds` times when
 *   it says so, and then takes the medians of the rows by name; it
 *   interleaves only as far as `run()` does.
 */

/** Who a value belongs to: ours, @a2a-js/sdk 1.3.0, or the raw ceiling (no framework). */
export type Side = "ours" | "peer" | "ceiling";

/** Limits a row's median must meet; ratios are ours / peer and ours / ceiling, per round. */
export interface BenchTargets {
  /** Minimum ours / peer. */
  readonly vsPeer?: number;
  /** Maximum ours / peer (for rows where lower is better, such as a latency). */
  readonly maxVsPeer?: number;
  /** Minimum ours / ceiling. */
  readonly vsCeiling?: number;
  /** Maximum ours / ceiling (for rows where lower is better, such as CPU per call). */
  readonly maxVsCeiling?: number;
  /** Minimum value of ours, in the row's unit. */
  readonly absolute?: number;
  /** Maximum value of ours (for rows where lower is better, such as a growth factor). */
  readonly maximum?: number;
}

/** A row of a rounds scenario: what it measures; the values come from the samples. */
export interface RowSpec {
  /** The key of the row's value in a `Sample`. */
  readonly key: string;
  readonly name: string;
  /** e.g. "req/s", "µs", "ms". */
  readonly unit: string;
  readonly targets?: BenchTargets;
  /** Anything the reader needs to read the row right (sizes, caps). */
  readonly note?: string;
}

/** One side's measurement in one round: a value per row key (a row the side has no value for is left out). */
export type Sample = Readonly<Record<string, number>>;

/** A scenario measured in rounds by the runner. */
export interface RoundsScenario {
  readonly name: string;
  readonly rows: readonly RowSpec[];
  /** At most this many rounds (for a costly row that barely varies). */
  readonly rounds?: number;
  /** Run only by `make bench-long` (`--long`): rows too slow for every run. */
  readonly long?: boolean;
  /** Starts what the rounds measure. */
  open(): Promise<OpenScenario>;
}

/** A scenario ready to measure. */
export interface OpenScenario {
  /** The sides it measures, in the order each round takes them. */
  readonly sides: readonly Side[];
  /** One sample of `side`. */
  measure(side: Side): Promise<Sample>;
  /** Stops what `open()` started. */
  close(): Promise<void>;
}

/** A finished row of a one-shot scenario. */
export interface BenchRow {
  readonly name: string;
  /** e.g. "req/s", "events/s". Higher is better unless the targets say otherwise. */
  readonly unit: string;
  readonly ours: number;
  /** @a2a-js/sdk 1.3.0 on the same workload (undefined when not comparable). */
  readonly peer?: number | undefined;
  /** A raw node:http implementation: the ceiling. */
  readonly ceiling?: number | undefined;
  readonly targets?: BenchTargets;
  /** Anything the reader needs to read the row right (sizes, caps). */
  readonly note?: string;
}

/** A scenario that measures every side itself and returns finished rows (see above): the one shape there was. */
export interface BenchScenario {
  readonly name: string;
  /** Calls of `run()` per bench run (at most the run's rounds); 1 unless set. */
  readonly rounds?: number;
  readonly long?: boolean;
  run(): Promise<BenchRow[]>;
}

/** What bench/scenarios/index.ts registers. */
export type Scenario = RoundsScenario | BenchScenario;
