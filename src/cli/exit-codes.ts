/**
 * The exit codes scripts can rely on, and the one place that decides which
 * error ends in which code. `--help` and docs/cli.md print the same table.
 */
import {
  A2AError,
  CallTimeoutError,
  NovaOSConnectionError,
  NovaOSDNSConnectionError,
  NovaOSError,
  NovaOSValidationError,
} from "../index.js";
import { StoreUnavailableError } from "../server/index.js";
import { CliFailure, CliUsageError } from "./cli-errors.js";

export const EXIT = {
  /** The command did what it was asked. */
  OK: 0,
  /** A check or verification failed (a MUST of `check`, a card lint error, a bad signature), or the task failed. */
  FAILED: 1,
  /** Bad arguments: an unknown option, a missing argument, invalid JSON in --data, an unreadable file. */
  USAGE: 2,
  /** The agent, service or database could not be reached (refused, reset, no such host, TLS). */
  UNREACHABLE: 3,
  /** It answered, but with an error or with something that is not A2A (HTML, not JSON, too large, 404). */
  PROTOCOL: 4,
  /** The --timeout passed before the answer (or the end of the stream). */
  TIMEOUT: 5,
  /** Ctrl-C. */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The table as `--help` shows it. */
export const EXIT_CODE_HELP = `Exit codes:
  0    ok
  1    a check or verification failed (check MUST, card lint, signature), or the task failed
  2    usage error (options, arguments, --data JSON, files)
  3    unreachable (connection refused, reset, unknown host, TLS)
  4    protocol error: the agent answered an error, or something that is not A2A
  5    timeout (--timeout)
  130  interrupted (Ctrl-C)`;

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && chain.length < 8; e = (e as { cause?: unknown }).cause) {
    chain.push(e);
  }
  return chain;
}

/** Whether `error` is (or was caused by) a passed deadline. */
export function isTimeout(error: unknown): boolean {
  return causes(error).some((e) => e instanceof CallTimeoutError || (e instanceof Error && e.name === "TimeoutError"));
}

export function exitCodeFor(error: unknown, signal?: AbortSignal): ExitCode {
  if (signal?.aborted) return EXIT.INTERRUPTED;
  if (error instanceof CliUsageError) return EXIT.USAGE;
  if (error instanceof CliFailure) return error.exitCode;
  // The agent's own answer, whatever its message says.
  if (error instanceof A2AError) return EXIT.PROTOCOL;
  if (error instanceof RangeError || error instanceof TypeError) return EXIT.USAGE;
  if (isTimeout(error)) return EXIT.TIMEOUT;
  if (
    error instanceof NovaOSConnectionError ||
    error instanceof NovaOSDNSConnectionError ||
    error instanceof StoreUnavailableError
  )
    return EXIT.UNREACHABLE;
  // A bad argument the SDK caught before any I/O names its field; other validation errors are the peer's.
  if (error instanceof NovaOSValidationError && error.field !== undefined) return EXIT.USAGE;
  if (error instanceof NovaOSError) return EXIT.PROTOCOL;
  return EXIT.FAILED;
}
