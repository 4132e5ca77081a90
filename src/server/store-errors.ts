/**
 * What a task or push-config store throws when it cannot do what was asked.
 * The harness logs them and the bindings answer them as internal errors
 * (-32603, HTTP 500, gRPC INTERNAL) without their message; they are typed so
 * that a caller of a store, an operator's log query or the fleet harness can
 * tell a conflict from an outage from a damaged row.
 */
import { NovaOSError, type NovaOSErrorOptions } from "../errors/novaos-errors.js";

/** The root of every store failure. */
export class StoreError extends NovaOSError {
  static override readonly brand: string = "StoreError";
}

/**
 * A save expected another version of the task than the stored one: another
 * writer saved it meanwhile. Nothing was written; the writer must read the
 * task again before it writes.
 */
export class TaskVersionConflictError extends StoreError {
  static override readonly brand: string = "TaskVersionConflictError";
  readonly taskId: string;
  readonly expectedVersion: number;
  constructor(taskId: string, expectedVersion: number, options: NovaOSErrorOptions = {}) {
    super(`Task ${taskId} changed since version ${expectedVersion}; nothing was written`, options);
    this.taskId = taskId;
    this.expectedVersion = expectedVersion;
  }
}

/** The store could not be reached: no connection to be had, the connection dropped, the server refused. */
export class StoreUnavailableError extends StoreError {
  static override readonly brand: string = "StoreUnavailableError";
  override get isRetryable(): boolean {
    return true;
  }
}

/** The store took longer than it is allowed to (a statement timeout). Nothing is known to have been written. */
export class StoreTimeoutError extends StoreError {
  static override readonly brand: string = "StoreTimeoutError";
  override get isRetryable(): boolean {
    return true;
  }
}

/** A stored row could not be read back as a task or push config (damaged or written by something else). */
export class CorruptRecordError extends StoreError {
  static override readonly brand: string = "CorruptRecordError";
  /** The key of the row, e.g. its task id. */
  readonly recordId: string;
  constructor(recordId: string, message: string, options: NovaOSErrorOptions = {}) {
    super(message, options);
    this.recordId = recordId;
  }
}
