/**
 * What a reply shows of a task: the `historyLength` and `includeArtifacts`
 * rules of spec §3.2.4 and §3.1.4, applied to a snapshot. Unset history length
 * means the whole history; 0 means none (the field is then omitted on the
 * wire); n means the n most recent messages. Excluded artifacts are omitted
 * entirely, as the spec requires.
 */
import type { Task } from "../../gen/a2a_pb.js";
import { invalidParams } from "../a2a/protojson.js";

export interface TaskViewOptions {
  historyLength?: number | undefined;
  includeArtifacts?: boolean | undefined;
}

/** Throws -32602 for a negative history length, naming the field. */
export function checkHistoryLength(historyLength: number | undefined, field = "historyLength"): void {
  if (historyLength !== undefined && historyLength < 0) {
    throw invalidParams([{ field, description: `${field} must be 0 or more, got ${historyLength}` }]);
  }
}

/** The task as a reply shows it; may return `task` itself when nothing is left out. */
export function taskView(task: Task, options: TaskViewOptions = {}): Task {
  const { historyLength, includeArtifacts = true } = options;
  const history =
    historyLength === undefined || historyLength >= task.history.length
      ? task.history
      : historyLength === 0
        ? []
        : task.history.slice(-historyLength);
  if (history === task.history && includeArtifacts) return task;
  return { ...task, history, artifacts: includeArtifacts ? task.artifacts : [] };
}
