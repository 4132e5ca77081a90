/**
 * Tasks, messages and artifacts as a person reads them: the state in words
 * and colour, text parts as text, data parts as compact JSON, files by name.
 * NovaOS control parts (`application/vnd.novaos…`) are machine metadata and
 * are not shown.
 */
import { type Artifact, type Message, type Part, type Task, TaskState, TaskStateSchema } from "../../index.js";
import type { Colors } from "../output.js";

const NOVAOS_MEDIA_PREFIX = "application/vnd.novaos";

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
export function stateName(state: TaskState | undefined): string {
  const name = TaskStateSchema.value[state ?? TaskState.UNSPECIFIED]?.name ?? "TASK_STATE_UNSPECIFIED";
  return name
    .replace(/^TASK_STATE_/, "")
    .toLowerCase()
    .replaceAll("_", "-");
}

export function paintState(state: TaskState | undefined, colors: Colors): string {
  const name = stateName(state);
  switch (state) {
    case TaskState.COMPLETED:
      return colors.green(name);
    case TaskState.FAILED:
    case TaskState.REJECTED:
      return colors.red(name);
    case TaskState.CANCELED:
      return colors.yellow(name);
    case TaskState.INPUT_REQUIRED:
    case TaskState.AUTH_REQUIRED:
      return colors.magenta(name);
    default:
      return colors.cyan(name);
  }
}

function partText(part: Part): string | undefined {
  const mediaType = part.mediaType;
  switch (part.content.case) {
    case "text":
      return part.content.value;
    case "data":
      return mediaType.startsWith(NOVAOS_MEDIA_PREFIX) ? undefined : JSON.stringify(part.content.value);
    case "url":
      return `[file ${part.filename || part.content.value}${mediaType ? ` (${mediaType})` : ""}: ${part.content.value}]`;
    case "raw":
      return `[file ${part.filename || "(unnamed)"}${mediaType ? ` (${mediaType})` : ""}, ${part.content.value.length} bytes]`;
    default:
      return undefined;
  }
}

/** The readable content of some parts, joined without separators (chunks of one text run together). */
export function partsText(parts: readonly Part[]): string {
  return parts
    .map(partText)
    .filter((t): t is string => t !== undefined)
    .join("");
}

export function messageText(message: Message | undefined): string {
  return message ? partsText(message.parts) : "";
}

export function artifactLines(artifact: Artifact, colors: Colors): string[] {
  const title = artifact.name || artifact.artifactId;
  return [colors.dim(`── ${title} ──`), partsText(artifact.parts)];
}

/** A task's summary: id, state, context, status message, then its artifacts. */
export function taskLines(task: Task, colors: Colors): string[] {
  const lines = [`${colors.bold("task")} ${task.id}  ${paintState(task.status?.state, colors)}`];
  if (task.contextId) lines.push(colors.dim(`context ${task.contextId}`));
  const status = messageText(task.status?.message);
  if (status) lines.push(status);
  for (const artifact of task.artifacts) lines.push(...artifactLines(artifact, colors));
  return lines;
}

export function messageLines(message: Message, colors: Colors): string[] {
  const lines = [`${colors.bold("message")} ${message.messageId}`];
  if (message.contextId) lines.push(colors.dim(`context ${message.contextId}`));
  lines.push(messageText(message));
  return lines;
}
