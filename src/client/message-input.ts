/**
 * What a caller may pass as "the message" — a string, a generated `Message`,
 * or the fields of one — turned into the `Message` that goes on the wire.
 * The caller's object is never modified: the client works on a copy.
 */
import { randomUUID } from "node:crypto";
import { clone, create, isMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { type Message, MessageSchema, Role } from "../../gen/a2a_pb.js";
import { SKILL_ID_METADATA_KEY } from "../messages/wire-keys.js";

export { SKILL_ID_METADATA_KEY };

export type MessageInput = string | Message | MessageInitShape<typeof MessageSchema>;

export interface MessageAddressing {
  /** The skill to run (`message.metadata.skillId`). */
  skillId?: string | undefined;
  /** The conversation the message belongs to. */
  contextId?: string | undefined;
  /** The task the message continues (how a caller answers a task waiting for input). */
  taskId?: string | undefined;
}

/**
 * A wire-ready copy of `input`: a string becomes one user text part; a
 * missing `messageId` is generated and a missing role is `ROLE_USER`; the
 * addressing options are applied over the message's own values.
 */
export function toMessage(input: MessageInput, addressing: MessageAddressing = {}): Message {
  const message =
    typeof input === "string"
      ? create(MessageSchema, { parts: [{ content: { case: "text", value: input } }] })
      : isMessage(input, MessageSchema)
        ? clone(MessageSchema, input)
        : create(MessageSchema, input);
  if (message.messageId === "") message.messageId = randomUUID();
  if (message.role === Role.UNSPECIFIED) message.role = Role.USER;
  if (addressing.contextId !== undefined) message.contextId = addressing.contextId;
  if (addressing.taskId !== undefined) message.taskId = addressing.taskId;
  if (addressing.skillId !== undefined) {
    message.metadata = { ...message.metadata, [SKILL_ID_METADATA_KEY]: addressing.skillId };
  }
  return message;
}
