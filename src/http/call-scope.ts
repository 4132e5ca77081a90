/**
 * The scope of one outgoing call: it turns the caller's `signal` and a
 * `timeoutMs` deadline into one AbortSignal for the transport, and says what
 * error the call ends with once that signal aborts. The A2A client, discovery
 * and the platform clients all run their calls in one. The scope owns its
 * timer and its listener on the caller's signal and drops both when the call
 * ends, so a finished call leaves nothing behind.
 */
import { NovaOSConnectionError } from "../errors/novaos-errors.js";

/** Thrown as the cause of the connection error when a call's deadline passes. */
export class CallTimeoutError extends Error {
  override readonly name = "TimeoutError";
  constructor(readonly timeoutMs: number) {
    super(`The call did not complete within ${timeoutMs} ms`);
  }
}

export class CallScope {
  readonly #controller = new AbortController();
  readonly #signals: AbortSignal[];
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #onAbort = (event: Event) => this.#controller.abort((event.target as AbortSignal).reason);

  /**
   * `signal` is the caller's; `owner`, the signal of whatever owns the call
   * (a client that is being closed), ends it the same way.
   */
  constructor(signal: AbortSignal | undefined, timeoutMs: number | undefined, owner?: AbortSignal) {
    this.#signals = [signal, owner].filter((s): s is AbortSignal => s !== undefined);
    const aborted = this.#signals.find((s) => s.aborted);
    if (aborted) {
      this.#controller.abort(aborted.reason);
    } else {
      for (const s of this.#signals) s.addEventListener("abort", this.#onAbort, { once: true });
    }
    if (timeoutMs !== undefined && timeoutMs > 0 && !this.#controller.signal.aborted) {
      this.#timer = setTimeout(() => this.#controller.abort(new CallTimeoutError(timeoutMs)), timeoutMs);
    }
  }

  /** The signal the transport watches: aborted by the caller's signal, the owner's or the deadline. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * The error a call ends with once the scope is aborted: the caller's own
   * abort reason (as `fetch` does), or a retryable NovaOSConnectionError for a
   * deadline. Undefined while the scope is live.
   */
  abortError(): unknown {
    const signal = this.#controller.signal;
    if (!signal.aborted) return undefined;
    const reason: unknown = signal.reason;
    if (reason instanceof CallTimeoutError) {
      return new NovaOSConnectionError(`Request timed out after ${reason.timeoutMs} ms`, {
        details: { timeoutMs: reason.timeoutMs },
        cause: reason,
      });
    }
    return reason;
  }

  /** Ends the scope: clears the deadline timer and the listeners on the caller's and the owner's signals. */
  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    for (const s of this.#signals) s.removeEventListener("abort", this.#onAbort);
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
