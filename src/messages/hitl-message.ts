/**
 * HITL message factories (the reference's `HITLMessage.plan_confirmation(…)`
 * and siblings) and a typed reader of what they put in `metadata`. The
 * payload type is the generated `HitlMessage`; the factory data that has no
 * field of its own (plan, input type, validation, fields, progress, error
 * type, recovery suggestions, result) lives in `metadata` under the keys of
 * `HITL_METADATA_KEYS`, exactly as the reference stores it.
 */
import {
  create,
  type DescMessage,
  fromJson,
  type JsonObject,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
  toJson,
} from "@bufbuild/protobuf";
import {
  type HitlAction,
  HitlActionSchema,
  type HitlMessage,
  HitlMessageSchema,
  type InputField,
  InputFieldSchema,
  type InputValidation,
  InputValidationSchema,
} from "../../gen/novaos/v1/hitl_pb.js";
import { type ProgressData, ProgressDataSchema } from "../../gen/novaos/v1/progress_pb.js";
import { isJsonObject } from "../a2a/json-object.js";
import { ActionStyle, HitlType, InputType } from "./vocabulary.js";

export type HitlActionInit = MessageInitShape<typeof HitlActionSchema>;
export type InputValidationInit = MessageInitShape<typeof InputValidationSchema>;
export type InputFieldInit = MessageInitShape<typeof InputFieldSchema>;
export type ProgressDataInit = MessageInitShape<typeof ProgressDataSchema>;

/** The `HitlMessage.metadata` keys the factories write. */
export const HITL_METADATA_KEYS = {
  plan: "plan",
  inputType: "input_type",
  validation: "validation",
  fields: "fields",
  progress: "progress",
  errorType: "error_type",
  recoverySuggestions: "recovery_suggestions",
  result: "result",
} as const;

/** The action a batch input form gets when the caller gives none. */
export const DEFAULT_SUBMIT_ACTION: Readonly<HitlActionInit> = Object.freeze({
  id: "submit",
  label: "Submit",
  style: ActionStyle.PRIMARY,
});

export interface HitlOptions {
  /** The conversation (A2A contextId) the message belongs to. */
  sessionId?: string;
  /** Extra metadata; the factory's own keys win over it. */
  metadata?: JsonObject;
  actions?: readonly HitlActionInit[];
}

/** The JSON form of a generated message, as it sits inside `metadata`. */
function json<S extends DescMessage>(schema: S, init: MessageInitShape<S>): JsonValue {
  return toJson(schema, create(schema, init));
}

/** Builds a HITL message: any type, with explicit `requiresUserAction`. */
export function hitlMessage(
  hitlType: HitlType,
  content: string,
  requiresUserAction: boolean,
  options: HitlOptions = {},
  factoryMetadata: JsonObject = {},
): HitlMessage {
  const metadata = { ...options.metadata, ...factoryMetadata };
  return create(HitlMessageSchema, {
    hitlType,
    content,
    requiresUserAction,
    sessionId: options.sessionId ?? "",
    metadata: Object.keys(metadata).length > 0 ? metadata : undefined,
    actions: (options.actions ?? []).map((a) => create(HitlActionSchema, a)),
  });
}

/** The factory data of a HITL message, as the factories and `createHitlMessage` take it. */
export interface HitlDetailsInit {
  plan?: JsonObject;
  inputType?: InputType;
  validation?: InputValidationInit;
  fields?: readonly InputFieldInit[];
  progress?: ProgressDataInit;
  errorType?: string;
  recoverySuggestions?: readonly string[];
  result?: JsonObject;
}

/** Packs factory data into metadata entries (the inverse of `hitlDetails`). */
export function packHitlDetails(init: HitlDetailsInit): JsonObject {
  const k = HITL_METADATA_KEYS;
  const out: JsonObject = {};
  if (init.plan) out[k.plan] = init.plan;
  if (init.inputType !== undefined) out[k.inputType] = init.inputType;
  if (init.validation) out[k.validation] = json(InputValidationSchema, init.validation);
  if (init.fields) out[k.fields] = init.fields.map((f) => json(InputFieldSchema, f));
  if (init.progress) out[k.progress] = json(ProgressDataSchema, init.progress);
  if (init.errorType !== undefined) out[k.errorType] = init.errorType;
  if (init.recoverySuggestions) out[k.recoverySuggestions] = [...init.recoverySuggestions];
  if (init.result) out[k.result] = init.result;
  return out;
}

/** Whether a HITL type waits for the person when the caller does not say. */
export function requiresUserActionByDefault(hitlType: HitlType): boolean {
  return (
    hitlType === HitlType.PLAN_CONFIRMATION ||
    hitlType === HitlType.INPUT_REQUEST ||
    hitlType === HitlType.BATCH_INPUT_REQUEST
  );
}

