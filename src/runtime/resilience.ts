/**
 * The one retry + circuit-breaker policy of every platform call (tool
 * bindings, Memory, Observability, Heartbeat, MCP, LLM): at most 3 attempts,
 * backoff 1 s then 2 s (jittered down by up to half, runtime/backoff.ts), a
 * retry only after a transient failure (429, 502, 503, 504, no answer, an
 * attempt past its deadline), a server's `Retry-After` waited for when it is
 * longer (up to 30 s; a longer one ends the call), and a breaker that opens
 * after 5 consecutive transient failures and lets one probe through 30 s
 * later. A call marked non-idempotent is tried once. One policy object per
 * client: its breaker is shared by every call of that client.
 *
 *   const policy = new ResiliencePolicy({ name: "Memory Service" });
 *   const result = await policy.execute((signal) => send(request, signal), { signal, idempotent: true });
 *
 * The breaker is cockatiel's (consecutive-failure counting, one probe at a
 * time, calls arriving during the probe wait for its outcome). Its notion of
 * time is not: cockatiel reads `Date.now()` and its retry waits on timers it
 * cannot cancel, so the open window is measured on the policy's `Clock`
 * (through cockatiel's half-open backoff hook) and the retry loop is ours,
 * sleeping on the same clock with the caller's signal. Tests inject a manual
 * clock and a random source and never sleep.
 */
import {
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  type IBackoff,
  type IBackoffFactory,
  isBrokenCircuitError,
} from "cockatiel";
import { NovaOSConnectionError, NovaOSError } from "../errors/novaos-errors.js";
import { backoffDelayMs } from "./backoff.js";
import { type Clock, systemClock } from "./clock.js";
import { raceSignal } from "./race-signal.js";

export const DEFAULT_MAX_ATTEMPTS = 3;
export const DEFAULT_BASE_DELAY_MS = 1_000;
export const DEFAULT_MAX_DELAY_MS = 16_000;
/** A `Retry-After` longer than this ends the call with its error (which carries `retryAfter`) instead of waiting. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;
export const DEFAULT_BREAKER_THRESHOLD = 5;
export const DEFAULT_BREAKER_RESET_MS = 30_000;
/** Deadline of one attempt of a platform service call. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

export type BreakerState = "closed" | "open" | "half-open";

export interface ResilienceOptions {
  /** What the policy guards, for error messages ("Memory Service"). */
  name?: string;
  /** Attempts per call, the first included; 0 and 1 both mean one attempt. Default 3. */
  maxAttempts?: number;
  /** Backoff before the first retry (ms), doubled per retry. Default 1 000. */
  baseDelayMs?: number;
  /** Cap on a backoff delay (ms). Default 16 000. */
  maxDelayMs?: number;
  /** The longest `Retry-After` waited for (ms). Default 30 000. */
  maxRetryAfterMs?: number;
  /** Consecutive transient failures that open the breaker. Default 5. */
  breakerThreshold?: number;
  /** How long the breaker stays open before one probe is let through (ms). Default 30 000. */
  breakerResetMs?: number;
  /** Deadline of each attempt (ms); `0` for none. Default 30 000. */
  timeoutMs?: number;
  /** Default: the process's monotonic clock and timers. */
  clock?: Clock;
  /** The jitter source, in [0, 1). Default `Math.random`. */
  random?: () => number;
}

export interface ResilientCallOptions {
  /** Ends the call (and any wait) with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** `false` when a repeated call could take effect twice: one attempt only. Default true. */
  idempotent?: boolean | undefined;
  /** This call's deadline per attempt (ms); `0` for none. Default: the policy's. */
  timeoutMs?: number | undefined;
  /** What is called, for error messages ("POST /api/v1/mcp"). */
  operation?: string | undefined;
}

/**
 * The breaker is open: the call was refused without being sent.
 * `retryAfter` says when the next probe will be let through.
 */
export class CircuitOpenError extends NovaOSConnectionError {
  static override readonly brand: string = "CircuitOpenError";
}

/** Whether a retry of the same call may succeed: the SDK's errors say so (429, 502, 503, 504, no answer). */
function isTransient(error: unknown): boolean {
  return error instanceof NovaOSError && error.isRetryable && !(error instanceof CircuitOpenError);
}

/**
 * cockatiel's breaker stays open while `Date.now() - openedAt < backoff.duration`.
 * A window answers that question from the policy's clock instead: an infinite
 * duration while open, a negative one once the reset time has passed.
 */
class BreakerWindow implements IBackoff<unknown> {
  readonly #openedAt: number;
  constructor(
    readonly clock: Clock,
    readonly resetMs: number,
    readonly reopen: () => BreakerWindow,
  ) {
    this.#openedAt = clock.now();
  }
  get remainingMs(): number {
    return this.resetMs - (this.clock.now() - this.#openedAt);
  }
  get duration(): number {
    return this.remainingMs > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  }
  /** A failed probe opens a new window from now. */
  next(): BreakerWindow {
    return this.reopen();
  }
}

export class ResiliencePolicy {
  readonly name: string;
  readonly #maxAttempts: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #breaker: CircuitBreakerPolicy;
  #window: BreakerWindow | undefined;

