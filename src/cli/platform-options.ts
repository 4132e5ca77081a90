/**
 * Options of the commands that call NovaOS platform services (Agent DNS, the
 * Execution Gateway) rather than an agent: where the service is, and the
 * same credentials and deadline flags as the agent commands.
 */
import type { Command } from "commander";
import { addCredentialOptions, parseSeconds } from "./connection.js";

export interface PlatformOptions {
  url?: string;
  auth?: "bearer" | "apikey";
  token?: string;
  timeout?: number;
  header?: Record<string, string>;
}

export function addPlatformOptions(command: Command, where: string): Command {
  return addCredentialOptions(command.option("--url <url>", where)).option(
    "--timeout <seconds>",
    "deadline of each call",
    parseSeconds,
  );
}
