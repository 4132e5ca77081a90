/**
 * Execution-token verification errors. Both are authentication failures
 * (HTTP 401 to whoever presented the token); neither message carries the token.
 */
import { NovaOSAuthenticationError, type NovaOSErrorOptions } from "../errors/novaos-errors.js";

/** Why a token was refused, for callers that answer differently (e.g. "expired" asks the caller to refresh). */
export type TokenFailureReason =
  | "malformed"
  | "expired"
  | "not-yet-valid"
  | "issuer"
  | "audience"
  | "claims"
  | "algorithm"
  | "signature"
  | "unknown-key"
  | "jwks-unavailable";

/** The token is invalid, expired, or cannot be verified. */
export class InvalidTokenError extends NovaOSAuthenticationError {
  static override readonly brand: string = "InvalidTokenError";
  readonly reason: TokenFailureReason;
  constructor(message: string, options: NovaOSErrorOptions & { reason: TokenFailureReason }) {
    super(message, options);
    this.reason = options.reason;
  }
}

/** The token is not a well-formed JWS compact JWT (reason `malformed`). */
export class TokenDecodeError extends InvalidTokenError {
  static override readonly brand: string = "TokenDecodeError";
  constructor(message: string, options: NovaOSErrorOptions = {}) {
    super(message, { ...options, reason: "malformed" });
  }
}
