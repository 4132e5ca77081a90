/**
 * What a caller may pass as "the message" — a string, a generated `Message`,
 * the fields of one, or the reference's `SimpleMessage` — turned into the
 * `Message` that goes on the wire. The caller's object is never modified: the
 * client works on a copy.
 */
import { clone, create, isMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { type Message, MessageSchema, Role } from "../../gen/a2a_pb.js";
import { userMessage } from "../a2a/message-factory.js";
import { textPart } from "../a2a/parts.js";
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import { sameMediaType } from "../messages/a2a-shape.js";
import { SimpleMessage } from "../messages/simple-message.js";
import { AUTHOR_METADATA_KEY, DEFAULT_MEDIA_TYPE, SKILL_ID_METADATA_KEY } from "../messages/wire-keys.js";

export { SKILL_ID_METADATA_KEY };

export type MessageInput = string | Message | MessageInitShape<typeof MessageSchema> | SimpleMessage;

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

/**
 * A wire-ready copy of `input`: a string becomes one user text part; a
 * missing `messageId` is generated and a missing role is `ROLE_USER`; the
 * addressing options are applied over the message's own values.
 */
export function toMessage(input: MessageInput, addressing: MessageAddressing = {}): Message {
  const message =
    typeof input === "string"
      ? userMessage(input)
      : input instanceof SimpleMessage
        ? fromSimpleMessage(input)
        : isMessage(input, MessageSchema)
          ? clone(MessageSchema, input)
          : create(MessageSchema, input);
  if (message.messageId === "") message.messageId = globalThis.crypto.randomUUID();
  if (message.role === Role.UNSPECIFIED) message.role = Role.USER;
  if (addressing.contextId !== undefined) message.contextId = addressing.contextId;
  if (addressing.taskId !== undefined) message.taskId = addressing.taskId;
  if (addressing.skillId !== undefined) {
    message.metadata = { ...message.metadata, [SKILL_ID_METADATA_KEY]: addressing.skillId };
  }
  return message;
}
