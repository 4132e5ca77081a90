/**
 * The MCP Gateway's HTTP refusals as the SDK's typed errors (decisions O110,
 * O111). A JSON-RPC error, at 200 or in a 400 body, is typed as the platform
 * tools type it (`gatewayRpcError` in src/tools/gateway-rpc-error.ts): one mapping for every caller of
 * the gateway. Any other non-200 status maps as every platform call's does;
 * its body is the platform's `{error, message}`.
 */
import { type NovaOSError, NovaOSServerError } from "../errors/novaos-errors.js";
import { isRecord } from "../http/json-fields.js";
import { platformHttpError } from "../http/platform-http-error.js";
import { gatewayRpcError } from "../tools/gateway-rpc-error.js";
import { isSessionExpiredAnswer } from "../tools/mcp-session.js";

/** The typed error of a non-200 answer (`body`: its first 64 KiB, parsed when JSON) to a call about `subject`. */
export function mcpHttpError(response: Response, body: unknown, subject: string): NovaOSError {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === "number") {
    return gatewayRpcError(body.error, subject);
  }
  return platformHttpError(response, body, {
    operation: `MCP Gateway ${subject}`,
    decisions: SESSION_EXPIRED_STATUS,
  });
}

/** 404: the `Mcp-Session-Id` sent is unknown or expired, and nothing ran. */
const SESSION_EXPIRED_STATUS: ReadonlySet<number> = new Set([404]);

/** Whether `error` is the gateway's answer that the session the call named has expired. */
export function isSessionExpired(error: unknown): boolean {
  return error instanceof NovaOSServerError && isSessionExpiredAnswer(error.statusCode ?? 0, error.details.body);
}
