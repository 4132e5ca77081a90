/**
 * One run of a skill on a task: the execution harness. The skill runs as its
 * own unit of work (its own AbortSignal, its own copy of the context scope,
 * copied back when it settles), so it can be preempted while the caller's
 * context still sees what it set (harness rule 6). How a run ends decides what
 * is written (harness rules 1–5, docs/architecture.md):
 *
 * 1. Preempted by CancelTask: CANCELED was written before the preemption; the
 *    harness writes nothing more, whatever the skill does afterwards.
 * 2. The skill threw a cancellation nobody asked for: nothing is written; the
 *    task stays at its last state and streams end with no terminal frame.
 * 3. The request that started it went away: nothing happens here at all. The
 *    run is not tied to any request; its outcome is written and published
 *    for whoever still watches (SubscribeToTask, GetTask).
 * 4. Superseded by a newer message on the same task: preempted, its updater
 *    revoked; the newer run owns the task.
 * 5. The skill closed the task itself through its updater: that wins over the
 *    SkillResult it returns.
 * Otherwise the returned SkillResult decides (see skill-result.ts).
 *
 * The run is also where its tool events go (`tool.call` / `tool.result`):
 * live on the task's streams when a SendStreamingMessage started it, in
 * order with the skill's own writes; otherwise collected and folded into
 * the final message the harness writes.
 */
