import type { Command } from "commander";
import type { CliIo } from "../io.js";

export function registerCheck(_program: Command, _io: CliIo): void {}
