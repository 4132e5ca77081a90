/**
 * The pollers' loop: ask, and until the answer is final wait `pollIntervalS`
 * and ask again, giving up with PollTimeoutError once `maxWaitS` has passed
 * without a final answer (the last ask is at the deadline). Waits are on the
 * tools' clock and end with the run's signal or the poller's own.
 */
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import type { ToolCaller } from "./tool-caller.js";
import { PollTimeoutError } from "./tool-errors.js";

export interface PollOptions {
  /** Seconds between two asks. Default 2. */
  pollIntervalS?: number | undefined;
  /** Seconds after which the poller gives up. */
  maxWaitS?: number | undefined;
  /** Ends the wait (and the call in flight) with the signal's reason. */
  signal?: AbortSignal | undefined;
}

export const DEFAULT_POLL_INTERVAL_S = 2;

function seconds(value: number, field: string, positive: boolean): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (positive && value === 0)) {
    throw new NovaOSValidationError(`${field} must be a ${positive ? "positive" : "non-negative"} number of seconds`, {
      field,
    });
  }
  return value;
}

export async function pollUntil<T>(
  ask: () => Promise<T>,
  isFinal: (answer: T) => boolean,
  what: string,
  caller: ToolCaller,
  options: PollOptions,
  defaultMaxWaitS: number,
): Promise<T> {
  const intervalMs = seconds(options.pollIntervalS ?? DEFAULT_POLL_INTERVAL_S, "pollIntervalS", true) * 1000;
  const maxWaitS = seconds(options.maxWaitS ?? defaultMaxWaitS, "maxWaitS", false);
  const deadline = caller.clock.now() + maxWaitS * 1000;
  for (;;) {
    const answer = await ask();
    if (isFinal(answer)) return answer;
    const remaining = deadline - caller.clock.now();
    if (remaining <= 0) {
      throw new PollTimeoutError(`${what} was not finished after ${maxWaitS} s`, { details: { maxWaitS, answer } });
    }
    await caller.sleep(Math.min(intervalMs, remaining), options.signal);
  }
}
