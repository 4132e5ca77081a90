/**
 * Options of the commands that call NovaOS platform services (Agent DNS, the
 * Execution Gateway) rather than an agent: where the service is, and the
 * same credentials and deadline flags as the agent commands.
 */
import { type Command, Option } from "commander";
import { API_KEY_ENV, collectHeader, parseSeconds, TOKEN_ENV } from "./connection.js";

export interface PlatformOptions {
  url?: string;
  auth?: "bearer" | "apikey";
  token?: string;
  timeout?: number;
  header?: Record<string, string>;
}

export function addPlatformOptions(command: Command, where: string): Command {
  return command
    .option("--url <url>", where)
    .addOption(
      new Option("--auth <scheme>", `credentials: bearer ($${TOKEN_ENV}) or apikey ($${API_KEY_ENV})`).choices([
        "bearer",
        "apikey",
      ]),
    )
    .option("--token <secret>", "the bearer token or API key (prefer the environment)")
    .option("-H, --header <header>", 'extra request header "Name: value" (repeatable)', collectHeader)
    .option("--timeout <seconds>", "deadline of each call", parseSeconds);
}
