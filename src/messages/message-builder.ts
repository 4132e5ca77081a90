/**
 * MessageBuilder: every NovaOS message as a generated A2A v1.0.1 `Message`.
 * A message is a visible text part followed by the NovaOS metadata part
 * (`novaosMetadataPart`) holding one payload member; `embed*` append that part
 * to a copy of an existing message. Every message gets a fresh `messageId`;
 * a HITL response is `ROLE_USER`, everything else `ROLE_AGENT`. Builders set
 * no task state: the caller pauses the task (e.g. `ctx.taskUpdater.requiresAuth`).
 */
import { clone, create, type DescMessage, type JsonObject, type MessageShape } from "@bufbuild/protobuf";
import { type Message, MessageSchema, type Part, Role } from "../../gen/a2a_pb.js";
import { type ErrorMessage, ErrorMessageSchema } from "../../gen/novaos/v1/error_message_pb.js";
import {
  type HitlMessage,
  HitlMessageSchema,
  type HitlResponse,
  HitlResponseSchema,
} from "../../gen/novaos/v1/hitl_pb.js";
import { type ProgressMessage, ProgressMessageSchema } from "../../gen/novaos/v1/progress_pb.js";
import { textPart } from "../a2a/parts.js";
import { encodeMessage } from "../a2a/protojson.js";
import { sameMediaType } from "./a2a-shape.js";
import { type ErrorMessageOptions, errorMessage } from "./error-message.js";
import {
  type HitlActionInit,
  type HitlDetailsInit,
  hitlMessage,
  type ProgressDataInit,
  packHitlDetails,
  requiresUserActionByDefault,
} from "./hitl-message.js";
import { type HitlResponseOptions, hitlResponse } from "./hitl-response.js";
import { novaosMetadataPart } from "./metadata-part.js";
import { oauthRequiredJson, writeConfirmationRequiredJson } from "./pause.js";
import { progressMessage } from "./progress-message.js";
import type { ErrorType, HitlType, ProgressStatus } from "./vocabulary.js";
import {
  DEFAULT_MEDIA_TYPE,
  NOVAOS_ERROR_KEY,
  NOVAOS_HITL_KEY,
  NOVAOS_HITL_RESPONSE_KEY,
  NOVAOS_PAUSE_OAUTH_KEY,
  NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY,
  NOVAOS_PROGRESS_KEY,
} from "./wire-keys.js";

/** Where the message belongs. `contextId` defaults to the payload's session id (A2A's name for it). */
export interface EnvelopeOptions {
  contextId?: string;
  taskId?: string;
}

interface SessionOptions extends EnvelopeOptions {
  /** The conversation: written into the payload and, unless `contextId` says otherwise, as the contextId. */
  sessionId?: string;
}

/** A text part; `text/plain` (the default) is left implicit, any other type is the part's `mediaType`. */
function visibleText(text: string, mediaType: string = DEFAULT_MEDIA_TYPE): Part {
  return textPart(text, sameMediaType(mediaType, DEFAULT_MEDIA_TYPE) ? {} : { mediaType });
}

/** The metadata part holding one payload member in its wire JSON. */
function memberPart<S extends DescMessage>(key: string, schema: S, payload: MessageShape<S>): Part {
  return novaosMetadataPart({ [key]: encodeMessage(schema, payload) });
}

function message(role: Role, parts: Part[], sessionId: string, envelope: EnvelopeOptions): Message {
  return create(MessageSchema, {
    messageId: crypto.randomUUID(),
    role,
    parts,
    contextId: envelope.contextId ?? sessionId,
    taskId: envelope.taskId ?? "",
  });
}

const agent = (content: string, part: Part, sessionId: string, envelope: EnvelopeOptions, mediaType?: string) =>
  message(Role.AGENT, [visibleText(content, mediaType), part], sessionId, envelope);

/** An error message: `content` is shown and is the payload's `message`. */
export function createErrorMessage(
  content: string,
  errorType: ErrorType,
  options: ErrorMessageOptions & EnvelopeOptions = {},
): Message {
  const error = errorMessage(errorType, content, options);
  return agent(content, memberPart(NOVAOS_ERROR_KEY, ErrorMessageSchema, error), error.sessionId, options);
}

export interface CreateHitlOptions extends SessionOptions, HitlDetailsInit {
  actions?: readonly HitlActionInit[];
  /** Extra metadata; the HITL details above win over it. */
  metadata?: JsonObject;
  /** Defaults to true for plan confirmations and input requests, false otherwise. */
  requiresUserAction?: boolean;
}

