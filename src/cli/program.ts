/**
 * The `novaos-a2a` command tree (commander): every command, the global
 * options, and the exit-code table in every `--help`.
 */
import { Command } from "commander";
import { A2A_SPEC_VERSION } from "../index.js";
import { registerCard } from "./commands/card.js";
import { registerChat } from "./commands/chat.js";
import { registerCheck } from "./commands/check.js";
import { registerDns } from "./commands/dns.js";
import { registerFleet } from "./commands/fleet.js";
import { registerGateway } from "./commands/gateway.js";
import { registerKeys } from "./commands/keys.js";
import { registerPush } from "./commands/push.js";
import { registerSeal } from "./commands/seal.js";
import { registerSend } from "./commands/send.js";
import { registerTask } from "./commands/task.js";
import { EXIT_CODE_HELP } from "./exit-codes.js";
import type { CliIo } from "./io.js";

export const CLI_NAME = "novaos-a2a";

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

export function buildProgram(io: CliIo, version: string): Command {
  const program = new Command(CLI_NAME)
    .description(`A command-line tool for any A2A ${A2A_SPEC_VERSION} agent, with a built-in conformance check`)
    .version(version)
    .option("--json", "machine output: JSON on stdout (streams: one JSON object per line)")
    .option("--debug", "print stack traces")
    .option("--no-color", "no colours (also: $NO_COLOR)")
    .showHelpAfterError("(add --help for usage)")
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  registerCard(program, io);
  registerSend(program, io);
  registerChat(program, io);
  registerTask(program, io);
  registerPush(program, io);
  registerKeys(program, io);
  registerSeal(program, io);
  registerDns(program, io);
  registerGateway(program, io);
  registerFleet(program, io);
  registerCheck(program, io);
  for (const command of allCommands(program)) {
    command.exitOverride().configureOutput(program.configureOutput());
    command.addHelpText("after", `\n${EXIT_CODE_HELP}`);
  }
  return program;
}
