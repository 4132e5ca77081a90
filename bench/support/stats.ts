/** The few statistics the bench reports: quantiles of samples and the median with its range. */

/** The `q` quantile (0 to 1) of ascending `sorted`, interpolated between neighbours. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  const a = sorted[low] as number;
  return a + ((sorted[high] as number) - a) * (at - low);
}

/** A median with the range it comes from. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly count: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    count: sorted.length,
  };
}