/** Asks the person to confirm a plan with one of `actions`. */
function planConfirmation(
  content: string,
  plan: JsonObject,
  actions: readonly HitlActionInit[],
  options: Omit<HitlOptions, "actions"> = {},
): HitlMessage {
  return hitlMessage(HitlType.PLAN_CONFIRMATION, content, true, { ...options, actions }, packHitlDetails({ plan }));
}

/** Asks for one input (type `text` unless said); no buttons unless `actions` are given. */
function inputRequest(
  content: string,
  options: HitlOptions & { inputType?: InputType; validation?: InputValidationInit } = {},
): HitlMessage {
  const details = packHitlDetails({ inputType: options.inputType ?? InputType.TEXT, validation: options.validation });
  return hitlMessage(HitlType.INPUT_REQUEST, content, true, options, details);
}

/** Asks for several inputs in one form; the actions default to one Submit button. */
function batchInputRequest(content: string, fields: readonly InputFieldInit[], options: HitlOptions = {}): HitlMessage {
  const withSubmit = { ...options, actions: options.actions ?? [DEFAULT_SUBMIT_ACTION] };
  return hitlMessage(HitlType.BATCH_INPUT_REQUEST, content, true, withSubmit, packHitlDetails({ fields }));
}

/** Reports progress; nothing to answer. */
function executionProgress(
  content: string,
  progress: ProgressDataInit,
  options: Omit<HitlOptions, "actions"> = {},
): HitlMessage {
  return hitlMessage(HitlType.EXECUTION_PROGRESS, content, false, options, packHitlDetails({ progress }));
}

/** Tells the person something failed; waits only when `requiresUserAction` is set. */
function errorNotification(
  content: string,
  errorType: string,
  options: HitlOptions & { recoverySuggestions?: readonly string[]; requiresUserAction?: boolean } = {},
): HitlMessage {
  const details = packHitlDetails({ errorType, recoverySuggestions: options.recoverySuggestions ?? [] });
  return hitlMessage(HitlType.ERROR_NOTIFICATION, content, options.requiresUserAction ?? false, options, details);
}

/** An informational notice. */
function infoMessage(content: string, options: Omit<HitlOptions, "actions"> = {}): HitlMessage {
  return hitlMessage(HitlType.INFO, content, false, options);
}

/** A success notice, with the result when there is one. */
function successMessage(
  content: string,
  options: Omit<HitlOptions, "actions"> & { result?: JsonObject } = {},
): HitlMessage {
  return hitlMessage(HitlType.SUCCESS, content, false, options, packHitlDetails({ result: options.result }));
}

/** The HITL factories, by kind. */
export const HitlMessages = {
  planConfirmation,
  inputRequest,
  batchInputRequest,
  executionProgress,
  errorNotification,
  infoMessage,
  successMessage,
} as const;

/** The factory data of a HITL message, typed. Entries that are absent or malformed are undefined. */
export interface HitlDetails {
  plan?: JsonObject;
  inputType?: string;
  validation?: InputValidation;
  fields?: InputField[];
  progress?: ProgressData;
  errorType?: string;
  recoverySuggestions?: string[];
  result?: JsonObject;
}

function decodeOr<S extends DescMessage>(schema: S, value: unknown): MessageShape<S> | undefined {
  try {
    return isJsonObject(value) ? fromJson(schema, value, { ignoreUnknownFields: true }) : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the factory data back out of `hitl.metadata`. */
export function hitlDetails(hitl: Pick<HitlMessage, "metadata">): HitlDetails {
  const m = hitl.metadata ?? {};
  const k = HITL_METADATA_KEYS;
  const fields = Array.isArray(m[k.fields])
    ? (m[k.fields] as unknown[]).map((f) => decodeOr(InputFieldSchema, f))
    : undefined;
  const suggestions = m[k.recoverySuggestions];
  return {
    plan: isJsonObject(m[k.plan]) ? (m[k.plan] as JsonObject) : undefined,
    inputType: typeof m[k.inputType] === "string" ? (m[k.inputType] as string) : undefined,
    validation: decodeOr(InputValidationSchema, m[k.validation]),
    fields: fields?.every((f) => f !== undefined) ? (fields as InputField[]) : undefined,
    progress: decodeOr(ProgressDataSchema, m[k.progress]),
    errorType: typeof m[k.errorType] === "string" ? (m[k.errorType] as string) : undefined,
    recoverySuggestions:
      Array.isArray(suggestions) && suggestions.every((s) => typeof s === "string")
        ? (suggestions as string[])
        : undefined,
    result: isJsonObject(m[k.result]) ? (m[k.result] as JsonObject) : undefined,
  };
}

export type { HitlAction, HitlMessage, InputField, InputValidation };