/** A HITL message of any type; the details the type needs (plan, input type, validation…) go in `options`. */
export function createHitlMessage(content: string, hitlType: HitlType, options: CreateHitlOptions = {}): Message {
  const hitl = hitlMessage(
    hitlType,
    content,
    options.requiresUserAction ?? requiresUserActionByDefault(hitlType),
    options,
    packHitlDetails(options),
  );
  return createMessageWithHitl(content, hitl, options);
}

/** A message carrying an existing HITL payload; `contentType` becomes the text part's `mediaType`. */
export function createMessageWithHitl(
  content: string,
  hitl: HitlMessage,
  options: EnvelopeOptions & { contentType?: string } = {},
): Message {
  const part = memberPart(NOVAOS_HITL_KEY, HitlMessageSchema, hitl);
  return agent(content, part, hitl.sessionId, options, options.contentType);
}

/** The answer payload itself (not a message). */
export const createHitlResponse = hitlResponse;

/**
 * The person's answer as a `ROLE_USER` message. To resume a paused task, send
 * it with the paused task's `taskId`; its `contextId` is `sessionId`.
 */
export function createMessageWithHitlResponse(
  content: string,
  actionId: string,
  sessionId: string,
  options: HitlResponseOptions & EnvelopeOptions = {},
): Message {
  const response = hitlResponse(actionId, sessionId, options);
  const part = memberPart(NOVAOS_HITL_RESPONSE_KEY, HitlResponseSchema, response);
  return message(Role.USER, [visibleText(content), part], sessionId, options);
}

/**
 * A connector-OAuth pause. Pair it with `ctx.taskUpdater.requiresAuth(message)`
 * (task state AUTH_REQUIRED); the builder sets no state itself.
 */
export function createOauthRequiredMessage(
  content: string,
  connector: string,
  authUrl: string,
  options: SessionOptions & { metadata?: JsonObject } = {},
): Message {
  const payload = oauthRequiredJson({ connector, authUrl, ...options });
  const part = novaosMetadataPart({ [NOVAOS_PAUSE_OAUTH_KEY]: payload });
  return agent(content, part, options.sessionId ?? "", options);
}

/**
 * A write-confirmation pause bound to the pending tool call `callId`, which
 * must be that call's real id: the platform mints the resume token bound to
 * it. An empty or placeholder id is refused with NovaOSValidationError.
 */
export function createWriteConfirmationRequiredMessage(
  content: string,
  callId: string,
  toolName: string,
  options: SessionOptions & { metadata?: JsonObject } = {},
): Message {
  const payload = writeConfirmationRequiredJson({ callId, toolName, ...options });
  const part = novaosMetadataPart({ [NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY]: payload });
  return agent(content, part, options.sessionId ?? "", options);
}

/** A progress report: `content` is shown and is the payload's `message`. */
export function createProgressMessage(
  content: string,
  status: ProgressStatus,
  progress: ProgressDataInit,
  options: SessionOptions & { metadata?: JsonObject } = {},
): Message {
  const payload = progressMessage(status, content, { ...options, progress });
  return agent(content, memberPart(NOVAOS_PROGRESS_KEY, ProgressMessageSchema, payload), payload.sessionId, options);
}

/** A copy of `message` with one more part; the input is not touched. */
function appended(original: Message, part: Part): Message {
  const copy = clone(MessageSchema, original);
  copy.parts.push(part);
  return copy;
}

export const embedErrorMessage = (message: Message, error: ErrorMessage): Message =>
  appended(message, memberPart(NOVAOS_ERROR_KEY, ErrorMessageSchema, error));
export const embedHitlMessage = (message: Message, hitl: HitlMessage): Message =>
  appended(message, memberPart(NOVAOS_HITL_KEY, HitlMessageSchema, hitl));
export const embedHitlResponse = (message: Message, response: HitlResponse): Message =>
  appended(message, memberPart(NOVAOS_HITL_RESPONSE_KEY, HitlResponseSchema, response));
export const embedProgressMessage = (message: Message, progress: ProgressMessage): Message =>
  appended(message, memberPart(NOVAOS_PROGRESS_KEY, ProgressMessageSchema, progress));

/** The reference's static-class spelling of the functions above. */
export const MessageBuilder = {
  createErrorMessage,
  createHitlMessage,
  createHitlResponse,
  createMessageWithHitl,
  createMessageWithHitlResponse,
  createOauthRequiredMessage,
  createProgressMessage,
  createWriteConfirmationRequiredMessage,
  embedErrorMessage,
  embedHitlMessage,
  embedHitlResponse,
  embedProgressMessage,
} as const;
