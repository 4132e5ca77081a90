/**
 * One run of the CLI over the given streams: parse, dispatch, and turn the
 * outcome into an exit code. A failure prints one line on stderr (a JSON
 * object with `--json`), the stack only with `--debug`.
 */
import { CommanderError } from "commander";
import { A2AError } from "../index.js";
import { errorLine, errorReport } from "./error-line.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { buildProgram } from "./program.js";

/** The version `--version` prints; the bin passes the package's. */
export async function runCli(argv: readonly string[], io: CliIo, version = "0.0.0"): Promise<number> {
  const program = buildProgram(io, version);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return EXIT.OK;
  } catch (error) {
    // commander has printed its own message (or the help) already.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    const code = exitCodeFor(error, io.signal);
    const debug = argv.includes("--debug");
    if (argv.includes("--json") && !debug) {
      const detail = error instanceof A2AError ? { type: error.name, code: error.code } : {};
      io.stderr.write(`${JSON.stringify({ error: { message: errorLine(error), ...detail, exitCode: code } })}\n`);
    } else if (code !== EXIT.INTERRUPTED || debug) {
      io.stderr.write(`${errorReport(error, debug)}\n`);
    }
    return code;
  }
}
