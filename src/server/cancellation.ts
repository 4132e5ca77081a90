/**
 * How a skill learns that it must stop. JavaScript cannot interrupt a running
 * promise, so preemption is cooperative: the execution's `AbortSignal` aborts
 * with a `CancelledError`, and every SDK call the skill awaits (task updater,
 * secrets, tools) rejects with it. `ctx.throwIfCancelled()` throws the same
 * error, so a skill handles "cancelled while awaiting" and "cancelled while
 * polling" alike.
 */
import { NovaOSError } from "../errors/novaos-errors.js";

/** Why an execution was preempted. */
export type CancellationReason = "cancel-task" | "superseded" | "shutdown";

const MESSAGES: Readonly<Record<CancellationReason, string>> = {
  "cancel-task": "The task was canceled (CancelTask)",
  superseded: "The execution was superseded by a newer message on the same task",
  shutdown: "The agent shut down before the skill finished",
};

/**
 * The skill's execution was preempted: a CancelTask arrived, a new message
 * superseded it, or the agent shut down before it finished (its drain ran out).
 */
export class CancelledError extends NovaOSError {
  static override readonly brand: string = "CancelledError";
  readonly reason: CancellationReason;

  constructor(reason: CancellationReason, message?: string) {
    super(message ?? MESSAGES[reason], { details: { reason } });
    this.reason = reason;
  }
}

/**
 * True for an error that means "cancelled": ours, or the `AbortError` that
 * platform APIs (fetch, timers, streams) throw when a signal aborts them.
 * A `TimeoutError` is a failure, not a cancellation.
 */
export function isCancellation(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof Error && error.name === "AbortError");
}
