/**
 * A task as an `a2a_tasks` row and back. The task is stored as ProtoJSON
 * (spec §5.5) through the generated codecs, which is lossless for every A2A
 * value (int64 as strings, bytes as base64, Struct values, any Unicode:
 * control characters and lone surrogates are escaped, so the text column
 * holds them) and cheaper than binary protobuf here (docs/fleet.md has the
 * numbers). Artifacts go to their own column so a page that does not show
 * them does not read them; the other columns are the values ListTasks
 * filters and orders by.
 */
import { type Artifact, ArtifactSchema, type Task, TaskSchema } from "../../gen/a2a_pb.js";
import { decodeMessage, encodeMessageText } from "../a2a/protojson.js";
import { CorruptRecordError } from "../server/store-errors.js";
import { statusTime } from "../server/task-order.js";

/** The columns a save writes, in the order of `TASK_COLUMNS`. */
export function taskRowValues(task: Task): [string, number, string, number, string, string] {
  const time = statusTime(task);
  return [
    task.contextId,
    task.status?.state ?? 0,
    (-time.seconds).toString(),
    -time.nanos,
    encodeMessageText(TaskSchema, task.artifacts.length === 0 ? task : { ...task, artifacts: [] }),
    artifactsText(task.artifacts),
  ];
}

function artifactsText(artifacts: readonly Artifact[]): string {
  if (artifacts.length === 0) return "[]";
  let text = "[";
  for (const [i, artifact] of artifacts.entries()) text += (i ? "," : "") + encodeMessageText(ArtifactSchema, artifact);
  return `${text}]`;
}

/**
 * The task of a row; `artifacts` null leaves them out. A row that does not
 * decode is a CorruptRecordError naming it (never a half-read task).
 */
export function taskFromRow(id: string, taskText: string, artifacts: string | null): Task {
  try {
    const task = decodeMessage(TaskSchema, JSON.parse(taskText), { validateRequired: false });
    if (task.id !== id) throw new Error(`the row holds task ${JSON.stringify(task.id)}`);
    if (artifacts !== null) {
      const list: unknown = JSON.parse(artifacts);
      if (!Array.isArray(list)) throw new Error("artifacts is not a JSON array");
      task.artifacts = list.map((a) => decodeMessage(ArtifactSchema, a, { validateRequired: false }));
    }
    return task;
  } catch (error) {
    throw new CorruptRecordError(id, `Stored task ${id} cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