  constructor(options: ResilienceOptions = {}) {
    this.name = options.name ?? "platform service";
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    this.#baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
    this.#maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    const resetMs = options.breakerResetMs ?? DEFAULT_BREAKER_RESET_MS;
    const openWindow = (): BreakerWindow => {
      this.#window = new BreakerWindow(this.#clock, resetMs, openWindow);
      return this.#window;
    };
    const halfOpenAfter: IBackoffFactory<unknown> = { next: openWindow };
    this.#breaker = circuitBreaker(handleWhen(isTransient), {
      halfOpenAfter,
      breaker: new ConsecutiveBreaker(options.breakerThreshold ?? DEFAULT_BREAKER_THRESHOLD),
    });
  }

  /**
   * `closed`, `open` (calls are refused), or `half-open` (one probe is in
   * flight). An open breaker turns half-open when the first call after the
   * reset time arrives, and that call is the probe.
   */
  get breakerState(): BreakerState {
    const state = this.#breaker.state;
    if (state === CircuitState.HalfOpen) return "half-open";
    return state === CircuitState.Closed ? "closed" : "open";
  }

  /**
   * Runs `attempt` until it succeeds, fails in a way a retry cannot fix, or
   * the attempts run out, and answers its result or its last error as is.
   * Each attempt gets a signal that aborts at the deadline (its error: a
   * retryable NovaOSConnectionError) or when the caller's signal aborts (the
   * caller's reason, also thrown at once, even mid-wait). An open breaker
   * throws CircuitOpenError without calling `attempt`.
   */
  async execute<T>(
    attempt: (signal: AbortSignal, attemptNumber: number) => Promise<T>,
    options: ResilientCallOptions = {},
  ): Promise<T> {
    const { signal } = options;
    signal?.throwIfAborted();
    const attempts = options.idempotent === false ? 1 : this.#maxAttempts;
    for (let attemptNumber = 1; ; attemptNumber++) {
      try {
        return await raceSignal(
          this.#breaker.execute(() => this.#attempt(attempt, attemptNumber, options)),
          signal,
        );
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (isBrokenCircuitError(error)) throw this.#circuitOpen(options);
        const delay = this.#retryDelay(error, attemptNumber, attempts);
        if (delay === undefined) throw error;
        await this.#clock.sleep(delay, signal);
      }
    }
  }

  /** The wait before the next attempt, or undefined when there is none. */
  #retryDelay(error: unknown, attemptNumber: number, attempts: number): number | undefined {
    if (attemptNumber >= attempts || !isTransient(error)) return undefined;
    const backoff = backoffDelayMs(attemptNumber, this.#baseDelayMs, this.#maxDelayMs, this.#random);
    const retryAfterMs = ((error as NovaOSError).retryAfter ?? 0) * 1000;
    if (retryAfterMs > this.#maxRetryAfterMs) return undefined;
    return Math.max(backoff, retryAfterMs);
  }

  /** One attempt under its deadline; a caller who gave up while it waited for the breaker sends nothing. */
  async #attempt<T>(
    attempt: (signal: AbortSignal, attemptNumber: number) => Promise<T>,
    attemptNumber: number,
    options: ResilientCallOptions,
  ): Promise<T> {
    options.signal?.throwIfAborted();
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const controller = new AbortController();
    const stopDeadline = new AbortController();
    const forward = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", forward, { once: true });
    try {
      const work = attempt(controller.signal, attemptNumber);
      if (timeoutMs <= 0) return await work;
      const deadline = this.#clock.sleep(timeoutMs, stopDeadline.signal).then(
        () => {
          const error = new NovaOSConnectionError(
            `${this.name}${options.operation ? ` ${options.operation}` : ""}: no answer within ${timeoutMs} ms`,
            { details: { timeoutMs } },
          );
          controller.abort(error);
          throw error;
        },
        () => new Promise<never>(() => {}),
      );
      return await Promise.race([work, deadline]);
    } finally {
      stopDeadline.abort();
      options.signal?.removeEventListener("abort", forward);
    }
  }

  #circuitOpen(options: ResilientCallOptions): CircuitOpenError {
    const remainingMs = Math.max(0, this.#window?.remainingMs ?? 0);
    return new CircuitOpenError(
      `${this.name}${options.operation ? ` ${options.operation}` : ""}: not sent, the circuit breaker is open after repeated failures`,
      { retryAfter: Math.ceil(remainingMs / 1000), details: { breaker: "open" } },
    );
  }
}
