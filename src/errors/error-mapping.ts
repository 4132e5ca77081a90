/**
 * The four mapping functions of the reference, over the protocol layer's one
 * error table: JSON-RPC error objects to typed errors, and back to codes.
 */
import { A2A_ERRORS, type A2AErrorType } from "../a2a/error-table.js";
import { fromJsonRpcErrorObject } from "../a2a/error-wire.js";
import { A2A_ERROR_CLASSES, A2AError, A2AProtocolError, errorClassForCode } from "../a2a/errors.js";

/** The key under which platform errors keep a JSON-RPC code they were built from. */
export const JSONRPC_CODE_DETAIL_KEY = "jsonRpcCode";

/** The spec release the A2A error classes follow. */
export const A2A_ERROR_SPEC_VERSION = "1.0.1";

/** The nine A2A error classes by JSON-RPC code (-32001…-32009), read from the one error table. */
export const A2A_ERROR_TYPES: ReadonlyMap<number, typeof A2AProtocolError> = new Map(
  Object.values(A2A_ERRORS)
    .filter((spec) => spec.family === "a2a")
    .map((spec) => [spec.jsonRpcCode, A2A_ERROR_CLASSES[spec.type as A2AErrorType] as typeof A2AProtocolError]),
);

/** The A2A class for a code; codes outside the nine A2A errors give the base A2AProtocolError. */
export function a2aErrorForCode(code: number): typeof A2AProtocolError {
  return A2A_ERROR_TYPES.get(code) ?? A2AProtocolError;
}

/** Rebuilds a parsed wire error as `ErrorClass`, naming the task when the reply did not. */
function rebuild<E extends A2AError>(
  parsed: A2AError,
  ErrorClass: new (...args: ConstructorParameters<typeof A2AError>) => E,
  taskId?: string,
): E {
  return new ErrorClass(parsed.message, {
    code: parsed.code,
    metadata: parsed.metadata,
    taskId: parsed.taskId ?? taskId,
    errorDetails: parsed.errorDetails,
    details: parsed.details,
  });
}

/**
 * The A2A error for a JSON-RPC `error` member, always from the A2A subtree:
 * the wire code is kept even when unknown, and `error.data` is kept at
 * `details.data`.
 */
export function a2aErrorFromJsonRpc(error: unknown, options: { taskId?: string } = {}): A2AProtocolError {
  const parsed = fromJsonRpcErrorObject(error);
  return rebuild(parsed, a2aErrorForCode(parsed.code), options.taskId);
}

/**
 * The SDK error for a JSON-RPC `error` member at a transport boundary: the
 * standard codes are validation / server errors (never A2A errors), the A2A
 * codes their A2A classes, and an unknown code an A2AProtocolError carrying it.
 */
export function errorFromJsonRpc(error: unknown, options: { taskId?: string } = {}): A2AError {
  const parsed = fromJsonRpcErrorObject(error);
  return rebuild(parsed, errorClassForCode(parsed.code), options.taskId);
}

/** The JSON-RPC code an error came from, if it came from a JSON-RPC reply. */
export function jsonRpcErrorCode(error: unknown): number | undefined {
  if (error instanceof A2AError) return error.code;
  const details = (error as { details?: Record<string, unknown> } | null)?.details;
  const code = details?.[JSONRPC_CODE_DETAIL_KEY];
  return typeof code === "number" ? code : undefined;
}
