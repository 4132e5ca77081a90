/**
 * The messages the harness builds on every request and every streamed event
 * (a task, its statuses, an agent message, a text part, an artifact, the
 * update events and their frames), written as object literals.
 * `create()` walks the schema's fields for each one, and about ten of them per
 * SendMessage were ~8 % of its CPU; a literal is one allocation. Each literal
 * names the fields it knows (a `Pick` of the generated message, so a field the
 * proto renames or removes fails the build); a field a newer spec adds is
 * given its zero value by `completer`, so an additive spec bump neither breaks
 * the build nor makes an incomplete message, only a slower literal until this
 * file learns the field (`fieldsNotNamed()` lists them, and
 * test/server/message-literals.test.ts fails on any, and holds each literal
 * equal to what `create()` makes).
 */
import { create, type DescMessage, type JsonObject } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import {
  type Artifact,
  ArtifactSchema,
  type Message,
  MessageSchema,
  type Part,
  PartSchema,
  Role,
  type SendMessageResponse,
  SendMessageResponseSchema,
  type StreamResponse,
  StreamResponseSchema,
  type Task,
  type TaskArtifactUpdateEvent,
  TaskArtifactUpdateEventSchema,
  TaskSchema,
  TaskState,
  type TaskStatus,
  TaskStatusSchema,
  type TaskStatusUpdateEvent,
  TaskStatusUpdateEventSchema,
} from "../../gen/a2a_pb.js";

/** A literal of message `T` naming the fields `K` (and `$typeName`). */
type Named<T extends { $typeName: string }, K extends keyof T> = Pick<T, "$typeName" | K>;

/** Fields of the literals' messages that no literal names, as `Message.field` (none for the pinned spec). */
const notNamed: string[] = [];

/**
 * What completes a literal of `schema` naming `named`: undefined when it names
 * every field `create()` sets (the pinned spec: nothing to do on the hot
 * path), else a function that adds the zero values of the others.
 */
function completer(schema: DescMessage, named: readonly string[]): ((literal: object) => void) | undefined {
  const others = Object.keys(create(schema)).filter((key) => key !== "$typeName" && !named.includes(key));
  if (others.length === 0) return undefined;
  notNamed.push(...others.map((key) => `${schema.name}.${key}`));
  return (literal) => {
    const zero = create(schema) as unknown as Record<string, unknown>;
    for (const key of others) (literal as Record<string, unknown>)[key] = zero[key];
  };
}

/** The fields a newer spec added that the literals here do not name yet (each gets its zero value). */
export function fieldsNotNamed(): readonly string[] {
  return notNamed;
}

const STATUS_FIELDS = ["state", "timestamp", "message"] as const;
const TASK_FIELDS = ["id", "contextId", "status", "artifacts", "history", "metadata"] as const;
const PART_FIELDS = ["content", "filename", "mediaType", "metadata"] as const;
const MESSAGE_FIELDS = [
  "messageId",
  "contextId",
  "taskId",
  "role",
  "parts",
  "extensions",
  "referenceTaskIds",
  "metadata",
] as const;
const ARTIFACT_FIELDS = ["artifactId", "name", "description", "parts", "extensions", "metadata"] as const;
const STATUS_UPDATE_FIELDS = ["taskId", "contextId", "status", "metadata"] as const;
const ARTIFACT_UPDATE_FIELDS = ["taskId", "contextId", "artifact", "append", "lastChunk", "metadata"] as const;

const completeStatus = completer(TaskStatusSchema, STATUS_FIELDS);
const completeTask = completer(TaskSchema, TASK_FIELDS);
const completePart = completer(PartSchema, PART_FIELDS);
const completeMessage = completer(MessageSchema, MESSAGE_FIELDS);
const completeArtifact = completer(ArtifactSchema, ARTIFACT_FIELDS);
const completeSendResponse = completer(SendMessageResponseSchema, ["payload"]);
const completeStreamResponse = completer(StreamResponseSchema, ["payload"]);
const completeStatusUpdate = completer(TaskStatusUpdateEventSchema, STATUS_UPDATE_FIELDS);
const completeArtifactUpdate = completer(TaskArtifactUpdateEventSchema, ARTIFACT_UPDATE_FIELDS);

/** The second `timestampNow()` last stamped, and its int64: one BigInt per second, not per status (decision S693). */
let lastSecond = -1;
let lastSeconds = 0n;

/** The current time, as `timestampNow()` reads it, without `create()`. */
export function timestampNow(): Timestamp {
  const ms = Date.now();
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastSeconds = BigInt(second);
  }
  // An int32 (`| 0`): `ms % 1000` of a double is a double, which an object field would keep as a boxed number.
  return { $typeName: "google.protobuf.Timestamp", seconds: lastSeconds, nanos: ((ms % 1000) * 1_000_000) | 0 };
}

