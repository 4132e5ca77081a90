/**
 * A caller's message turned into the `Message` that goes on the wire without
 * protobuf-es's reflection: a string, a `SimpleMessage`, or a generated
 * `Message` (copied), then addressed. What needs the reflection (a message
 * given as its fields) is message-input.ts's `toMessage`, which the client
 * loads only when a call needs it: a bundler splits code by file, so the
 * reflection stays out of a `Client` bundle's first chunk.
 */
import { roleValues } from "../../gen/a2a_json_codecs.js";
import type { Message } from "../../gen/a2a_pb.js";
import { userMessage } from "../a2a/message-factory.js";
import { textPart } from "../a2a/parts.js";
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import { sameMediaType } from "../messages/a2a-shape.js";
import { SimpleMessage } from "../messages/simple-message.js";
import { AUTHOR_METADATA_KEY, DEFAULT_MEDIA_TYPE, SKILL_ID_METADATA_KEY } from "../messages/wire-keys.js";

/** Where a message goes: its skill, conversation and task. */
export interface MessageAddressing {
  /** The skill to run (`message.metadata.skillId`). */
  skillId?: string | undefined;
  /** The conversation the message belongs to. */
  contextId?: string | undefined;
  /** The task the message continues (how a caller answers a task waiting for input). */
  taskId?: string | undefined;
}

/**
 * A `SimpleMessage` as an A2A user message: each part a text part whose
 * `mediaType` is its content type (left out for `text/plain`), the author in
 * `metadata.author`. One that does not `validate()` (no parts, or an empty
 * one) is refused with NovaOSValidationError before anything is sent.
 */
function fromSimpleMessage(input: SimpleMessage): Message {
  if (!input.validate()) {
    throw new NovaOSValidationError("The message needs at least one part, and no part may be empty", {
      field: "message",
    });
  }
  const parts = input.parts.map((p) =>
    textPart(p.content, {
      ...(p.contentType !== undefined && !sameMediaType(p.contentType, DEFAULT_MEDIA_TYPE)
        ? { mediaType: p.contentType }
        : {}),
      ...(p.metadata ? { metadata: p.metadata } : {}),
    }),
  );
  const metadata = input.author ? { ...input.metadata, [AUTHOR_METADATA_KEY]: input.author.toJSON() } : input.metadata;
  return userMessage(parts, metadata ? { metadata } : {});
}

/** Whether `input` is a generated `Message` (what protobuf-es's `isMessage(input, MessageSchema)` checks). */
function isA2AMessage(input: unknown): input is Message {
  return typeof input === "object" && input !== null && (input as { $typeName?: unknown }).$typeName === MESSAGE_TYPE;
}

const MESSAGE_TYPE: Message["$typeName"] = "lf.a2a.v1.Message";

/**
 * A copy of `input` built without protobuf-es's reflection: a string, a
 * SimpleMessage, or a generated `Message` (deep-copied with
 * `structuredClone`, which copies every field a `Message` holds). Undefined
 * for what needs the reflection: the fields of a message (`create`), or a
 * `Message` holding a value `structuredClone` cannot copy (`clone`).
 */
export function plainMessage(input: unknown): Message | undefined {
  if (typeof input === "string") return userMessage(input);
  if (input instanceof SimpleMessage) return fromSimpleMessage(input);
  if (!isA2AMessage(input)) return undefined;
  try {
    return structuredClone(input);
  } catch {
    return undefined;
  }
}

/**
 * Addresses `message` (in place): a missing `messageId` is generated and a
 * missing role is `ROLE_USER`; the addressing options are applied over the
 * message's own values.
 */
export function addressMessage(message: Message, addressing: MessageAddressing = {}): Message {
  if (message.messageId === "") message.messageId = globalThis.crypto.randomUUID();
  if (message.role === roleValues.UNSPECIFIED) message.role = roleValues.USER;
  if (addressing.contextId !== undefined) message.contextId = addressing.contextId;
  if (addressing.taskId !== undefined) message.taskId = addressing.taskId;
  if (addressing.skillId !== undefined) {
    message.metadata = { ...message.metadata, [SKILL_ID_METADATA_KEY]: addressing.skillId };
  }
  return message;
}
