/**
 * `check URL`: the black-box conformance check. Fetches the card, runs the
 * requirement table (src/cli/check/requirements/) on the card and on every
 * interface it declares, prints pass/fail/skip with the spec section, and
 * exits 1 when a MUST failed (`--strict`: a SHOULD too).
 */
import type { Command } from "commander";
import { NovaOSConnectionError, type ProtocolBinding } from "../../index.js";
import { requirementLines, resultPrinter, summarize, summaryLine } from "../check/report.js";
import type { CheckOptions, MessageSpec } from "../check/requirement.js";
import { CARD_SERVED } from "../check/requirements/card.js";
import { REQUIREMENTS } from "../check/requirements/index.js";
import { type CheckedCard, type RequirementResult, runCheck } from "../check/run-check.js";
import { CliFailure } from "../cli-errors.js";
import { addCredentialOptions, authFrom, fetchCard, parseBinding, parseSeconds } from "../connection.js";
import { EXIT, isTimeout } from "../exit-codes.js";
import type { CliIo } from "../io.js";
import { createOutput } from "../output.js";

/** Defaults: one call or stream may take 10 s; a stream has 2 s to close after its last frame. */
export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;
export const DEFAULT_STREAM_GRACE_MS = 2_000;

interface CheckCommandOptions {
  text: string;
  skill?: string;
  slowText?: string;
  slowSkill?: string;
  inputText?: string;
  inputSkill?: string;
  binding?: ProtocolBinding[];
  jwks?: string;
  timeout?: number;
  grace?: number;
  auth?: "bearer" | "apikey";
  token?: string;
  header?: Record<string, string>;
  strict?: boolean;
  list?: boolean;
}

const spec = (text: string | undefined, skill: string | undefined): MessageSpec | undefined =>
  text === undefined && skill === undefined ? undefined : { text: text ?? "hello", ...(skill ? { skill } : {}) };

export function registerCheck(program: Command, io: CliIo): void {
  addCredentialOptions(program.command("check"))
    .description("black-box conformance check of an A2A v1.0 agent over every binding its card declares")
    .argument("[url]", "agent base URL or card URL")
    .option("--text <text>", "a message the agent answers and finishes", "hello")
    .option("--skill <id>", "the skill that message runs")
    .option("--slow-text <text>", "a message whose task keeps working for a few seconds (cancel, subscribe)")
    .option("--slow-skill <id>", "the skill of the slow message")
    .option("--input-text <text>", "a message whose task pauses on INPUT_REQUIRED (multi-turn)")
    .option("--input-skill <id>", "the skill of the input message")
    .option("--binding <binding>", "only this binding (repeatable)", (v: string, prev: ProtocolBinding[] = []) => [
      ...prev,
      parseBinding(v),
    ])
    .option("--jwks <url>", "also verify the card's signatures against this JWKS")
    .option(
      "--timeout <seconds>",
      `deadline of one call or stream (default ${DEFAULT_CHECK_TIMEOUT_MS / 1000})`,
      parseSeconds,
    )
    .option(
      "--grace <seconds>",
      `how long a stream may stay open after its last frame (default ${DEFAULT_STREAM_GRACE_MS / 1000})`,
      parseSeconds,
    )
    .option("--strict", "exit 1 on a failed SHOULD too")
    .option("--list", "print the requirements without running them")
    .action(async (url: string | undefined, options: CheckCommandOptions, command: Command) => {
      const out = createOutput(io, command.optsWithGlobals());
      if (options.list) {
        if (out.json) {
          out.data(REQUIREMENTS.map(({ id, section, level, title, scope }) => ({ id, section, level, title, scope })));
        } else for (const line of requirementLines(REQUIREMENTS)) out.line(line);
        return;
      }
      if (!url) throw new CliFailure("check needs a URL (or --list)", EXIT.USAGE);
      const auth = authFrom({ ...options, binding: undefined }, io.env);
      const checkOptions: CheckOptions = {
        quick: spec(options.text, options.skill) as MessageSpec,
        slow: spec(options.slowText, options.slowSkill),
        input: spec(options.inputText, options.inputSkill),
        timeoutMs: options.timeout ?? DEFAULT_CHECK_TIMEOUT_MS,
        graceMs: options.grace ?? DEFAULT_STREAM_GRACE_MS,
        jwksUrl: options.jwks,
        headers: { ...(options.header ?? {}), ...((await auth?.headers()) ?? {}) },
      };
      const print = out.json ? () => undefined : resultPrinter(out);
      let results: RequirementResult[];
      const checked = await readCard(url, options, io);
      if ("failure" in checked) {
        const failed: RequirementResult = { ...CARD_SERVED, status: "fail", reason: checked.failure };
        print(failed);
        results = [failed];
      } else {
        if (!out.json)
          out.line(
            out.colors.dim(
              `checking ${checked.card.name} ${checked.card.version} against A2A v1.0 (spec text v1.0.1)\n`,
            ),
          );
        results = await runCheck(checked, checkOptions, options.binding, print);
      }
      const summary = summarize(results);
      if (out.json) out.data({ url, summary, results });
      else out.line(`\n${summaryLine(summary, out)}`);
      const failing = summary.mustFailed + (options.strict ? summary.shouldFailed : 0);
      if (failing > 0)
        throw new CliFailure(`${failing} ${options.strict ? "" : "MUST "}requirement(s) failed`, EXIT.FAILED);
    });
}

/** The card, or why it could not be read (an agent that cannot be reached at all is an error, not a finding). */
async function readCard(
  url: string,
  options: CheckCommandOptions,
  io: CliIo,
): Promise<CheckedCard | { failure: string }> {
  try {
    const fetched = await fetchCard(url, { ...options, binding: undefined }, io, io.signal);
    return { card: fetched.card, json: fetched.json, headers: fetched.headers ?? new Headers() };
  } catch (error) {
    if (io.signal.aborted || error instanceof NovaOSConnectionError || isTimeout(error)) throw error;
    if (error instanceof RangeError || error instanceof CliFailure) throw error;
    return { failure: (error as Error).message };
  }
}
