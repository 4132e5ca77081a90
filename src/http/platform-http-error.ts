/**
 * Non-2xx answers of the NovaOS platform's REST services (Execution Gateway,
 * the card endpoint) as the SDK's typed errors. Platform error bodies are
 * `{error, message?}` (docs/decisions.md O3); the status decides the class:
 * 401/403 authentication, 429 rate limit with `Retry-After`, 404 not found
 * (the caller says which class fits what was not found), 5xx server error
 * (retryable for 502/503/504), any other 4xx validation.
 */

import { type NovaOSError, type NovaOSErrorOptions, NovaOSServerError } from "../errors/novaos-errors.js";
import { errorForHttpStatus, parseRetryAfter } from "./http-status-errors.js";

export interface PlatformErrorContext {
  /** What was called, for the message: `"Execution Gateway POST /api/v1/execute"`. */
  operation: string;
  /** The class for a 404; default NovaOSAgentNotFoundError. */
  notFound?: ((message: string, options: NovaOSErrorOptions) => NovaOSError) | undefined;
  /**
   * 4xx statuses that are the service's decision about what was asked (a
   * stale version, a taken slot), reported as NovaOSServerError with the
   * status in `statusCode`, never retried.
   */
  decisions?: ReadonlySet<number> | undefined;
}

/** The `message` (else `error`) of a platform error body, or a bounded text body. */
function bodyMessage(body: unknown): string | undefined {
  if (typeof body === "string") return body.trim() === "" ? undefined : body.slice(0, 512);
  if (typeof body !== "object" || body === null) return undefined;
  const { message, error } = body as { message?: unknown; error?: unknown };
  if (typeof message === "string" && message !== "") return message;
  return typeof error === "string" && error !== "" ? error : undefined;
}

/**
 * `"<operation> answered HTTP <status>: <the body's message>"`: the message of
 * every platform HTTP error, whichever error family the service maps it to
 * (Agent DNS has its own).
 */
export function platformHttpErrorMessage(operation: string, status: number, body: unknown): string {
  const detail = bodyMessage(body);
  return `${operation} answered HTTP ${status}${detail ? `: ${detail}` : ""}`;
}

/** The typed error for a platform response with status `response.status` and parsed error `body`. */
export function platformHttpError(response: Response, body: unknown, context: PlatformErrorContext): NovaOSError {
  const status = response.status;
  const message = platformHttpErrorMessage(context.operation, status, body);
  if (context.decisions?.has(status)) {
    return new NovaOSServerError(message, { code: status, statusCode: status, details: { status, body } });
  }
  return errorForHttpStatus(status, message, {
    details: { status, body },
    retryAfter: parseRetryAfter(response.headers.get("retry-after")),
    notFound: context.notFound,
  });
}
