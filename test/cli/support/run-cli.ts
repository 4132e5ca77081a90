/**
 * Running novaos-a2a in tests: in process (`runCli` over buffers, fast, the
 * same code path as the bin) or as a real process from source with tsx (for
 * what only a process shows: signals, the bin's own error line).
 *
 * The process is one `node --import tsx`, not the `tsx` command: tsx's
 * command runs the script in a child and, when the child does not report a
 * Ctrl-C within 30 ms, sends it the signal a second time; on a loaded machine
 * one Ctrl-C then arrives twice, and the CLI's second-Ctrl-C rule exits at once.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { PassThrough } from "node:stream";
import { runCli } from "../../../src/cli/run.js";

export const ROOT = resolve(import.meta.dirname, "../../..");
export const CLI_SOURCE = resolve(ROOT, "src/cli/main.ts");
/** The command line that runs the CLI from source in one process (a shell word list). */
export const CLI_COMMAND = `${process.execPath} --import tsx ${CLI_SOURCE}`;

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  stdin?: string;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Told about stdout as it grows (to act once some output is in). */
  onStdout?: (soFar: string) => void;
}

/** One run of the CLI in this process; stdout and stderr are pipes (not terminals). */
export async function cli(argv: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => {
    out += chunk;
    options.onStdout?.(out);
  });
  stderr.on("data", (chunk) => {
    err += chunk;
  });
  stdin.end(options.stdin ?? "");
  const code = await runCli(argv, {
    stdout,
    stderr,
    stdin,
    env: { ...options.env },
    signal: options.signal ?? new AbortController().signal,
  });
  return { code, stdout: out, stderr: err };
}

/** One run of the bin from source in its own process. */
export function cliProcess(
  argv: readonly string[],
  options: { env?: NodeJS.ProcessEnv; bin?: string } = {},
): Promise<CliRun> {
  const [file, args] = options.bin
    ? [options.bin, [...argv]]
    : [process.execPath, ["--import", "tsx", CLI_SOURCE, ...argv]];
  return new Promise((done) => {
    execFile(
      file,
      args,
      { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", ...options.env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** The JSON documents of an NDJSON (or one pretty JSON) output. */
export function jsonLines(text: string): unknown[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}
