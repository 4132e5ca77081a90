/**
 * Messages (spec §4.1.4) for hand-built calls and replies: a string becomes
 * one text part, parts are taken as given, and every message gets a fresh
 * `messageId` (REQUIRED). Universal: the id comes from the Web Crypto
 * `randomUUID`, which Node, browsers, Deno, Bun and workerd all provide.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { roleValues } from "../../gen/a2a_json_codecs.js";
import type { Message, Part, Role } from "../../gen/a2a_pb.js";
import { textPart } from "./parts.js";

/** Where a message belongs, and what else it carries. */
export interface MessageOptions {
  /** The conversation (A2A contextId). */
  contextId?: string;
  /** The task this message continues (how a caller answers a task waiting for input). */
  taskId?: string;
  metadata?: JsonObject;
  /** Extension URIs that apply to this message. */
  extensions?: readonly string[];
  /** Tasks this message refers to. */
  referenceTaskIds?: readonly string[];
  /** Default: a fresh UUID. */
  messageId?: string;
}

/** What a message holds: its text, one part, or a list of parts. */
export type MessageContent = string | Part | readonly Part[];

function partsOf(content: MessageContent): Part[] {
  if (typeof content === "string") return [textPart(content)];
  return Array.isArray(content) ? [...content] : [content as Part];
}

/** The message `create(MessageSchema, …)` would make, built as the plain object it is (no descriptor needed). */
function message(role: Role, content: MessageContent, options: MessageOptions): Message {
  return {
    $typeName: "lf.a2a.v1.Message",
    messageId: options.messageId ?? globalThis.crypto.randomUUID(),
    contextId: options.contextId ?? "",
    taskId: options.taskId ?? "",
    role,
    parts: partsOf(content),
    ...(options.metadata ? { metadata: options.metadata } : {}),
    extensions: [...(options.extensions ?? [])],
    referenceTaskIds: [...(options.referenceTaskIds ?? [])],
  };
}

/** A message from the caller (`ROLE_USER`). */
export function userMessage(content: MessageContent, options: MessageOptions = {}): Message {
  return message(roleValues.USER, content, options);
}

/** A message from the agent (`ROLE_AGENT`). */
export function agentMessage(content: MessageContent, options: MessageOptions = {}): Message {
  return message(roleValues.AGENT, content, options);
}
