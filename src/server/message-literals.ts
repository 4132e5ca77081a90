/**
 * The messages the harness builds on every request and every streamed event
 * (a task, its statuses, an agent message, a text part, an artifact, the
 * update events and their frames), written as object literals.
 * `create()` walks the schema's fields for each one, and about ten of them per
 * SendMessage were ~8 % of its CPU; a literal is one allocation. Each literal
 * is typed as the generated message, so a field added to the proto fails the
 * build, and test/server/message-literals.test.ts holds each equal to what
 * `create()` makes.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import {
  type Artifact,
  type Message,
  type Part,
  Role,
  type SendMessageResponse,
  type StreamResponse,
  type Task,
  type TaskArtifactUpdateEvent,
  TaskState,
  type TaskStatus,
  type TaskStatusUpdateEvent,
} from "../../gen/a2a_pb.js";

/** The current time, as `timestampNow()` reads it, without `create()`. */
export function timestampNow(): Timestamp {
  const ms = Date.now();
  return {
    $typeName: "google.protobuf.Timestamp",
    seconds: BigInt(Math.floor(ms / 1000)),
    nanos: (ms % 1000) * 1_000_000,
  };
}

/** A status stamped now; the message, when there is one, is the status message. */
export function taskStatus(state: TaskState, message?: Message): TaskStatus {
  const status: TaskStatus = { $typeName: "lf.a2a.v1.TaskStatus", state, timestamp: timestampNow() };
  if (message) status.message = message;
  return status;
}

/** A new task with an empty history, SUBMITTED now; metadata only when given. */
export function newTask(id: string, contextId: string, metadata?: JsonObject): Task {
  const task: Task = {
    $typeName: "lf.a2a.v1.Task",
    id,
    contextId,
    status: taskStatus(TaskState.SUBMITTED),
    artifacts: [],
    history: [],
  };
  if (metadata) task.metadata = metadata;
  return task;
}

export function textPart(text: string): Part {
  return { $typeName: "lf.a2a.v1.Part", content: { case: "text", value: text }, filename: "", mediaType: "" };
}

/** A message from the agent on a task. */
export function agentMessage(
  messageId: string,
  taskId: string,
  contextId: string,
  parts: Part[],
  metadata?: JsonObject,
): Message {
  const message: Message = {
    $typeName: "lf.a2a.v1.Message",
    messageId,
    contextId,
    taskId,
    role: Role.AGENT,
    parts,
    extensions: [],
    referenceTaskIds: [],
  };
  if (metadata) message.metadata = metadata;
  return message;
}

export interface ArtifactExtras {
  readonly description?: string | undefined;
  readonly metadata?: JsonObject | undefined;
  readonly extensions?: string[] | undefined;
}

/** An artifact; description and extensions empty unless given. */
export function artifact(artifactId: string, name: string, parts: Part[], extras?: ArtifactExtras): Artifact {
  const made: Artifact = {
    $typeName: "lf.a2a.v1.Artifact",
    artifactId,
    name,
    description: extras?.description ?? "",
    parts,
    extensions: extras?.extensions ?? [],
  };
  if (extras?.metadata) made.metadata = extras.metadata;
  return made;
}

/** A blocking SendMessage's answer: the task, or the direct Message a skill answered with. */
export function sendMessageResponse(payload: SendMessageResponse["payload"]): SendMessageResponse {
  return { $typeName: "lf.a2a.v1.SendMessageResponse", payload };
}

/** A stream frame. */
export function streamResponse(payload: StreamResponse["payload"]): StreamResponse {
  return { $typeName: "lf.a2a.v1.StreamResponse", payload };
}

export function statusUpdate(
  taskId: string,
  contextId: string,
  status: TaskStatus,
  metadata?: JsonObject,
): TaskStatusUpdateEvent {
  const event: TaskStatusUpdateEvent = { $typeName: "lf.a2a.v1.TaskStatusUpdateEvent", taskId, contextId, status };
  if (metadata) event.metadata = metadata;
  return event;
}

export function artifactUpdate(
  taskId: string,
  contextId: string,
  artifact: Artifact,
  append: boolean,
  lastChunk: boolean,
  metadata?: JsonObject,
): TaskArtifactUpdateEvent {
  const event: TaskArtifactUpdateEvent = {
    $typeName: "lf.a2a.v1.TaskArtifactUpdateEvent",
    taskId,
    contextId,
    artifact,
    append,
    lastChunk,
  };
  if (metadata) event.metadata = metadata;
  return event;
}
