/**
 * Time as the SDK's waits see it. Retries, the circuit breaker and per-call
 * deadlines read the time and wait through a `Clock`, so a test drives them
 * with a manual clock (advance, then await the next event) instead of
 * sleeping, and an embedder can run them on its own scheduler.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale; only differences between readings mean anything. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason as soon as it aborts (at once if it already has). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Waits `ms` on the real timers; an abort ends the wait with the signal's
 * reason. The global timers, not `node:timers/promises`: the agent side runs
 * on every Fetch runtime, and this is on its path (the tools' retries).
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  if (ms <= 0) return;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The process's monotonic clock (`performance.now`) and real timers. */
export const systemClock: Clock = { now: () => performance.now(), sleep };
