/**
 * What a bench scenario reports: one row per measured quantity, ours next to
 * the peer (@a2a-js/sdk) and, where one exists, the raw node:http ceiling,
 * with the targets the row must meet. The runner prints every row of every
 * registered scenario (bench/scenarios/index.ts) as one table of ratios.
 */

export interface BenchTargets {
  /** Minimum ours / peer. */
  readonly vsPeer?: number;
  /** Minimum ours / ceiling. */
  readonly vsCeiling?: number;
  /** Minimum value of ours, in the row's unit. */
  readonly absolute?: number;
  /** Maximum value of ours (for rows where lower is better, such as a growth factor). */
  readonly maximum?: number;
  /** Maximum ours / peer (for rows where lower is better: 1 is "never slower than the peer"). */
  readonly maxVsPeer?: number;
}

export interface BenchRow {
  readonly name: string;
  /** e.g. "req/s", "events/s". Higher is better. */
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

export interface BenchScenario {
  readonly name: string;
  run(): Promise<BenchRow[]>;
}
