/**
 * MessageParser: reads NovaOS payloads out of anything message-like — a
 * generated A2A `Message` or `Artifact`, their wire JSON, an ACP-era message
 * (payload as a JSON string under the vendor content type) or a legacy
 * message (payload in its `metadata` dictionary). It is read-side and
 * tolerant on purpose: foreign or malformed input gives `undefined` / `false`,
 * never a throw. A payload member that does not decode, or misses a REQUIRED
 * field, counts as absent; with several, the first in part order wins.
 */
import type { DescField, DescMessage, JsonObject, MessageShape } from "@bufbuild/protobuf";
import {
  type ErrorMessage,
  ErrorMessageSchema,
  type SkillError,
  SkillErrorSchema,
} from "../../gen/novaos/v1/error_message_pb.js";
import {
  type HitlMessage,
  HitlMessageSchema,
  type HitlResponse,
  HitlResponseSchema,
} from "../../gen/novaos/v1/hitl_pb.js";
import { NovaOSMetadataSchema } from "../../gen/novaos/v1/metadata_pb.js";
import type { OAuthRequired, WriteConfirmationRequired } from "../../gen/novaos/v1/pause_pb.js";
import { type ProgressMessage, ProgressMessageSchema } from "../../gen/novaos/v1/progress_pb.js";
import { type ToolEvent, ToolEventSchema } from "../../gen/novaos/v1/tool_event_pb.js";
import { decodeMessage } from "../a2a/protojson.js";
import { novaosPayloads } from "./metadata-part.js";
import { type PauseRead, readOAuthRequired, readWriteConfirmationRequired } from "./pause.js";

/** Everything NovaOS a message carries; a key is present only when found. */
export interface NovaOSPayloadSet {
  hitl?: HitlMessage;
  hitlResponse?: HitlResponse;
  error?: ErrorMessage;
  progress?: ProgressMessage;
  oauthRequired?: PauseRead<OAuthRequired>;
  writeConfirmationRequired?: PauseRead<WriteConfirmationRequired>;
  skillError?: SkillError;
  toolEvents?: ToolEvent[];
}

const F = NovaOSMetadataSchema.field;

/** A member of a payload object, under its wire key. */
function member(payload: JsonObject, field: DescField): unknown {
  return payload[field.jsonName];
}

function decodeOr<S extends DescMessage>(schema: S, json: unknown): MessageShape<S> | undefined {
  try {
    return decodeMessage(schema, json);
  } catch {
    return undefined;
  }
}

/** The first payload whose `field` member reads with `read`. */
function firstIn<T>(payloads: JsonObject[], field: DescField, read: (json: unknown) => T | undefined): T | undefined {
  for (const payload of payloads) {
    const value = member(payload, field);
    const found = value === undefined ? undefined : read(value);
    if (found !== undefined) return found;
  }
  return undefined;
}

function typedIn<S extends DescMessage>(
  payloads: JsonObject[],
  field: DescField,
  schema: S,
): MessageShape<S> | undefined {
  return firstIn(payloads, field, (json) => decodeOr(schema, json));
}

function toolEventsIn(payloads: JsonObject[]): ToolEvent[] {
  return payloads.flatMap((payload) => {
    const events = member(payload, F.toolEvents);
    if (!Array.isArray(events)) return [];
    return events.map((e) => decodeOr(ToolEventSchema, e)).filter((e): e is ToolEvent => e !== undefined);
  });
}

/** Reads every member from the payload list once. */
function readAll(payloads: JsonObject[]): NovaOSPayloadSet {
  return {
    hitl: typedIn(payloads, F.hitl, HitlMessageSchema),
    hitlResponse: typedIn(payloads, F.hitlResponse, HitlResponseSchema),
    error: typedIn(payloads, F.error, ErrorMessageSchema),
    progress: typedIn(payloads, F.progress, ProgressMessageSchema),
    oauthRequired: firstIn(payloads, F.oauthRequired, readOAuthRequired),
    writeConfirmationRequired: firstIn(payloads, F.writeConfirmationRequired, readWriteConfirmationRequired),
    skillError: typedIn(payloads, F.skillError, SkillErrorSchema),
    toolEvents: toolEventsIn(payloads),
  };
}

export const extractHitlMessage = (message: unknown): HitlMessage | undefined =>
  typedIn(novaosPayloads(message), F.hitl, HitlMessageSchema);
export const extractHitlResponse = (message: unknown): HitlResponse | undefined =>
  typedIn(novaosPayloads(message), F.hitlResponse, HitlResponseSchema);
export const extractErrorMessage = (message: unknown): ErrorMessage | undefined =>
  typedIn(novaosPayloads(message), F.error, ErrorMessageSchema);
export const extractProgressMessage = (message: unknown): ProgressMessage | undefined =>
  typedIn(novaosPayloads(message), F.progress, ProgressMessageSchema);
export const extractSkillError = (message: unknown): SkillError | undefined =>
  typedIn(novaosPayloads(message), F.skillError, SkillErrorSchema);
export const extractOAuthRequired = (message: unknown): PauseRead<OAuthRequired> | undefined =>
  firstIn(novaosPayloads(message), F.oauthRequired, readOAuthRequired);
export const extractWriteConfirmationRequired = (message: unknown): PauseRead<WriteConfirmationRequired> | undefined =>
  firstIn(novaosPayloads(message), F.writeConfirmationRequired, readWriteConfirmationRequired);
/** Every well-formed tool event of every payload, in order. */
export const extractToolEvents = (message: unknown): ToolEvent[] => toolEventsIn(novaosPayloads(message));

export const isHitlMessage = (message: unknown): boolean => extractHitlMessage(message) !== undefined;
export const isHitlResponse = (message: unknown): boolean => extractHitlResponse(message) !== undefined;
export const isErrorMessage = (message: unknown): boolean => extractErrorMessage(message) !== undefined;
export const isProgressMessage = (message: unknown): boolean => extractProgressMessage(message) !== undefined;

/** Everything NovaOS in `message`; a key is present only when found. */
export function extractAll(message: unknown): NovaOSPayloadSet {
  const all = readAll(novaosPayloads(message));
  if (all.toolEvents?.length === 0) all.toolEvents = undefined;
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as NovaOSPayloadSet;
}

/** The reference's static-class spelling of the functions above. */
export const MessageParser = {
  extractAll,
  extractHitlMessage,
  extractHitlResponse,
  extractErrorMessage,
  extractProgressMessage,
  extractOAuthRequired,
  extractWriteConfirmationRequired,
  extractSkillError,
  extractToolEvents,
  isHitlMessage,
  isHitlResponse,
  isErrorMessage,
  isProgressMessage,
} as const;
