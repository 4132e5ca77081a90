/**
 * Reconnect delays: exponential from an initial delay up to a cap, times a
 * random factor in [0.5, 1) so that many clients dropped by the same gateway
 * blip do not come back in lockstep. This is the reference's `backoff_delay`
 * contract (jitter only ever shortens a delay, so the cap is a true upper
 * bound).
 */
import { setTimeout as delay } from "node:timers/promises";

/** The delay before reconnect attempt `attempt` (1-based), in ms. */
export function backoffDelayMs(
  attempt: number,
  initialMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(initialMs * 2 ** Math.max(0, attempt - 1), maxMs);
  return base * (0.5 + 0.5 * random());
}

/** The wait before reconnect `attempt`: the backoff delay, or the server's longer `Retry-After`, never above `maxMs`. */
export function reconnectDelayMs(
  attempt: number,
  options: { initialMs: number; maxMs: number; random?: (() => number) | undefined },
  retryAfterSeconds?: number,
): number {
  const backoff = backoffDelayMs(attempt, options.initialMs, options.maxMs, options.random);
  return Math.min(options.maxMs, Math.max(backoff, (retryAfterSeconds ?? 0) * 1000));
}

/** Waits `ms`; an abort ends the wait with the signal's reason. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) {
    signal?.throwIfAborted();
    return;
  }
  try {
    await delay(ms, undefined, { signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}
