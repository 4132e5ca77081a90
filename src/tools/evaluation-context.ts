/**
 * `EvaluationContext`: the transcript of every platform tool call made while
 * it is active, for grading an agent offline or in CI. Each call is recorded
 * with its arguments and its response (or error) exactly as they were:
 * unmasked, whatever `maskOutputPii` says (that masks what the agent sends,
 * not what an evaluation reads), with no way to leave a call out. Arguments
 * often carry customer data: keep transcripts where customer data may be.
 *
 *   const evaluation = new EvaluationContext();
 *   await evaluation.run(() => agent.requestHandler().sendMessage(request, context));
 *   for (const call of evaluation.toolCalls) console.log(call.toolName, call.success);
 *
 * "Active" is per unit of async work, through a `ContextVar`: `run(fn)`
 * activates it for `fn` and everything `fn` starts (a skill runs in a copy of
 * its caller's scope, so the skills it starts record into it too); a
 * concurrent run outside `fn` never does. The variable is made by the first
 * EvaluationContext, so a process that never evaluates never pays for
 * context tracking.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { ContextVar, runInNewScope } from "../runtime/context-var.js";

/** One recorded tool call. */
export interface EvaluationToolCall {
  /** The id its tool events carry. */
  readonly callId: string;
  /** The tool's fully qualified name. */
  readonly toolName: string;
  /** The arguments sent, as given. */
  readonly arguments: Readonly<JsonObject>;
  readonly success: boolean;
  /** The tool's result (success only). */
  readonly response?: unknown;
  /** Why the call failed (failure only). */
  readonly error?: string;
  readonly durationMs: number;
  readonly startedAt: Date;
}

let active: ContextVar<EvaluationContext> | undefined;

export class EvaluationContext {
  readonly #calls: EvaluationToolCall[] = [];

  constructor() {
    active ??= new ContextVar<EvaluationContext>("novaos.evaluation");
  }

  /** The evaluation active in the current unit of work, if any. */
  static current(): EvaluationContext | undefined {
    return active?.get();
  }

  /** Every call recorded so far, in the order they finished. */
  get toolCalls(): readonly EvaluationToolCall[] {
    return this.#calls;
  }

  /** Runs `fn` with this evaluation active for it and for everything it starts. */
  run<R>(fn: () => R): R {
    return runInNewScope(() => {
      active?.set(this);
      return fn();
    });
  }

  /** Records one call (the tool bindings call this for every call they make while this is active). */
  record(call: EvaluationToolCall): void {
    this.#calls.push(call);
  }
}
