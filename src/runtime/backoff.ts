/**
 * The SDK's one backoff rule, used by the resilience policy's retries and by
 * the gateway's event-stream reconnects: exponential from a base delay up to
 * a cap, times a random factor in [0.5, 1) so that many clients failed by the
 * same blip do not come back in lockstep. Jitter only ever shortens a delay,
 * so the cap is a true upper bound (decision D20).
 */

/** The delay before retry `attempt` (1-based: the first retry waits about `baseMs`), in ms. */
export function backoffDelayMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), maxMs);
  return ceiling * (0.5 + 0.5 * random());
}
