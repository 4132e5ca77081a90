/**
 * Reconnect delays of the gateway's event stream: the SDK's backoff
 * (runtime/backoff.ts), or the server's longer `Retry-After`, never above
 * the cap. Unlike a bounded call's retries (runtime/resilience.ts), a stream
 * keeps reconnecting, so a `Retry-After` past the cap is waited at the cap.
 */
import { backoffDelayMs } from "../runtime/backoff.js";

/** The wait before reconnect `attempt` (1-based), in ms. */
export function reconnectDelayMs(
  attempt: number,
  options: { initialMs: number; maxMs: number; random?: (() => number) | undefined },
  retryAfterSeconds?: number,
): number {
  const backoff = backoffDelayMs(attempt, options.initialMs, options.maxMs, options.random);
  return Math.min(options.maxMs, Math.max(backoff, (retryAfterSeconds ?? 0) * 1000));
}