import { create, fromJson, type JsonValue, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import type { Context, Span } from "@opentelemetry/api";
import { type Message, type Part, PartSchema, type StreamResponse, TaskState } from "../../gen/a2a_pb.js";
import { withFiniteJson } from "../a2a/message-values.js";
import { isInterruptedState } from "../a2a/task-state.js";
import { skillErrorPart } from "../messages/error-message.js";
import { skillMetadataPart } from "../messages/metadata-part.js";
import { type ToolEvent, toolEventsPart } from "../messages/tool-event.js";
import { runInCopiedScope } from "../runtime/context-var.js";
import type { Logger } from "../runtime/logger.js";
import { otel } from "../runtime/otel.js";
import { TRACER_NAME } from "../runtime/tracing.js";
import type { AgentExecutionContext, ExecutionHandle } from "./agent-execution-context.js";
import { type CancellationReason, CancelledError, isCancellation } from "./cancellation.js";
import type { Subscription } from "./event-queue.js";
import type { LiveTask, LiveTasks } from "./live-task.js";
import { withMemoryPrefetch } from "./memory-prefetch.js";
import { agentMessage, artifact, textPart } from "./message-literals.js";
import { randomUuid } from "./random-uuid.js";
import { describeException, type SkillResult, taskStateForSkillStatus } from "./skill-result.js";
import { TaskUpdater } from "./task-updater.js";

/** A registered skill's code. */
// biome-ignore lint/suspicious/noExplicitAny: `any` keeps handlers typed with any TTools assignable.
export type SkillHandler<TTools = any> = (
  ctx: AgentExecutionContext<TTools>,
  inputText: string,
) => SkillResult | Promise<SkillResult>;

/** Masks personal data in skill output (AgentBuilder `maskOutputPii`). */
export interface OutputMasker {
  text(value: string): string;
  json<T>(value: T): T;
}

export interface ExecutionOptions {
  readonly live: LiveTask;
  readonly liveTasks: LiveTasks;
  readonly skillId: string;
  /** The skill may answer with a direct Message (`SkillResult.replyAs`). */
  readonly directReplies: boolean;
  readonly logger: Logger;
  readonly masker: OutputMasker | undefined;
  /** Stream the task's events to the starting request (SendStreamingMessage). */
  readonly stream: boolean;
  /** The caller's trace, which the skill's span continues (trace-context.ts); default the active context. */
  readonly traceContext?: Context | undefined;
}

type Outcome =
  | { readonly kind: "returned"; readonly value: unknown }
  | { readonly kind: "threw"; readonly error: unknown };

export class Execution implements ExecutionHandle {
  readonly live: LiveTask;
  /** The events the starting request streams; ends when this run ends. Only for streaming requests. */
  readonly requestEvents: Subscription<StreamResponse> | undefined;
  /** Resolves at the first terminal or interrupted state, or when the run is over (what a blocking SendMessage waits for). */
  readonly settled: Promise<void>;
  /** The direct Message the skill answered with instead of a task, once it did (no task was stored). */
  directReply: Message | undefined;
  readonly #options: ExecutionOptions;
  #over = false;
  #cancelled: CancelledError | undefined;
  #controller: AbortController | undefined;
  #resolveSettled!: () => void;
  #updater: TaskUpdater | undefined;
  /** The skill's span, while it is open. */
  #span: Span | undefined;
  /** The tool events of a non-streaming run, for its final message (made by the first one). */
  #toolEvents: ToolEvent[] | undefined;

  /** Registers as the task's current execution; the caller must have preempted any earlier one. */
  constructor(options: ExecutionOptions) {
    this.#options = options;
    this.live = options.live;
    this.live.execution = this;
    options.liveTasks.runStarted(this);
    this.requestEvents = options.stream ? this.live.events.subscribe() : undefined;
    this.settled = new Promise((resolve) => {
      this.#resolveSettled = resolve;
    });
  }

  /**
   * Aborts (with a `CancelledError`) when the run is preempted. Made on first
   * use: most skills never look at it, and signals are not free.
   */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#cancelled) this.#controller.abort(this.#cancelled);
    }
    return this.#controller.signal;
  }

  /**
   * The skill's task updater, made on first use (a skill that only returns
   * its result never needs one); revoked once the run is over.
   */
  get updater(): TaskUpdater {
    if (!this.#updater) {
      this.#updater = new TaskUpdater(this.live, () => this.#cancelled);
      if (this.#over) this.#updater.revoke();
    }
    return this.#updater;
  }

  /** Why the run was preempted, once it was. */
  get cancelled(): CancelledError | undefined {
    return this.#cancelled;
  }

  /** Marks the task WORKING (in memory only while it is deferred) and runs the skill; returns at once. */
  start(handler: SkillHandler, ctx: AgentExecutionContext<unknown>, inputText: string): void {
    if (this.live.pending) this.live.startDeferred(TaskState.WORKING);
    else if (this.live.task.status?.state !== TaskState.WORKING)
      this.#logFailure(this.live.writeStatus(TaskState.WORKING));
    void this.#run(handler, ctx, inputText);
  }

  /**
   * A tool event of this run: on a streaming run a status update on the
   * task's streams now (not stored), else kept for the final message. Masked
   * like the output when the agent masks PII. Dropped once the run is over.
   */
  emitToolEvent(event: ToolEvent): void {
    if (this.#over) return;
    const shown = this.#maskEvent(event);
    if (!this.#options.stream) {
      this.#toolEvents ??= [];
      this.#toolEvents.push(shown);
      return;
    }
    const task = this.live.task;
    this.live.announce(agentMessage(randomUuid(), task.id, task.contextId, [toolEventsPart([shown])]));
  }

  /** The tool events kept for the final message (none on a streaming run). */
  get bufferedToolEvents(): readonly ToolEvent[] {
    return this.#toolEvents ?? [];
  }

  /** @internal The live task reached `state` while this run owned it. */
  noteState(state: TaskState): void {
    if (state !== TaskState.SUBMITTED && state !== TaskState.WORKING) this.#resolveSettled();
  }

  /**
   * Stops waiting for the skill: its signal aborts with a `CancelledError`,
   * every SDK call it makes rejects with it, its updater is revoked, the
   * starting request's stream ends. A CancelTask has written CANCELED before
   * calling this.
   */
  preempt(reason: CancellationReason): void {
    if (this.#over) return;
    this.#cancelled = new CancelledError(reason);
    this.#controller?.abort(this.#cancelled);
    this.#endSpan(undefined);
    this.#end();
  }

  /**
   * Runs the skill in its own copy of the context scope (`runInCopiedScope`);
   * its outcome is recorded when it settles, unless the run was preempted
   * first. Callbacks rather than awaits: no promise of its own per run.
   */
  #run(handler: SkillHandler, ctx: AgentExecutionContext<unknown>, inputText: string): void {
    const { skillId } = this.#options;
    const api = otel();
    const skill = withMemoryPrefetch(handler, ctx, inputText);
    let call = skill;
    if (api) {
      const parent = this.#options.traceContext ?? api.context.active();
      const started = api.trace
        .getTracer(TRACER_NAME)
        .startSpan(
          `skill ${skillId}`,
          { attributes: { "novaos.skill.id": skillId, "a2a.task.id": this.live.task.id } },
          parent,
        );
      this.#span = started;
      // The span is made the active one when it records (an OpenTelemetry SDK is installed) or continues a
      // caller's trace: the skill's outbound calls then carry it. Otherwise there is nothing to carry.
      if (started.isRecording() || parent !== api.context.active()) {
        call = () => api.context.with(api.trace.setSpan(parent, started), skill);
      }
    }
    runInCopiedScope(call).then(
      (value) => this.#settled({ kind: "returned", value }),
      (error: unknown) => this.#settled({ kind: "threw", error }),
    );
  }

  /** The skill settled: nothing more when the run was preempted meanwhile, else its outcome is written. */
  #settled(outcome: Outcome): void {
    if (this.#over) return;
    this.#endSpan(outcome.kind === "threw" && !isCancellation(outcome.error) ? outcome.error : undefined);
    let written: Promise<void> | undefined;
    try {
      written = this.#finalize(outcome);
    } catch (error) {
      this.#unrecorded(error);
      return;
    }
    if (written)
      written.then(
        () => this.#end(),
        (error: unknown) => this.#unrecorded(error),
      );
    else this.#end();
  }

  /** Ends the skill's span (once), marked failed when the skill threw `error`. */
  #endSpan(error: unknown): void {
    const span = this.#span;
    if (!span) return;
    this.#span = undefined;
    const api = otel();
    if (api && error !== undefined) {
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: describeException(error) });
    }
    span.end();
  }

  /** Writing the outcome failed: the task is failed instead, then the run ends. */
  #unrecorded(error: unknown): void {
    this.#options.logger.error({ err: error, task_id: this.live.task.id }, "could not record the skill's outcome");
    void this.#failUnrecorded().finally(() => this.#end());
  }

  /**
   * The outcome could not be written (output that is not JSON, a masker
   * that failed): the task must not stay WORKING for ever, and what could
   * not be written (or masked) is not written raw either.
   */
  async #failUnrecorded(): Promise<void> {
    if (this.live.terminal) return;
    try {
      await this.#write(TaskState.FAILED, [textPart("The skill's result could not be recorded")]);
    } catch (error) {
      this.#options.logger.error({ err: error, task_id: this.live.task.id }, "task store save failed");
    }
  }

  /** What the outcome writes, and its save; undefined when it writes nothing (not async: one promise fewer per run). */
  #finalize(outcome: Outcome): Promise<void> | undefined {
    const { logger } = this.#options;
    // Harness rule 5 (and harness rule 1 when a CancelTask raced the return): a terminal state stands.
    if (this.live.terminal) return undefined;
    if (outcome.kind === "threw") {
      if (isCancellation(outcome.error)) {
        // Harness rule 2: the skill gave up on its own; the task keeps its last state.
        logger.info({ task_id: this.live.task.id }, "skill ended in a cancellation nobody requested; task left as is");
        return undefined;
      }
      logger.warn({ err: outcome.error, task_id: this.live.task.id }, "skill failed");
      // Masked once for both parts: the error detail carries the same text as the message.
      const description = this.#maskText(describeException(outcome.error));
      return this.#write(TaskState.FAILED, [textPart(description), skillErrorPart(description)]);
    }
    const result = outcome.value;
    if (typeof result !== "object" || result === null || Array.isArray(result)) {
      const got = result === null ? "null" : Array.isArray(result) ? "an array" : typeof result;
      return this.#write(TaskState.FAILED, [textPart(`The skill returned ${got} instead of a SkillResult`)]);
    }
    const { output, status = "COMPLETED", error, metadata, replyAs } = result as SkillResult;
    if (replyAs === "message" && !this.#options.directReplies) {
      const problem = `The skill replied with a direct Message but is not registered with { directReplies: true }`;
      logger.error({ task_id: this.live.task.id }, problem);
      return this.#write(TaskState.FAILED, [textPart(problem), skillErrorPart(problem)]);
    }
    const state = taskStateForSkillStatus(status);
    if (state === undefined) {
      const problem = `The skill returned an unknown SkillResult status '${status}'`;
      logger.error({ task_id: this.live.task.id, status }, problem);
      return this.#write(TaskState.FAILED, [textPart(problem), skillErrorPart(problem, String(status))]);
    }
    // The skill already paused with its own (richer) message, e.g. a HITL or OAuth payload: keep it.
    if (
      isInterruptedState(state) &&
      this.#updater?.lastWrittenState === state &&
      this.live.task.status?.state === state
    ) {
      return undefined;
    }
    const outputParts = this.#outputParts(output);
    const masked = withFiniteJson(metadata && this.#options.masker ? this.#options.masker.json(metadata) : metadata);
    const metadataParts = masked ? [skillMetadataPart(masked)] : [];
    // The output's parts and the metadata part: the answer's message, and the output artifact's parts.
    const parts = masked ? [...outputParts, ...metadataParts] : outputParts;
    // No task exists yet: the answer is a Message of its own (spec §3.1.1), and nothing is stored.
    if (replyAs === "message" && state === TaskState.COMPLETED && this.live.pending) {
      this.directReply = agentMessage(randomUuid(), "", this.live.task.contextId, parts);
      return undefined;
    }
    if (state === TaskState.FAILED) {
      const reason = this.#maskText(error ?? (typeof output === "string" ? output : "") ?? "");
      const text = reason || "The skill failed";
      return this.#write(state, [textPart(text), skillErrorPart(text, String(status)), ...metadataParts]);
    }
    if (state === TaskState.COMPLETED && outputParts.length > 0) {
      this.live.writeArtifact({
        // Made here and written once, just before the task closes: nothing appends to it, so it keeps the parts
        // list the closing message has too.
        artifact: artifact(randomUuid(), "output", parts),
        lastChunk: true,
        owned: true,
        // The closing status, written next, stores both in one save.
        savedByNextWrite: true,
      });
    }
    return this.#write(state, parts);
  }

  #outputParts(output: JsonValue | undefined): Part[] {
    if (output === undefined) return [];
    if (typeof output === "string") return output === "" ? [] : [textPart(this.#maskText(output))];
    // JSON has no NaN or Infinity: a skill's own such numbers are stored as null (docs/decisions.md).
    const value = withFiniteJson(this.#options.masker ? this.#options.masker.json(output) : output);
    return [
      create(PartSchema, {
        content: { case: "data", value: fromJson(ValueSchema, value) },
        mediaType: "application/json",
      }),
    ];
  }

  #maskText(text: string): string {
    return this.#options.masker ? this.#options.masker.text(text) : text;
  }

  #maskEvent(event: ToolEvent): ToolEvent {
    const masker = this.#options.masker;
    if (!masker) return event;
    return {
      ...event,
      arguments: event.arguments && masker.json(event.arguments),
      result: event.result && fromJson(ValueSchema, masker.json(toJson(ValueSchema, event.result))),
      error: masker.text(event.error),
    };
  }

  /** A status write with an agent message (none when there are no parts), carrying the run's tool events. */
  #write(state: TaskState, written: Part[]): Promise<void> | undefined {
    const parts = this.#toolEvents ? [...written, toolEventsPart(this.#toolEvents)] : written;
    const task = this.live.task;
    const message = parts.length === 0 ? undefined : agentMessage(randomUuid(), task.id, task.contextId, parts);
    return this.live.writeStatus(state, message);
  }

  #logFailure(write: Promise<void> | undefined): void {
    write?.catch((error: unknown) =>
      this.#options.logger.error({ err: error, task_id: this.live.task.id }, "task store save failed"),
    );
  }

  /**
   * Revokes, ends the request's stream, and hands the task back once nothing
   * runs on it. A deferred task is made now unless the skill answered with a
   * direct Message (then it never existed: it is let go unstored).
   */
  #end(): void {
    if (this.#over) return;
    this.#over = true;
    if (!this.directReply) this.live.commit();
    this.#updater?.revoke();
    this.requestEvents?.end();
    this.#resolveSettled();
    const live = this.live;
    const ended = () => this.#options.liveTasks.runEnded(live, this);
    if (live.execution === this) {
      live.execution = undefined;
      live.stored().then(ended, ended);
    } else {
      // Superseded: the newer run owns the task and its saves.
      ended();
    }
  }
}
