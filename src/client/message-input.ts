/**
 * What a caller may pass as "the message" — a string, a generated `Message`,
 * the fields of one, or the reference's `SimpleMessage` — turned into the
 * `Message` that goes on the wire. The caller's object is never modified: the
 * client works on a copy.
 */
import { clone, create, isMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { type Message, MessageSchema } from "../../gen/a2a_pb.js";
import type { SimpleMessage } from "../messages/simple-message.js";
import { SKILL_ID_METADATA_KEY } from "../messages/wire-keys.js";
import { addressMessage, type MessageAddressing, plainMessage } from "./message-copy.js";

export { type MessageAddressing, SKILL_ID_METADATA_KEY };

export type MessageInput = string | Message | MessageInitShape<typeof MessageSchema> | SimpleMessage;

/**
 * A wire-ready copy of `input`: a string becomes one user text part; a
 * missing `messageId` is generated and a missing role is `ROLE_USER`; the
 * addressing options are applied over the message's own values.
 */
export function toMessage(input: MessageInput, addressing: MessageAddressing = {}): Message {
  const message =
    plainMessage(input) ??
    (isMessage(input, MessageSchema)
      ? clone(MessageSchema, input)
      : create(MessageSchema, input as MessageInitShape<typeof MessageSchema>));
  return addressMessage(message, addressing);
}
