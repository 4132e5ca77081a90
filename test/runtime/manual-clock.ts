/**
 * A `Clock` that moves only when a test says so. Every `sleep` is recorded;
 * `nextSleep()` is the event a test awaits instead of waiting ("the policy
 * now waits N ms"), and `advance(ms)` fires the timers that come due, oldest
 * deadline first.
 */
import type { Clock } from "../../src/runtime/clock.js";

interface Timer {
  readonly at: number;
  readonly resolve: () => void;
}

export class ManualClock implements Clock {
  #now = 0;
  #timers: Timer[] = [];
  /** Requested durations no `nextSleep()` has taken yet. */
  #unseen: number[] = [];
  #waiting: ((ms: number) => void)[] = [];
  /** Every sleep requested, in order (ms). */
  readonly requested: number[] = [];

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.requested.push(ms);
    const promise = new Promise<void>((resolve, reject) => {
      const timer: Timer = {
        at: this.#now + Math.max(0, ms),
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#timers.push(timer);
    });
    const waiter = this.#waiting.shift();
    if (waiter) waiter(ms);
    else this.#unseen.push(ms);
    return promise;
  }

  /** The duration of the next sleep requested (or of one requested earlier and not yet taken). */
  nextSleep(): Promise<number> {
    const ms = this.#unseen.shift();
    if (ms !== undefined) return Promise.resolve(ms);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Moves time forward and fires every timer due by then. */
  advance(ms: number): void {
    this.#now += ms;
    const due = this.#timers.filter((t) => t.at <= this.#now).sort((a, b) => a.at - b.at);
    this.#timers = this.#timers.filter((t) => t.at > this.#now);
    for (const timer of due) timer.resolve();
  }

  /** Timers not yet fired or cancelled. */
  get pending(): number {
    return this.#timers.length;
  }
}
