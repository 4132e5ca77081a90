/**
 * The CLI's own errors. A usage error is the caller's mistake (exit 2); a
 * failure carries the exit code it ends with. Both are shown as their message
 * alone: they are sentences written for a person.
 */
import type { ExitCode } from "./exit-codes.js";

export class CliUsageError extends Error {
  override readonly name = "CliUsageError";
}

export class CliFailure extends Error {
  override readonly name = "CliFailure";
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
