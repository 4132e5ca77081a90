/**
 * The MCP Gateway's refusals as the SDK's typed errors (decisions O110,
 * O111). A JSON-RPC error is a decision of the gateway that a retry cannot
 * change: -32602 (bad arguments, unknown tool) is NovaOSValidationError,
 * -32040 (scope or policy) NovaOSAuthenticationError, -32042
 * `WriteConfirmationRequiredError` naming the call to confirm, -32043 (the
 * tool's service is disabled) and every other code NovaOSServerError. A
 * non-200 status maps as every platform call's does; its body is the
 * platform's `{error, message}`, or a JSON-RPC error for a 400.
 */
import {
  NovaOSAuthenticationError,
  NovaOSError,
  type NovaOSErrorOptions,
  NovaOSServerError,
  NovaOSValidationError,
} from "../errors/novaos-errors.js";
import { isRecord, optionalString, stringField } from "../http/json-fields.js";
import { platformHttpError } from "../http/platform-http-error.js";

export const WRITE_CONFIRMATION_REQUIRED_CODE = -32042;

/**
 * A write-class tool was called while the run's write confirmation is active
 * and not granted for this call: pause the run for confirmation, then call
 * again with the token the platform mints for `callId`.
 */
export class WriteConfirmationRequiredError extends NovaOSError {
  static override readonly brand: string = "WriteConfirmationRequiredError";
  readonly callId: string;
  readonly toolName: string;
  constructor(message: string, options: NovaOSErrorOptions & { callId: string; toolName: string }) {
    super(message, options);
    this.callId = options.callId;
    this.toolName = options.toolName;
  }
}

/** The typed error of a JSON-RPC `error` object the gateway answered for `method`. */
export function jsonRpcToolError(error: unknown, method: string): NovaOSError {
  const e = isRecord(error) ? error : {};
  const code = typeof e.code === "number" ? e.code : undefined;
  const data = isRecord(e.data) ? e.data : {};
  const reason = optionalString(data.reason);
  const message = `MCP Gateway ${method} refused: ${stringField(e.message, "no message")}${reason ? ` (${reason})` : ""}`;
  const options = { code, details: { code, data } };
  switch (code) {
    case -32602:
      return new NovaOSValidationError(message, { ...options, reason, field: "arguments" });
    case -32040:
      return new NovaOSAuthenticationError(message, options);
    case WRITE_CONFIRMATION_REQUIRED_CODE:
      return new WriteConfirmationRequiredError(message, {
        ...options,
        callId: stringField(data.call_id),
        toolName: stringField(data.tool_name),
      });
    default:
      return new NovaOSServerError(message, options);
  }
}

/** The typed error of a non-200 answer (`body`: its first 64 KiB, parsed when JSON). */
export function mcpHttpError(response: Response, body: unknown, method: string): NovaOSError {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === "number") {
    return jsonRpcToolError(body.error, method);
  }
  return platformHttpError(response, body, {
    operation: `MCP Gateway ${method}`,
    decisions: SESSION_EXPIRED_STATUS,
  });
}

/** 404: the `Mcp-Session-Id` sent is unknown or expired, and nothing ran. */
const SESSION_EXPIRED_STATUS: ReadonlySet<number> = new Set([404]);

/** Whether `error` says the session the call named has expired. */
export function isSessionExpired(error: unknown): boolean {
  return error instanceof NovaOSServerError && error.statusCode === 404;
}
