/**
 * How a command prints: JSON for machines (`--json`), colour and live
 * regions only when stdout is a terminal, plain lines otherwise. Errors and
 * notes go to stderr so stdout stays the command's answer.
 */
import pc from "picocolors";
import type { CliIo } from "./io.js";

export type Colors = ReturnType<typeof pc.createColors>;

export interface Output {
  /** `--json`: stdout carries JSON only. */
  readonly json: boolean;
  /** stdout is a terminal and not in JSON mode: live regions and prompts may be used. */
  readonly live: boolean;
  readonly colors: Colors;
  readonly io: CliIo;
  /** A line on stdout. */
  line(text?: string): void;
  /** One JSON document on stdout (pretty when a person reads it, one line otherwise). */
  data(value: unknown): void;
  /** A note on stderr. */
  note(text: string): void;
}

export interface OutputOptions {
  json?: boolean;
  color?: boolean;
}

export function createOutput(io: CliIo, options: OutputOptions): Output {
  const tty = io.stdout.isTTY === true;
  const json = options.json === true;
  const colorWanted =
    options.color !== false && io.env.NO_COLOR === undefined && (tty || io.env.FORCE_COLOR !== undefined);
  const colors = pc.createColors(colorWanted && !json);
  return {
    json,
    live: tty && !json,
    colors,
    io,
    line(text = "") {
      io.stdout.write(`${text}\n`);
    },
    data(value) {
      io.stdout.write(`${JSON.stringify(value, null, tty ? 2 : undefined)}\n`);
    },
    note(text) {
      io.stderr.write(`${text}\n`);
    },
  };
}