/*
 * A literal whose optional field is given is written out whole, with the field, rather than completed by assigning
 * it: a property added to an object literal after it is made goes to a separate property array (40 bytes), and a
 * stored task's status and the task itself outlive a young collection, which copies them.
 */

/** A status stamped now; the message, when there is one, is the status message. */
export function taskStatus(state: TaskState, message?: Message): TaskStatus {
  const timestamp = timestampNow();
  const status: Named<TaskStatus, (typeof STATUS_FIELDS)[number]> = message
    ? { $typeName: "lf.a2a.v1.TaskStatus", state, timestamp, message }
    : { $typeName: "lf.a2a.v1.TaskStatus", state, timestamp };
  completeStatus?.(status);
  return status as TaskStatus;
}

/** A new task with an empty history, SUBMITTED now; metadata only when given. */
export function newTask(id: string, contextId: string, metadata?: JsonObject): Task {
  const status = taskStatus(TaskState.SUBMITTED);
  const task: Named<Task, (typeof TASK_FIELDS)[number]> = metadata
    ? { $typeName: "lf.a2a.v1.Task", id, contextId, status, artifacts: [], history: [], metadata }
    : { $typeName: "lf.a2a.v1.Task", id, contextId, status, artifacts: [], history: [] };
  completeTask?.(task);
  return task as Task;
}

export function textPart(text: string): Part {
  const part: Named<Part, (typeof PART_FIELDS)[number]> = {
    $typeName: "lf.a2a.v1.Part",
    content: { case: "text", value: text },
    filename: "",
    mediaType: "",
  };
  completePart?.(part);
  return part as Part;
}

/** A message from the agent on a task. */
export function agentMessage(
  messageId: string,
  taskId: string,
  contextId: string,
  parts: Part[],
  metadata?: JsonObject,
): Message {
  const message: Named<Message, (typeof MESSAGE_FIELDS)[number]> = {
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
  completeMessage?.(message);
  return message as Message;
}

export interface ArtifactExtras {
  readonly description?: string | undefined;
  readonly metadata?: JsonObject | undefined;
  readonly extensions?: string[] | undefined;
}

/** An artifact; description and extensions empty unless given. */
export function artifact(artifactId: string, name: string, parts: Part[], extras?: ArtifactExtras): Artifact {
  const made: Named<Artifact, (typeof ARTIFACT_FIELDS)[number]> = {
    $typeName: "lf.a2a.v1.Artifact",
    artifactId,
    name,
    description: extras?.description ?? "",
    parts,
    extensions: extras?.extensions ?? [],
  };
  if (extras?.metadata) made.metadata = extras.metadata;
  completeArtifact?.(made);
  return made as Artifact;
}

/** A blocking SendMessage's answer: the task, or the direct Message a skill answered with. */
export function sendMessageResponse(payload: SendMessageResponse["payload"]): SendMessageResponse {
  const response: Named<SendMessageResponse, "payload"> = { $typeName: "lf.a2a.v1.SendMessageResponse", payload };
  completeSendResponse?.(response);
  return response as SendMessageResponse;
}

/** A stream frame. */
export function streamResponse(payload: StreamResponse["payload"]): StreamResponse {
  const frame: Named<StreamResponse, "payload"> = { $typeName: "lf.a2a.v1.StreamResponse", payload };
  completeStreamResponse?.(frame);
  return frame as StreamResponse;
}

export function statusUpdate(
  taskId: string,
  contextId: string,
  status: TaskStatus,
  metadata?: JsonObject,
): TaskStatusUpdateEvent {
  const event: Named<TaskStatusUpdateEvent, (typeof STATUS_UPDATE_FIELDS)[number]> = {
    $typeName: "lf.a2a.v1.TaskStatusUpdateEvent",
    taskId,
    contextId,
    status,
  };
  if (metadata) event.metadata = metadata;
  completeStatusUpdate?.(event);
  return event as TaskStatusUpdateEvent;
}

export function artifactUpdate(
  taskId: string,
  contextId: string,
  artifact: Artifact,
  append: boolean,
  lastChunk: boolean,
  metadata?: JsonObject,
): TaskArtifactUpdateEvent {
  const event: Named<TaskArtifactUpdateEvent, (typeof ARTIFACT_UPDATE_FIELDS)[number]> = {
    $typeName: "lf.a2a.v1.TaskArtifactUpdateEvent",
    taskId,
    contextId,
    artifact,
    append,
    lastChunk,
  };
  if (metadata) event.metadata = metadata;
  completeArtifactUpdate?.(event);
  return event as TaskArtifactUpdateEvent;
}
