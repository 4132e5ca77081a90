/**
 * How far one stream may fall behind its task. Publishing never blocks (a
 * stream that is not read must not stall the skill for everyone else), so
 * what a stream's reader has not taken yet waits in memory; without a bound,
 * a client that stops reading a long stream holds gigabytes. Each
 * subscription counts what it holds in bytes, estimated from what the frames
 * carry, and a reader that falls more than the bound behind is ended with
 * `streamBacklogExceeded`: its frames up to then are delivered, then the
 * error, never a silent cut. SubscribeToTask answers the task as it is now
 * and follows it from there.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Value } from "@bufbuild/protobuf/wkt";
import type { Artifact, Message, Part, StreamResponse } from "../../gen/a2a_pb.js";
import { InternalError } from "../a2a/errors.js";

/** Estimated bytes one stream may hold unread. See docs/decisions.md. */
export const STREAM_BACKLOG_BYTES = 8 * 1024 * 1024;

/** The error a stream ends with when its reader fell more than `maxBytes` behind the task's events. */
export function streamBacklogExceeded(taskId: string, maxBytes: number): InternalError {
  return new InternalError(
    `The stream fell more than ${maxBytes} bytes behind task ${taskId} and was ended; ` +
      "SubscribeToTask answers the task as it is now and follows it from there",
    { metadata: { taskId, maxBacklogBytes: String(maxBytes) } },
  );
}

/** The ids, field names and punctuation of a frame, beside what it carries. */
const FRAME_OVERHEAD = 160;
/** A part's field names and punctuation. */
const PART_OVERHEAD = 24;

/**
 * About the size of `frame` as JSON text: its texts, data, metadata and
 * names, plus a fixed overhead. Cheap (a text part is a length read), and
 * proportional to what encoding the frame costs, which is all a bound needs.
 */
export function frameWeight(frame: StreamResponse): number {
  const { payload } = frame;
  switch (payload.case) {
    case "artifactUpdate":
      return FRAME_OVERHEAD + artifactWeight(payload.value.artifact) + jsonWeight(payload.value.metadata);
    case "statusUpdate":
      return FRAME_OVERHEAD + messageWeight(payload.value.status?.message) + jsonWeight(payload.value.metadata);
    case "message":
      return FRAME_OVERHEAD + messageWeight(payload.value);
    case "task": {
      const task = payload.value;
      let weight = FRAME_OVERHEAD + messageWeight(task.status?.message) + jsonWeight(task.metadata);
      for (const artifact of task.artifacts) weight += artifactWeight(artifact);
      for (const message of task.history) weight += messageWeight(message);
      return weight;
    }
    default:
      return FRAME_OVERHEAD;
  }
}

function artifactWeight(artifact: Artifact | undefined): number {
  if (!artifact) return 0;
  return (
    artifact.artifactId.length +
    artifact.name.length +
    artifact.description.length +
    partsWeight(artifact.parts) +
    jsonWeight(artifact.metadata)
  );
}

function messageWeight(message: Message | undefined): number {
  if (!message) return 0;
  return message.messageId.length + partsWeight(message.parts) + jsonWeight(message.metadata);
}

function partsWeight(parts: readonly Part[]): number {
  let weight = 0;
  for (const part of parts) {
    const { content } = part;
    weight += PART_OVERHEAD + part.filename.length + part.mediaType.length + jsonWeight(part.metadata);
    if (content.case === "text" || content.case === "url") weight += content.value.length;
    else if (content.case === "raw") weight += Math.ceil((content.value.byteLength * 4) / 3);
    else if (content.case === "data") weight += valueWeight(content.value);
  }
  return weight;
}

/** JSON values (metadata) by their text: strings and names by length, anything else a few bytes. Iterative. */
function jsonWeight(value: JsonObject | JsonValue | undefined): number {
  if (value === undefined) return 0;
  let weight = 0;
  const pending: JsonValue[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next === "string") weight += next.length + 2;
    else if (next === null || typeof next !== "object") weight += 6;
    else if (Array.isArray(next)) {
      weight += 2 + next.length;
      for (const item of next) pending.push(item);
    } else {
      for (const [key, member] of Object.entries(next)) {
        weight += key.length + 4;
        pending.push(member);
      }
    }
  }
  return weight;
}

/** A `google.protobuf.Value` (a data part) by the JSON it stands for. Iterative. */
function valueWeight(value: Value): number {
  let weight = 0;
  const pending: Value[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { kind } = next;
    if (kind.case === "stringValue") weight += kind.value.length + 2;
    else if (kind.case === "structValue") {
      for (const [key, member] of Object.entries(kind.value.fields)) {
        weight += key.length + 4;
        pending.push(member);
      }
    } else if (kind.case === "listValue") {
      weight += 2 + kind.value.values.length;
      for (const item of kind.value.values) pending.push(item);
    } else weight += 6;
  }
  return weight;
}
