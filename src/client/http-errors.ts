/**
 * HTTP-level failures of the two HTTP bindings as the SDK's typed errors.
 * An A2A error the agent put in the body wins (it is the agent's own answer);
 * otherwise the status decides: 401/403 authentication, 429 rate limit with
 * `Retry-After`, 404 agent not found, 5xx server error, other 4xx validation.
 * Authentication and rate limiting are decided before the body, because a
 * proxy in front of the agent answers those, not the agent — unless the body
 * is the agent's own refusal with that very status (`UnauthenticatedError`
 * on 401, `PermissionDeniedError` on 403), the error gRPC callers get too.
 */
import { PROTOCOL_BINDING_JSONRPC, type ProtocolBinding } from "../a2a/constants.js";
import { fromHttpError, fromJsonRpcErrorObject } from "../a2a/error-wire.js";
import type { A2AError } from "../a2a/errors.js";
import { isJsonObject } from "../a2a/json-object.js";
import { readErrorBody } from "../http/capped-body.js";
import { errorForHttpStatus, isGatekeeperStatus, parseRetryAfter } from "../http/http-status-errors.js";

/** The A2A error in an error body of `binding`'s shape, if the body is one. */
function a2aErrorInBody(binding: ProtocolBinding, status: number, body: unknown): A2AError | undefined {
  if (!isJsonObject(body) || !isJsonObject(body.error)) return undefined;
  if (binding === PROTOCOL_BINDING_JSONRPC) {
    return typeof body.error.code === "number" ? fromJsonRpcErrorObject(body.error) : undefined;
  }
  // google.rpc.Status: an A2A one names a gRPC status or carries details.
  return typeof body.error.status === "string" || Array.isArray(body.error.details)
    ? fromHttpError(status, body)
    : undefined;
}

/** The typed error for a non-2xx response. Consumes (and releases) the body. */
export async function errorFromHttpResponse(response: Response, binding: ProtocolBinding): Promise<Error> {
  const status = response.status;
  const body = await readErrorBody(response);
  const details = { status, body };
  const message = `${response.url || "agent"} answered HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""}`;
  // Authentication and rate limits come from whatever stands in front of the agent, unless the agent says so itself.
  const inBody = a2aErrorInBody(binding, status, body);
  const a2a = isGatekeeperStatus(status) && inBody?.spec?.httpStatus !== status ? undefined : inBody;
  return (
    a2a ??
    errorForHttpStatus(status, message, { details, retryAfter: parseRetryAfter(response.headers.get("retry-after")) })
  );
}
