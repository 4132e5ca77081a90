/**
 * The two pauses that need an out-of-band step: connector OAuth (task state
 * AUTH_REQUIRED) and write confirmation. Their payloads are open: fields a
 * caller adds are merged beside the proto's fields, which always win.
 */
import { create, type DescMessage, fromJson, type JsonObject, type MessageShape } from "@bufbuild/protobuf";
import {
  type OAuthRequired,
  OAuthRequiredSchema,
  type WriteConfirmationRequired,
  WriteConfirmationRequiredSchema,
} from "../../gen/novaos/v1/pause_pb.js";
import { isJsonObject } from "../a2a/json-object.js";
import { encodeMessage } from "../a2a/protojson.js";
import { requiredFieldViolations } from "../a2a/required-fields.js";
import { NovaOSValidationError } from "../errors/novaos-errors.js";

/** A pause read back: the typed payload and the extra fields merged beside it. */
export interface PauseRead<T> {
  payload: T;
  extra: JsonObject;
}

export interface OAuthRequiredInit {
  /** The connector to authorise, e.g. `gmail`. */
  connector: string;
  /** An absolute `https:` (or `http:`) URL where the person completes the flow. */
  authUrl: string;
  sessionId?: string;
  /** Extra fields merged into the payload; they cannot replace `connector`, `auth_url` or `session_id`. */
  metadata?: JsonObject;
}

export interface WriteConfirmationRequiredInit {
  /** The real id of the pending tool call the confirmation is bound to. */
  callId: string;
  /** The tool that would write, e.g. `gmail.send`. */
  toolName: string;
  sessionId?: string;
  /** Extra fields merged into the payload; they cannot replace `call_id`, `tool_name` or `session_id`. */
  metadata?: JsonObject;
}

/**
 * Values that stand for a call id instead of being one. The platform binds the
 * resume token to the real id, so a placeholder would fail the run at resume.
 */
const PLACEHOLDER_CALL_IDS = new Set([
  "placeholder",
  "call_id",
  "callid",
  "call-id",
  "tool_call_id",
  "toolcallid",
  "id",
  "todo",
  "tbd",
  "unknown",
  "none",
  "null",
  "nil",
  "undefined",
  "n/a",
  "na",
  "dummy",
  "fake",
  "example",
  "sample",
  "test",
  "xxx",
  "...",
  "-",
  "0",
]);

/** Template syntax left unfilled: `<call_id>`, `{call_id}`, `{{id}}`, `${id}`, `%s`. */
const TEMPLATE = /^(?:<.*>|\{.*\}|\$\{.*\}|%[sd])$/s;

/** Why `callId` is not a real tool call id, or undefined when it may be one. */
export function callIdProblem(callId: unknown): string | undefined {
  if (typeof callId !== "string" || callId.trim() === "") return "call_id is empty";
  if (callId !== callId.trim()) return "call_id has surrounding whitespace";
  if (TEMPLATE.test(callId) || PLACEHOLDER_CALL_IDS.has(callId.toLowerCase()))
    return `call_id "${callId}" is a placeholder, not the id of the pending tool call`;
  return undefined;
}

/** Why `url` cannot be shown to a person as a link, or undefined. */
function authUrlProblem(url: string): string | undefined {
  try {
    const { protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:" ? undefined : `auth_url must be http(s), not ${protocol}`;
  } catch {
    return "auth_url is not an absolute URL";
  }
}

function refuse(field: string, reason: string): never {
  throw new NovaOSValidationError(reason, { field, reason });
}

/** `json` without the keys that name a field of `schema` (wire, proto or camelCase spelling). */
function withoutFields(schema: DescMessage, json: JsonObject): JsonObject {
  const reserved = new Set(schema.fields.flatMap((f) => [f.jsonName, f.name, f.localName]));
  return Object.fromEntries(Object.entries(json).filter(([key]) => !reserved.has(key))) as JsonObject;
}

/** Extra fields first, then the typed payload on top: the proto's fields always win. */
function mergeOpen<S extends DescMessage>(schema: S, message: MessageShape<S>, extra: JsonObject = {}): JsonObject {
  return { ...withoutFields(schema, extra), ...(encodeMessage(schema, message) as JsonObject) };
}

/** Reads an open payload: the typed part (REQUIRED fields present) and the rest; undefined when it is not one. */
function readOpen<S extends DescMessage>(schema: S, json: unknown): PauseRead<MessageShape<S>> | undefined {
  if (!isJsonObject(json)) return undefined;
  try {
    const payload = fromJson(schema, json, { ignoreUnknownFields: true });
    if (requiredFieldViolations(schema, payload).length > 0) return undefined;
    return { payload, extra: withoutFields(schema, json) };
  } catch {
    return undefined;
  }
}

/** The JSON member of an OAuth pause; refuses an empty connector and a non-http(s) auth URL. */
export function oauthRequiredJson(init: OAuthRequiredInit): JsonObject {
  if (init.connector.trim() === "") refuse("connector", "connector is empty");
  const problem = authUrlProblem(init.authUrl);
  if (problem) refuse("authUrl", problem);
  const payload = create(OAuthRequiredSchema, {
    connector: init.connector,
    authUrl: init.authUrl,
    sessionId: init.sessionId ?? "",
  });
  return mergeOpen(OAuthRequiredSchema, payload, init.metadata);
}

/** The JSON member of a write-confirmation pause; refuses an empty or placeholder call id. */
export function writeConfirmationRequiredJson(init: WriteConfirmationRequiredInit): JsonObject {
  const problem = callIdProblem(init.callId);
  if (problem) refuse("callId", problem);
  if (init.toolName.trim() === "") refuse("toolName", "tool_name is empty");
  const payload = create(WriteConfirmationRequiredSchema, {
    callId: init.callId,
    toolName: init.toolName,
    sessionId: init.sessionId ?? "",
  });
  return mergeOpen(WriteConfirmationRequiredSchema, payload, init.metadata);
}

export const readOAuthRequired = (json: unknown): PauseRead<OAuthRequired> | undefined =>
  readOpen(OAuthRequiredSchema, json);

export const readWriteConfirmationRequired = (json: unknown): PauseRead<WriteConfirmationRequired> | undefined =>
  readOpen(WriteConfirmationRequiredSchema, json);

export type { OAuthRequired, WriteConfirmationRequired };
