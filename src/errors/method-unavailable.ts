/**
 * "This agent does not offer that method": A2A's UnsupportedOperationError
 * (-32004) or JSON-RPC's Method not found (-32601). The two sit in different
 * branches of the error hierarchy on purpose (one is A2A's, one is the
 * transport's), so the condition is detected by code, whichever binding the
 * call went over. The usual answer is to fall back, e.g. from
 * SendStreamingMessage to SendMessage.
 */
import { A2A_ERRORS } from "../a2a/error-table.js";
import { jsonRpcErrorCode } from "./error-mapping.js";

/** The codes meaning the method is not available at this agent. */
export const METHOD_UNAVAILABLE_ERROR_CODES: ReadonlySet<number> = new Set([
  A2A_ERRORS.UnsupportedOperationError.jsonRpcCode,
  A2A_ERRORS.MethodNotFoundError.jsonRpcCode,
]);

/** Whether `error` says the agent does not offer the method called (by its code, see {@link jsonRpcErrorCode}). */
export function isMethodUnavailable(error: unknown): boolean {
  const code = jsonRpcErrorCode(error);
  return code !== undefined && METHOD_UNAVAILABLE_ERROR_CODES.has(code);
}
