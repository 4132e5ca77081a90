/**
 * The one line a failed command prints on stderr: what went wrong, in words,
 * with the A2A error's name and code when the agent answered one. `--debug`
 * prints the stack and causes instead.
 */
import { inspect } from "node:util";
import { A2AError } from "../index.js";
import { isTimeout } from "./exit-codes.js";

export function errorLine(error: unknown): string {
  if (error instanceof A2AError) return `${error.name} (${error.code}): ${error.message}`;
  if (isTimeout(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return `timeout: ${message}`;
  }
  if (error instanceof Error) return error.message.split("\n")[0] ?? error.name;
  return String(error);
}

export function errorReport(error: unknown, debug: boolean): string {
  const line = `novaos-a2a: ${errorLine(error)}`;
  return debug ? `${line}\n${inspect(error, { depth: 6 })}` : line;
}
