/** Error message factories (the reference's `ErrorMessage` and its three class methods). */
import { create, type JsonObject } from "@bufbuild/protobuf";
import type { Part } from "../../gen/a2a_pb.js";
import {
  type ErrorMessage,
  ErrorMessageSchema,
  type SkillError,
  SkillErrorSchema,
} from "../../gen/novaos/v1/error_message_pb.js";
import { encodeMessage } from "../a2a/protojson.js";
import { novaosMetadataPart } from "./metadata-part.js";
import { ErrorType } from "./vocabulary.js";
import { NOVAOS_SKILL_ERROR_KEY } from "./wire-keys.js";

export interface ErrorMessageOptions {
  sessionId?: string;
  details?: JsonObject;
  recoverySuggestions?: readonly string[];
  retryable?: boolean;
}

/** Builds an error message of any type; not retryable unless said. */
export function errorMessage(errorType: ErrorType, message: string, options: ErrorMessageOptions = {}): ErrorMessage {
  return create(ErrorMessageSchema, {
    errorType,
    message,
    sessionId: options.sessionId ?? "",
    details: options.details,
    recoverySuggestions: [...(options.recoverySuggestions ?? [])],
    retryable: options.retryable ?? false,
  });
}

/** The typed factories: a connection failure is retryable by default, the others are not. */
export const ErrorMessages = {
  connectionError: (message: string, options: ErrorMessageOptions = {}): ErrorMessage =>
    errorMessage(ErrorType.CONNECTION_ERROR, message, { retryable: true, ...options }),
  notFoundError: (message: string, options: ErrorMessageOptions = {}): ErrorMessage =>
    errorMessage(ErrorType.NOT_FOUND, message, options),
  validationError: (message: string, options: ErrorMessageOptions = {}): ErrorMessage =>
    errorMessage(ErrorType.VALIDATION_ERROR, message, options),
} as const;

/**
 * The metadata part carrying a skill's failure (`SkillResult.error`), with the
 * status it returned. It rides in the platform-marker part, which the platform
 * drains for its own fields and never shows callers as run data.
 */
export function skillErrorPart(message: string, status = ""): Part {
  const error = create(SkillErrorSchema, { message, status });
  return novaosMetadataPart({ [NOVAOS_SKILL_ERROR_KEY]: encodeMessage(SkillErrorSchema, error) });
}

export type { ErrorMessage, SkillError };
