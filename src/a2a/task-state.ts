/**
 * Task state classes (spec §4.1.3): terminal states end a task for good;
 * interrupted states pause it for the caller. An interrupt is not terminal.
 * The values come from the generated codecs' table, not the enum's own file,
 * which would bring the descriptors into a client bundle.
 */
import { taskStateValues } from "../../gen/a2a_json_codecs.js";
import type { Task, TaskState } from "../../gen/a2a_pb.js";

export const TERMINAL_TASK_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  taskStateValues.COMPLETED,
  taskStateValues.FAILED,
  taskStateValues.CANCELED,
  taskStateValues.REJECTED,
]);

export const INTERRUPTED_TASK_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  taskStateValues.INPUT_REQUIRED,
  taskStateValues.AUTH_REQUIRED,
]);

export function isTerminalState(state: TaskState): boolean {
  return TERMINAL_TASK_STATES.has(state);
}

export function isInterruptedState(state: TaskState): boolean {
  return INTERRUPTED_TASK_STATES.has(state);
}

export function isTerminal(task: Pick<Task, "status">): boolean {
  return task.status !== undefined && isTerminalState(task.status.state);
}

export function isInterrupted(task: Pick<Task, "status">): boolean {
  return task.status !== undefined && isInterruptedState(task.status.state);
}
