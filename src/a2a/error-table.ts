/**
 * The one table of A2A errors: every error the protocol layer can put on the
 * wire, with its JSON-RPC code, HTTP status, gRPC status and
 * `google.rpc.ErrorInfo` reason. Spec v1.0.1 §5.4 (the nine A2A errors), §9.5
 * (the five JSON-RPC standard errors) and the two categories of §3.3.2 whose
 * codes the spec leaves to implementations: authentication (401,
 * UNAUTHENTICATED) and authorization (403, PERMISSION_DENIED), with JSON-RPC
 * codes of this SDK's choosing (docs/decisions.md). Every binding, and the
 * SDK's error classes, read this table; nothing else restates it.
 */

/** `google.rpc.ErrorInfo.domain` of every error the A2A bindings emit (§10.6, §11.6). */
export const A2A_ERROR_DOMAIN = "a2a-protocol.org";

/** gRPC status names and their numeric codes (google.rpc.Code). */
export const GRPC_STATUS_CODES = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcStatusName = keyof typeof GRPC_STATUS_CODES;

export interface A2AErrorSpec {
  /** The spec's error type name, also the SDK class name. */
  readonly type: string;
  /**
   * `a2a`: the A2A errors of §5.4; `jsonrpc`: the JSON-RPC 2.0 standard errors
   * of §9.5; `auth`: the authentication and authorization errors of §3.3.2.
   */
  readonly family: "a2a" | "jsonrpc" | "auth";
  readonly jsonRpcCode: number;
  readonly httpStatus: number;
  readonly grpcStatus: GrpcStatusName;
  /** `ErrorInfo.reason`: the type in UPPER_SNAKE_CASE without the "Error" suffix. */
  readonly reason: string;
  /** The standard human-readable message, used when no better one is given. */
  readonly message: string;
}

const row = (
  type: string,
  family: A2AErrorSpec["family"],
  jsonRpcCode: number,
  httpStatus: number,
  grpcStatus: GrpcStatusName,
  reason: string,
  message: string,
): A2AErrorSpec => ({ type, family, jsonRpcCode, httpStatus, grpcStatus, reason, message });

/** Every wire error, keyed by type. */
export const A2A_ERRORS = {
  TaskNotFoundError: row("TaskNotFoundError", "a2a", -32001, 404, "NOT_FOUND", "TASK_NOT_FOUND", "Task not found"),
  TaskNotCancelableError: row(
    "TaskNotCancelableError",
    "a2a",
    -32002,
    400,
    "FAILED_PRECONDITION",
    "TASK_NOT_CANCELABLE",
    "Task cannot be canceled",
  ),
  PushNotificationNotSupportedError: row(
    "PushNotificationNotSupportedError",
    "a2a",
    -32003,
    400,
    "FAILED_PRECONDITION",
    "PUSH_NOTIFICATION_NOT_SUPPORTED",
    "Push notifications are not supported",
  ),
  UnsupportedOperationError: row(
    "UnsupportedOperationError",
    "a2a",
    -32004,
    400,
    "FAILED_PRECONDITION",
    "UNSUPPORTED_OPERATION",
    "This operation is not supported",
  ),
  ContentTypeNotSupportedError: row(
    "ContentTypeNotSupportedError",
    "a2a",
    -32005,
    400,
    "INVALID_ARGUMENT",
    "CONTENT_TYPE_NOT_SUPPORTED",
    "Incompatible content types",
  ),
  InvalidAgentResponseError: row(
    "InvalidAgentResponseError",
    "a2a",
    -32006,
    500,
    "INTERNAL",
    "INVALID_AGENT_RESPONSE",
    "Invalid agent response",
  ),
  ExtendedAgentCardNotConfiguredError: row(
    "ExtendedAgentCardNotConfiguredError",
    "a2a",
    -32007,
    400,
    "FAILED_PRECONDITION",
    "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
    "Extended agent card is not configured",
  ),
  ExtensionSupportRequiredError: row(
    "ExtensionSupportRequiredError",
    "a2a",
    -32008,
    400,
    "FAILED_PRECONDITION",
    "EXTENSION_SUPPORT_REQUIRED",
    "A required extension was not activated",
  ),
  VersionNotSupportedError: row(
    "VersionNotSupportedError",
    "a2a",
    -32009,
    400,
    "FAILED_PRECONDITION",
    "VERSION_NOT_SUPPORTED",
    "A2A version not supported",
  ),
  JSONParseError: row(
    "JSONParseError",
    "jsonrpc",
    -32700,
    400,
    "INVALID_ARGUMENT",
    "JSON_PARSE",
    "Invalid JSON payload",
  ),
  InvalidRequestError: row(
    "InvalidRequestError",
    "jsonrpc",
    -32600,
    400,
    "INVALID_ARGUMENT",
    "INVALID_REQUEST",
    "Request payload validation error",
  ),
  MethodNotFoundError: row(
    "MethodNotFoundError",
    "jsonrpc",
    -32601,
    404,
    "NOT_FOUND",
    "METHOD_NOT_FOUND",
    "Method not found",
  ),
  InvalidParamsError: row(
    "InvalidParamsError",
    "jsonrpc",
    -32602,
    400,
    "INVALID_ARGUMENT",
    "INVALID_PARAMS",
    "Invalid parameters",
  ),
  InternalError: row("InternalError", "jsonrpc", -32603, 500, "INTERNAL", "INTERNAL", "Internal error"),
  UnauthenticatedError: row(
    "UnauthenticatedError",
    "auth",
    -32060,
    401,
    "UNAUTHENTICATED",
    "UNAUTHENTICATED",
    "Authentication required",
  ),
  PermissionDeniedError: row(
    "PermissionDeniedError",
    "auth",
    -32061,
    403,
    "PERMISSION_DENIED",
    "PERMISSION_DENIED",
    "Permission denied",
  ),
} as const satisfies Record<string, A2AErrorSpec>;

export type A2AErrorType = keyof typeof A2A_ERRORS;

const byCode = new Map<number, A2AErrorSpec>(Object.values(A2A_ERRORS).map((s) => [s.jsonRpcCode, s]));
const byReason = new Map<string, A2AErrorSpec>(Object.values(A2A_ERRORS).map((s) => [s.reason, s]));

export function errorSpecByCode(code: number): A2AErrorSpec | undefined {
  return byCode.get(code);
}

export function errorSpecByReason(reason: string): A2AErrorSpec | undefined {
  return byReason.get(reason);
}
