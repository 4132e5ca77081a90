/**
 * What a command may touch of the outside world, passed in rather than read
 * from `process`: the bin gives the real streams and environment, tests give
 * buffers. `signal` is aborted when the person presses Ctrl-C.
 */
import type { Readable, Writable } from "node:stream";

export type OutputStream = Writable & { isTTY?: boolean; columns?: number; rows?: number };
export type InputStream = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly stdin: InputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C (SIGINT). */
  readonly signal: AbortSignal;
}
