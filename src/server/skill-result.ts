/**
 * What a skill returns, and how its NovaOS status becomes an A2A task state.
 * The status stays in NovaOS's own vocabulary so skill code never names a
 * wire type; the harness owns the translation (the reference's
 * `_SKILL_STATUS_TO_TASK_STATE`, legacy spellings included).
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { TaskState } from "../../gen/a2a_pb.js";

/** The statuses a skill may return. There is deliberately no CANCELED: only CancelTask cancels. */
export type SkillStatus =
  | "COMPLETED"
  | "FAILED"
  | "WAITING_USER"
  | "REJECTED"
  | "AUTH_REQUIRED"
  | "QUEUED"
  | "RUNNING"
  | "IN_PROGRESS"
  | "ERROR";

export interface SkillResult {
  /** The skill's answer: a string becomes a text part, any other JSON value a data part. */
  output?: JsonValue | undefined;
  /**
   * Default `COMPLETED`. A closed union: a typo is a compile error. A value
   * outside it (from JavaScript) fails the task, naming the value.
   */
  status?: SkillStatus;
  /** Why the skill failed (FAILED / ERROR); becomes the status message. */
  error?: string | undefined;
  /** Structured data for the caller, sent as a second, data part tagged as skill metadata. */
  metadata?: JsonObject | undefined;
  /**
   * `"message"`: answer with a direct Message (spec §3.1.1) made of `output`
   * and `metadata`, and store no task. Only for a skill registered with
   * `directReplies: true`, and only while no task exists yet (the skill wrote
   * nothing, the caller asked neither `returnImmediately` nor push
   * notifications, the message started no task); otherwise the task completes
   * with the output as usual. Default `"task"`.
   */
  replyAs?: "task" | "message" | undefined;
}

/** The exact table. QUEUED / RUNNING / IN_PROGRESS leave the task open. */
export const SKILL_STATUS_TO_TASK_STATE: ReadonlyMap<string, TaskState> = new Map([
  ["COMPLETED", TaskState.COMPLETED],
  ["FAILED", TaskState.FAILED],
  ["WAITING_USER", TaskState.INPUT_REQUIRED],
  ["REJECTED", TaskState.REJECTED],
  ["AUTH_REQUIRED", TaskState.AUTH_REQUIRED],
  ["QUEUED", TaskState.SUBMITTED],
  ["RUNNING", TaskState.WORKING],
  ["IN_PROGRESS", TaskState.WORKING],
  ["ERROR", TaskState.FAILED],
]);

/** The task state of a skill status, or undefined for a value outside the table (compared exactly). */
export function taskStateForSkillStatus(status: string): TaskState | undefined {
  return SKILL_STATUS_TO_TASK_STATE.get(status);
}

/**
 * `"<type>: <message>"` for a skill failure, or `"<type>"` when the message
 * is empty (`new TimeoutError()`), so the type is always named. The type is
 * the error's `name`, or its class name when a subclass kept `name` "Error".
 * A thrown non-Error value is described as `Error: <value>`.
 */
export function describeException(error: unknown): string {
  if (!(error instanceof Error)) return `Error: ${String(error)}`;
  const ctorName = (error.constructor as { name?: string } | undefined)?.name;
  const type = error.name === "Error" && ctorName ? ctorName : error.name || "Error";
  return error.message ? `${type}: ${error.message}` : type;
}
