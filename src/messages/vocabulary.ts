/**
 * The string vocabularies of the NovaOS payloads. The wire fields are plain
 * strings (the reference accepts any string "for backward compatibility"), so
 * each type is the known values widened with `string`: editors complete the
 * known ones and unknown ones still pass through.
 */

/** Kinds of HITL message. */
export const HitlType = {
  PLAN_CONFIRMATION: "plan_confirmation",
  INPUT_REQUEST: "input_request",
  BATCH_INPUT_REQUEST: "batch_input_request",
  EXECUTION_PROGRESS: "execution_progress",
  ERROR_NOTIFICATION: "error_notification",
  INFO: "info",
  SUCCESS: "success",
} as const;
export type HitlType = (typeof HitlType)[keyof typeof HitlType] | (string & {});

/** Input widgets a frontend renders for an input request (and validates client-side). */
export const InputType = {
  TEXT: "text",
  TEXTAREA: "textarea",
  EMAIL: "email",
  NUMBER: "number",
  URL: "url",
  PHONE: "phone",
  PASSWORD: "password",
  DATE: "date",
  DATETIME: "datetime",
  SELECT: "select",
  MULTISELECT: "multiselect",
  BOOLEAN: "boolean",
} as const;
export type InputType = (typeof InputType)[keyof typeof InputType] | (string & {});

/** Kinds of error message. */
export const ErrorType = {
  CONNECTION_ERROR: "connection_error",
  NOT_FOUND: "not_found",
  VALIDATION_ERROR: "validation_error",
  AUTHENTICATION_ERROR: "authentication_error",
  PERMISSION_DENIED: "permission_denied",
  RATE_LIMITED: "rate_limited",
  TIMEOUT: "timeout",
  INTERNAL_ERROR: "internal_error",
} as const;
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType] | (string & {});

/** States of a progress report. */
export const ProgressStatus = {
  PENDING: "pending",
  IN_PROGRESS: "in_progress",
  COMPLETED: "completed",
  FAILED: "failed",
  CANCELLED: "cancelled",
} as const;
export type ProgressStatus = (typeof ProgressStatus)[keyof typeof ProgressStatus] | (string & {});

/** Rendering hints of a HITL action button. */
export const ActionStyle = {
  PRIMARY: "primary",
  SECONDARY: "secondary",
  DANGER: "danger",
} as const;
export type ActionStyle = (typeof ActionStyle)[keyof typeof ActionStyle] | (string & {});

/** The `type` of a tool event. */
export const ToolEventType = {
  CALL: "tool.call",
  RESULT: "tool.result",
} as const;
export type ToolEventType = (typeof ToolEventType)[keyof typeof ToolEventType] | (string & {});
