/**
 * MessageValidator: the A2A envelope checks (spec v1.0.1: every Message has a
 * `messageId`, a `role` and at least one part, each part with content) and the
 * NovaOS payload checks (REQUIRED fields and field types from the protos, plus
 * the rules no proto can say, such as a real `call_id`). Errors are precise
 * (JSON path and reason); nothing here throws on foreign input except
 * `assertA2AEnvelope`, whose job it is.
 */
import { type DescField, isMessage, type JsonObject } from "@bufbuild/protobuf";
import { type Message, MessageSchema } from "../../gen/a2a_pb.js";
import { NovaOSMetadataSchema } from "../../gen/novaos/v1/metadata_pb.js";
import { BAD_REQUEST_TYPE } from "../a2a/error-wire.js";
import { InvalidParamsError } from "../a2a/errors.js";
import { isJsonObject } from "../a2a/json-object.js";
import { decodeMessage, invalidParams } from "../a2a/protojson.js";
import { type FieldViolation, requiredFieldViolations } from "../a2a/required-fields.js";
import { isA2AShaped } from "./a2a-shape.js";
import { novaosPayloads } from "./metadata-part.js";
import { callIdProblem } from "./pause.js";
import { NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY } from "./wire-keys.js";

/** The payload kinds, named by their member key in the metadata part (pinned against the proto by a test). */
export type PayloadKind =
  | "hitl"
  | "hitl_response"
  | "error"
  | "progress"
  | "oauth_required"
  | "write_confirmation_required"
  | "skill_error"
  | "tool_events";

const MEMBERS = new Map<string, DescField>(NovaOSMetadataSchema.fields.flatMap((f) => [[f.jsonName, f] as const]));

function violationsOf(error: unknown): FieldViolation[] {
  if (!(error instanceof InvalidParamsError)) return [{ field: "", description: String(error) }];
  const badRequest = error.errorDetails.find((d) => d["@type"] === BAD_REQUEST_TYPE);
  return (badRequest?.fieldViolations as FieldViolation[] | undefined) ?? [{ field: "", description: error.message }];
}

function describe(v: FieldViolation, prefix = ""): string {
  const field = prefix + v.field;
  return field === "" || v.description.startsWith(v.field) ? prefix + v.description : `${field}: ${v.description}`;
}

/** The problems of one member's JSON value; paths start at `root` (the member key, or "" for a bare payload). */
function memberErrors(field: DescField, json: unknown, root: string): string[] {
  const schema = field.message;
  if (!schema) return [`${field.jsonName}: not a payload member`];
  const items = field.fieldKind === "list" ? json : [json];
  if (!Array.isArray(items)) return [`${root || field.jsonName}: must be a list`];
  return items.flatMap((item, i) => {
    const at = field.fieldKind === "list" ? `${root}[${i}]` : root;
    const prefix = at === "" ? "" : `${at}.`;
    if (!isJsonObject(item)) return [`${at || field.jsonName}: must be an object`];
    try {
      decodeMessage(schema, item);
    } catch (e) {
      return violationsOf(e).map((v) => describe(v, prefix));
    }
    const problem =
      field.jsonName === NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY ? callIdProblem(item.call_id ?? item.callId) : undefined;
    return problem ? [`${prefix}call_id: ${problem}`] : [];
  });
}

/**
 * The problems of a NovaOS payload: with `messageType`, `data` is that
 * payload itself (e.g. a HITL message's JSON); without, `data` is a metadata
 * part's object and every member in it is checked. Empty means valid.
 */
export function getValidationErrors(data: unknown, messageType?: PayloadKind | (string & {})): string[] {
  try {
    if (!isJsonObject(data)) return ["payload must be a JSON object"];
    if (messageType !== undefined) {
      const field = MEMBERS.get(messageType);
      if (!field) return [`unknown message type "${messageType}"; expected one of ${[...MEMBERS.keys()].join(", ")}`];
      return memberErrors(field, field.fieldKind === "list" ? [data] : data, "");
    }
    const present = [...MEMBERS.values()].filter((f) => data[f.jsonName] !== undefined);
    if (present.length === 0) return [`no NovaOS payload; expected one of ${[...MEMBERS.keys()].join(", ")}`];
    return present.flatMap((f) => memberErrors(f, data[f.jsonName], f.jsonName));
  } catch (e) {
    return [`payload is not readable: ${String(e)}`];
  }
}

export const validateHitlMessage = (data: unknown): boolean => getValidationErrors(data, "hitl").length === 0;
export const validateHitlResponse = (data: unknown): boolean => getValidationErrors(data, "hitl_response").length === 0;
export const validateErrorMessage = (data: unknown): boolean => getValidationErrors(data, "error").length === 0;
export const validateProgressMessage = (data: unknown): boolean => getValidationErrors(data, "progress").length === 0;

/** Parts without content (none of text, raw, url, data). */
function emptyParts(message: Message): FieldViolation[] {
  return message.parts.flatMap((part, i) =>
    part.content.case === undefined
      ? [{ field: `parts[${i}]`, description: "a part needs one of text, raw, url or data" }]
      : [],
  );
}

/**
 * The A2A envelope problems of `message`: for a generated Message or anything
 * A2A-shaped (it has `messageId` or `role`), missing or malformed `messageId`,
 * `role`, `parts`, and parts without content. Anything else has none: the
 * envelope rules are A2A's, and legacy shapes are not A2A messages.
 */
export function a2aEnvelopeErrors(message: unknown): FieldViolation[] {
  try {
    if (!isA2AShaped(message)) return [];
    let decoded: Message;
    try {
      decoded = isMessage(message, MessageSchema)
        ? message
        : decodeMessage(MessageSchema, message, { validateRequired: false });
    } catch (e) {
      return violationsOf(e);
    }
    return [...requiredFieldViolations(MessageSchema, decoded), ...emptyParts(decoded)];
  } catch (e) {
    return [{ field: "", description: `not readable as a message: ${String(e)}` }];
  }
}

export const validateA2AEnvelope = (message: unknown): boolean => a2aEnvelopeErrors(message).length === 0;

/** Throws InvalidParamsError (-32602, a NovaOSValidationError) naming every envelope problem. */
export function assertA2AEnvelope(message: unknown): void {
  const violations = a2aEnvelopeErrors(message);
  if (violations.length > 0) throw invalidParams(violations, "Invalid A2A message");
}

/** Every problem of `message`: its envelope, then each NovaOS payload it carries. */
export function getMessageErrors(message: unknown): string[] {
  return [
    ...a2aEnvelopeErrors(message).map((v) => describe(v)),
    ...novaosPayloads(message).flatMap((payload: JsonObject) => getValidationErrors(payload)),
  ];
}

/** Whether `message` and every NovaOS payload embedded in it are valid. */
export const validateMessage = (message: unknown): boolean => getMessageErrors(message).length === 0;

/** The reference's static-class spelling of the functions above. */
export const MessageValidator = {
  getValidationErrors,
  getMessageErrors,
  a2aEnvelopeErrors,
  assertA2AEnvelope,
  validateA2AEnvelope,
  validateErrorMessage,
  validateHitlMessage,
  validateHitlResponse,
  validateProgressMessage,
  validateMessage,
} as const;
