/**
 * A skill's handle on its task: report progress, publish artifacts, pause
 * for input or authorisation, or close the task. Every write is stored (so
 * GetTask sees it) and published (so streams see it) before the returned
 * promise resolves.
 *
 * - After a terminal write through this updater, further writes throw
 *   `TaskSealedError`: the skill already decided, and its decision wins over
 *   the `SkillResult` it returns.
 * - When the execution is preempted (CancelTask, or a newer message on the
 *   same task), every write rejects with the `CancelledError` and changes
 *   nothing.
 * - Once the execution has finished, the updater is revoked: later writes
 *   (from work the skill left running) are silently ignored, so two skills
 *   never write one task.
 * - A number JSON cannot carry (NaN, ±Infinity) in what a skill writes is
 *   stored as null, so the task can always be written back.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { ArtifactSchema, type Message, MessageSchema, type Part, Role, TaskState } from "../../gen/a2a_pb.js";
import { withFiniteJson, withFiniteNumbers } from "../a2a/message-values.js";
import { isTerminalState } from "../a2a/task-state.js";
import { NovaOSError } from "../errors/novaos-errors.js";
import type { LiveTask } from "./live-task.js";
import { agentMessage, artifact, textPart } from "./message-literals.js";
import { randomUuid } from "./random-uuid.js";
import { nextTurn, overSlice } from "./turn-slice.js";

/** Unread events in a watching stream past which each write yields to the event loop. See docs/decisions.md. */
export const STREAM_BACKLOG = 256;

/** A status message: an A2A `Message`, or plain text for a one-part agent message. */
export type StatusMessage = Message | string;

export interface AddArtifactOptions {
  /** Default: a new id. Reuse an id to extend (`append`) or replace that artifact. */
  artifactId?: string;
  name?: string;
  description?: string;
  metadata?: JsonObject;
  extensions?: string[];
  /** Add the parts to the artifact with this id instead of replacing it. */
  append?: boolean;
  /** This is the artifact's final chunk. */
  lastChunk?: boolean;
}

/** A write after the updater's own terminal write. */
export class TaskSealedError extends NovaOSError {
  static override readonly brand: string = "TaskSealedError";
}

export class TaskUpdater {
  readonly #live: LiveTask;
  readonly #cancelled: () => Error | undefined;
  #revoked = false;
  #sealed = false;
  #lastState: TaskState | undefined;

  /** `cancelled` answers the preemption error once the execution is preempted. */
  constructor(live: LiveTask, cancelled: () => Error | undefined) {
    this.#live = live;
    this.#cancelled = cancelled;
  }

  get taskId(): string {
    return this.#live.task.id;
  }

  get contextId(): string {
    return this.#live.task.contextId;
  }

  /** True once the execution ended or was preempted: writes no longer reach the task. */
  get isRevoked(): boolean {
    return this.#revoked;
  }

  /** True after a terminal write through this updater (or after revocation). */
  get isSealed(): boolean {
    return this.#sealed || this.#revoked;
  }

  /** @internal The last state this updater wrote, if any. */
  get lastWrittenState(): TaskState | undefined {
    return this.#lastState;
  }

  /** @internal Stops every later write. One-way. */
  revoke(): void {
    this.#revoked = true;
  }

  submit(message?: StatusMessage): Promise<void> {
    return this.updateStatus(TaskState.SUBMITTED, message);
  }

  startWork(message?: StatusMessage): Promise<void> {
    return this.updateStatus(TaskState.WORKING, message);
  }

  /** Pauses for the caller's answer (INPUT_REQUIRED; not terminal). */
  requiresInput(message?: StatusMessage): Promise<void> {
    return this.updateStatus(TaskState.INPUT_REQUIRED, message);
  }

  /** Pauses for an out-of-band step such as OAuth (AUTH_REQUIRED; not terminal). */
  requiresAuth(message?: StatusMessage): Promise<void> {
    return this.updateStatus(TaskState.AUTH_REQUIRED, message);
  }

  complete(message?: StatusMessage): Promise<void> {
    return this.updateStatus(TaskState.COMPLETED, message);
  }

  failed(message?: StatusMessage): Promise<void> {
    return this.updateStatus(TaskState.FAILED, message);
  }

  reject(message?: StatusMessage): Promise<void> {
    return this.updateStatus(TaskState.REJECTED, message);
  }

  cancel(message?: StatusMessage): Promise<void> {
    return this.updateStatus(TaskState.CANCELED, message);
  }

  async updateStatus(state: TaskState, message?: StatusMessage, metadata?: JsonObject): Promise<void> {
    if (!this.#writable()) return;
    const written = this.#live.writeStatus(
      state,
      message === undefined ? undefined : withFiniteNumbers(MessageSchema, this.#agentMessage(message)),
      withFiniteJson(metadata),
    );
    if (!written) return;
    this.#lastState = state;
    if (isTerminalState(state)) this.#sealed = true;
    await written;
    await this.#letStreamsDrain();
  }

  async addArtifact(parts: Part[], options: AddArtifactOptions = {}): Promise<void> {
    if (!this.#writable()) return;
    // The event keeps its own list: a skill may reuse its array for the next chunk.
    const written = withFiniteNumbers(
      ArtifactSchema,
      artifact(options.artifactId ?? randomUuid(), options.name ?? "", [...parts], options),
    );
    await this.#live.writeArtifact({ artifact: written, append: options.append, lastChunk: options.lastChunk });
    await this.#letStreamsDrain();
  }

  /**
   * A skill that writes without awaiting anything else runs on microtasks
   * only, so the sockets of its streams never get a turn to drain (every
   * event would wait in memory until the skill ends), and no other request
   * gets one either. Past STREAM_BACKLOG unread events, or once this turn's
   * slice of stream work is spent (turn-slice.ts), each write yields to the
   * event loop once. Nothing blocks: a stream that is not read only slows
   * the skill down.
   */
  #letStreamsDrain(): Promise<void> | undefined {
    if (this.#live.backlog < STREAM_BACKLOG && !overSlice()) return undefined;
    return nextTurn();
  }

  /** An agent message on this task (not published): role AGENT, ids threaded, a fresh message id. */
  newAgentMessage(parts: Part[], metadata?: JsonObject): Message {
    return agentMessage(randomUuid(), this.taskId, this.contextId, [...parts], metadata);
  }

  /** False when the write must be ignored; throws when it must fail. */
  #writable(): boolean {
    const cancelled = this.#cancelled();
    if (cancelled) throw cancelled;
    if (this.#revoked) return false;
    if (this.#sealed) throw new TaskSealedError(`Task ${this.taskId} was already closed by this skill`);
    return true;
  }

  #agentMessage(message: StatusMessage): Message {
    if (typeof message === "string") return this.newAgentMessage([textPart(message)]);
    // Thread the task's ids into a message built without them (e.g. by a MessageBuilder).
    if (message.taskId && message.contextId && message.messageId && message.role !== Role.UNSPECIFIED) return message;
    return {
      ...message,
      messageId: message.messageId || randomUuid(),
      role: message.role === Role.UNSPECIFIED ? Role.AGENT : message.role,
      taskId: message.taskId || this.taskId,
      contextId: message.contextId || this.contextId,
    };
  }
}

export { textPart };
