/**
 * A JSON-RPC error of the MCP Gateway as the SDK's typed error. These are
 * the gateway's decisions about a call that did not run, so none is
 * transient: the codes and `data.reason` values are those of
 * openapi/mcp-gateway.yaml `JsonRpcError`.
 */
import {
  NovaOSAuthenticationError,
  type NovaOSError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../errors/novaos-errors.js";
import { ServiceDisabledError, ToolNotFoundError, WriteConfirmationRequiredError } from "./tool-errors.js";

/** The gateway's codes beyond JSON-RPC's own. */
export const GatewayRpcCode = {
  FORBIDDEN: -32040,
  WRITE_CONFIRMATION_REQUIRED: -32042,
  SERVICE_DISABLED: -32043,
} as const;

const SERVICE_DISABLED = "SERVICE_DISABLED";

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The typed error for the JSON-RPC `error` member `error` of an answer to a
 * call of `toolName`. `error` is what the gateway sent, checked here: a
 * member that is not a JSON-RPC error is a server error too.
 */
export function gatewayRpcError(error: unknown, toolName: string): NovaOSError {
  const { code, message, data } = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
  const fields = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  const reason = text(fields.reason);
  const said = text(message) ?? "no message";
  const options = { code: typeof code === "number" ? code : undefined, details: { data: fields } };
  const refused = `The MCP Gateway refused ${toolName}: ${said}`;
  switch (code) {
    case -32602:
      if (reason === "TOOL_NOT_FOUND") {
        return new ToolNotFoundError(refused, { ...options, toolName: text(fields.tool_name) ?? toolName });
      }
      return new NovaOSValidationError(refused, { ...options, reason: reason ?? "INVALID_ARGUMENTS" });
    case -32700:
    case -32600:
    case -32601:
      return new NovaOSValidationError(refused, { ...options, reason });
    case GatewayRpcCode.FORBIDDEN:
      return new NovaOSAuthenticationError(refused, options);
    case GatewayRpcCode.WRITE_CONFIRMATION_REQUIRED:
      return new WriteConfirmationRequiredError(refused, {
        ...options,
        callId: text(fields.call_id),
        toolName: text(fields.tool_name) ?? toolName,
      });
    case GatewayRpcCode.SERVICE_DISABLED:
      return new ServiceDisabledError(said.includes(SERVICE_DISABLED) ? refused : `${refused} (${SERVICE_DISABLED})`, {
        ...options,
        service: text(fields.service),
      });
    default:
      return new NovaOSServerError(
        typeof code === "number" ? refused : `The MCP Gateway answered ${toolName} with a malformed JSON-RPC error`,
        options,
      );
  }
}
