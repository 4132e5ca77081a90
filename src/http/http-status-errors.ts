/**
 * The SDK's error for a non-2xx HTTP answer, decided by the status alone:
 * 401/403 authentication, 429 rate limit, 404 not found, 5xx server error,
 * any other 4xx validation. The A2A client and the platform clients share it;
 * each adds what it knows (an A2A error in the body, which class a 404 is).
 */
import {
  NovaOSAgentNotFoundError,
  NovaOSAuthenticationError,
  type NovaOSError,
  type NovaOSErrorOptions,
  NovaOSRateLimitError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../errors/novaos-errors.js";

/** `Retry-After` in seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Whether the status is answered by whatever stands in front of a service (a gateway, a proxy), not the service. */
export function isGatekeeperStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 429;
}

export interface HttpStatusErrorOptions {
  readonly details: NovaOSErrorOptions["details"];
  /** From the response's `Retry-After`, for 429 and 5xx. */
  readonly retryAfter?: number | undefined;
  /** The class for a 404; default NovaOSAgentNotFoundError. */
  readonly notFound?: ((message: string, options: NovaOSErrorOptions) => NovaOSError) | undefined;
}

export function errorForHttpStatus(status: number, message: string, options: HttpStatusErrorOptions): NovaOSError {
  const base: NovaOSErrorOptions = { code: status, details: options.details };
  if (status === 401 || status === 403) return new NovaOSAuthenticationError(message, base);
  if (status === 429) return new NovaOSRateLimitError(message, { ...base, retryAfter: options.retryAfter });
  if (status === 404)
    return options.notFound ? options.notFound(message, base) : new NovaOSAgentNotFoundError(message, base);
  if (status >= 500) {
    return new NovaOSServerError(message, { ...base, statusCode: status, retryAfter: options.retryAfter });
  }
  return new NovaOSValidationError(message, base);
}
