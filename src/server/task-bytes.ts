/**
 * What a task costs in memory, estimated from what it holds: the length of
 * every string, the bytes of every raw part, and a fixed charge per message,
 * part, artifact and JSON value for the objects around them. The estimate is
 * made once per piece as it enters a task (a message into the history, an
 * artifact write), never by encoding the task, so budgets cost nothing per
 * save. It counts characters, not UTF-8 bytes, and a string held twice (an
 * echoed input in the history and in an artifact) twice: a budget errs on the
 * safe side. See docs/decisions.md (S451).
 */
import type { JsonValue } from "@bufbuild/protobuf";
import type { Value } from "@bufbuild/protobuf/wkt";
import type { Artifact, Message, Part, Task } from "../../gen/a2a_pb.js";

/** The charge for one object around the data: a message, part, artifact, status or JSON value. */
export const OBJECT_BYTES = 48;

/** A JSON value's strings and keys plus a charge per value; walked without recursion, so any depth is safe. */
export function jsonBytes(value: JsonValue | undefined): number {
  if (value === undefined) return 0;
  let bytes = 0;
  const pending: JsonValue[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    bytes += OBJECT_BYTES / 2;
    if (typeof next === "string") bytes += next.length;
    else if (Array.isArray(next)) for (const item of next) pending.push(item);
    else if (next !== null && typeof next === "object") {
      for (const key of Object.keys(next)) {
        bytes += key.length;
        pending.push((next as { [key: string]: JsonValue })[key] as JsonValue);
      }
    }
  }
  return bytes;
}

/** A `google.protobuf.Value` (a data part) as `jsonBytes` would count it. */
function valueBytes(value: Value): number {
  let bytes = 0;
  const pending: Value[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    bytes += OBJECT_BYTES / 2;
    const kind = next.kind;
    if (kind.case === "stringValue") bytes += kind.value.length;
    else if (kind.case === "listValue") for (const item of kind.value.values) pending.push(item);
    else if (kind.case === "structValue") {
      for (const [key, field] of Object.entries(kind.value.fields)) {
        bytes += key.length;
        pending.push(field);
      }
    }
  }
  return bytes;
}

export function partBytes(part: Part): number {
  const content = part.content;
  const held =
    content.case === "text" || content.case === "url"
      ? content.value.length
      : content.case === "raw"
        ? content.value.byteLength
        : content.case === "data"
          ? valueBytes(content.value)
          : 0;
  return OBJECT_BYTES + held + part.filename.length + part.mediaType.length + jsonBytes(part.metadata);
}

function partsBytes(parts: readonly Part[]): number {
  let bytes = 0;
  for (const part of parts) bytes += partBytes(part);
  return bytes;
}

function stringsBytes(strings: readonly string[]): number {
  let bytes = 0;
  for (const s of strings) bytes += s.length;
  return bytes;
}

export function messageBytes(message: Message): number {
  return (
    OBJECT_BYTES +
    message.messageId.length +
    message.contextId.length +
    message.taskId.length +
    partsBytes(message.parts) +
    jsonBytes(message.metadata) +
    stringsBytes(message.extensions) +
    stringsBytes(message.referenceTaskIds)
  );
}

/** An artifact without its parts (they are counted as they are written). */
export function artifactHeaderBytes(artifact: Artifact): number {
  return (
    OBJECT_BYTES +
    artifact.artifactId.length +
    artifact.name.length +
    artifact.description.length +
    jsonBytes(artifact.metadata) +
    stringsBytes(artifact.extensions)
  );
}

export function artifactBytes(artifact: Artifact): number {
  return artifactHeaderBytes(artifact) + partsBytes(artifact.parts);
}

/**
 * The whole task, walked once: for a task a store is handed without an
 * estimate, and when the harness takes up a stored task. A status message is
 * counted where the harness keeps it, in the history.
 */
export function taskBytes(task: Task): number {
  let bytes = OBJECT_BYTES + task.id.length + task.contextId.length + jsonBytes(task.metadata);
  if (task.status) bytes += OBJECT_BYTES;
  for (const message of task.history) bytes += messageBytes(message);
  for (const artifact of task.artifacts) bytes += artifactBytes(artifact);
  return bytes;
}
