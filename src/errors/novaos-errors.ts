/**
 * The SDK's error hierarchy (the reference's `exceptions` module): one root,
 * `NovaOSError`, catches everything the SDK throws. The A2A protocol subtree
 * is not restated here: `A2AProtocolError` and its nine classes are the
 * protocol layer's classes (src/a2a/errors.ts), and the five JSON-RPC standard
 * errors are seen as `NovaOSValidationError` / `NovaOSServerError`. Brands make
 * that one set of classes answer `instanceof` for both views.
 *
 * Every class takes `(message?, options?)`; subclass extras are options.
 */
import { hasBrand, stampBrands } from "../a2a/error-brand.js";

export interface NovaOSErrorOptions {
  /** Seconds after which a retry may succeed. */
  retryAfter?: number;
  /** Free-form structured context. */
  details?: Record<string, unknown>;
  /** A numeric code when the error came with one (JSON-RPC code, HTTP status). */
  code?: number;
  cause?: unknown;
}

/** The root of every error the SDK throws. */
export class NovaOSError extends Error {
  static readonly brand: string = "NovaOSError";
  /** Every A2A wire error is a NovaOSError too. */
  static readonly matches: readonly string[] = ["A2AError"];

  readonly retryAfter: number | undefined;
  readonly details: Readonly<Record<string, unknown>>;
  readonly code: number | undefined;

  constructor(message?: string, options: NovaOSErrorOptions = {}) {
    super(message ?? "NovaOS error", options.cause === undefined ? undefined : { cause: options.cause });
    this.name = (new.target as typeof NovaOSError).brand;
    this.retryAfter = options.retryAfter;
    this.details = options.details ?? {};
    this.code = options.code;
    stampBrands(this, new.target);
  }

  /** Whether the same call may succeed later. Subclasses refine the value, never the type. */
  get isRetryable(): boolean {
    return false;
  }

  /** `this` is whichever class is on the right of `instanceof`. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is whichever subclass is on the right of instanceof.
    return hasBrand(this as typeof NovaOSError, value);
  }
}

/** A NovaOS service or agent could not be reached (connect failure, dropped connection, timeout). */
export class NovaOSConnectionError extends NovaOSError {
  static override readonly brand: string = "NovaOSConnectionError";
  override get isRetryable(): boolean {
    return true;
  }
}

/** Authentication failed (HTTP 401, an origin refused), or the caller may not make the call (403). */
export class NovaOSAuthenticationError extends NovaOSError {
  static override readonly brand: string = "NovaOSAuthenticationError";
  /** An agent's own refusals (the A2A wire errors of §3.3.2) are authentication errors too. */
  static override readonly matches: readonly string[] = ["UnauthenticatedError", "PermissionDeniedError"];
}

/** The pod runs outside the auth-proxy: no execution token was injected and none was configured. */
export class MissingExecutionTokenError extends NovaOSAuthenticationError {
  static override readonly brand: string = "MissingExecutionTokenError";
  static readonly DEFAULT_MESSAGE =
    "No execution token: the agent is running outside the auth-proxy, so no X-NovaOS-Execution-Token header was " +
    "injected. Set the environment variable NOVAOS_EXECUTION_TOKEN or pass an explicit token.";
  constructor(message: string = MissingExecutionTokenError.DEFAULT_MESSAGE, options: NovaOSErrorOptions = {}) {
    super(message, options);
  }
}

/** An agent was not found: its URL answers 404, its card is not at the well-known path, or a skill is not advertised. */
export class NovaOSAgentNotFoundError extends NovaOSError {
  static override readonly brand: string = "NovaOSAgentNotFoundError";
  readonly agentName: string | undefined;
  constructor(message?: string, options: NovaOSErrorOptions & { agentName?: string } = {}) {
    super(message, options);
    this.agentName = options.agentName;
  }
}

/** The request is invalid (other 4xx; the JSON-RPC standard codes -32700, -32600, -32601, -32602). */
export class NovaOSValidationError extends NovaOSError {
  static override readonly brand: string = "NovaOSValidationError";
  static override readonly matches: readonly string[] = [
    "JSONParseError",
    "InvalidRequestError",
    "MethodNotFoundError",
    "InvalidParamsError",
  ];
  readonly field: string | undefined;
  readonly reason: string | undefined;
  constructor(message?: string, options: NovaOSErrorOptions & { field?: string; reason?: string } = {}) {
    super(message, options);
    this.field = options.field;
    this.reason = options.reason;
  }
}

/** HTTP statuses a server answers when a retry may succeed. */
export const RETRYABLE_HTTP_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** The server failed (5xx, JSON-RPC -32603). Retryable for the transient statuses only. */
export class NovaOSServerError extends NovaOSError {
  static override readonly brand: string = "NovaOSServerError";
  static override readonly matches: readonly string[] = ["InternalError"];
  readonly statusCode: number | undefined;
  constructor(message?: string, options: NovaOSErrorOptions & { statusCode?: number } = {}) {
    super(message, options);
    this.statusCode = options.statusCode;
  }
  override get isRetryable(): boolean {
    return this.statusCode !== undefined && RETRYABLE_HTTP_STATUSES.has(this.statusCode);
  }
}

/** Rate limited (HTTP 429); `retryAfter` says when to try again. */
export class NovaOSRateLimitError extends NovaOSError {
  static override readonly brand: string = "NovaOSRateLimitError";
  override get isRetryable(): boolean {
    return true;
  }
}

/** Base of the Agent DNS errors. */
export class NovaOSDNSError extends NovaOSError {
  static override readonly brand: string = "NovaOSDNSError";
}

/** Agent DNS could not be reached, timed out, or answered 5xx. */
export class NovaOSDNSConnectionError extends NovaOSDNSError {
  static override readonly brand: string = "NovaOSDNSConnectionError";
  override get isRetryable(): boolean {
    return true;
  }
}

/** Agent DNS has no such agent. Not a NovaOSAgentNotFoundError: the agent may exist, DNS does not list it. */
export class NovaOSDNSAgentNotFoundError extends NovaOSDNSError {
  static override readonly brand: string = "NovaOSDNSAgentNotFoundError";
  readonly agentName: string | undefined;
  constructor(message?: string, options: NovaOSErrorOptions & { agentName?: string } = {}) {
    super(message, options);
    this.agentName = options.agentName;
  }
}

/** Agent DNS rate-limited the call (429); `retryAfter` comes from `Retry-After`. */
export class NovaOSDNSRateLimitError extends NovaOSDNSError {
  static override readonly brand: string = "NovaOSDNSRateLimitError";
  override get isRetryable(): boolean {
    return true;
  }
}

/** Agent card signature verification failed (only when the caller asked for verification). */
export class AgentCardSignatureError extends NovaOSError {
  static override readonly brand: string = "AgentCardSignatureError";
}

/** The card has signatures and none verifies (tampered, unknown key, disallowed algorithm). */
export class InvalidAgentCardSignatureError extends AgentCardSignatureError {
  static override readonly brand: string = "InvalidAgentCardSignatureError";
}

/** Verification was requested but the card carries no signature. */
export class NoAgentCardSignatureError extends AgentCardSignatureError {
  static override readonly brand: string = "NoAgentCardSignatureError";
}

/** A sealed secret envelope failed. Never retryable; never carries plaintext, keys or ciphertext. */
export class SealedEnvelopeError extends NovaOSError {
  static override readonly brand: string = "SealedEnvelopeError";
}

/** The pod holds no private key for the envelope's kid (rotated out, revoked, or the volume is not mounted). */
export class RecipientKeyUnavailableError extends SealedEnvelopeError {
  static override readonly brand: string = "RecipientKeyUnavailableError";
}

/** The envelope is malformed, or its version or suite is not supported. */
export class SealedEnvelopeFormatError extends SealedEnvelopeError {
  static override readonly brand: string = "SealedEnvelopeFormatError";
}

/** A skill asked for a secret the request did not carry; `details.delivered` names what was delivered. */
export class SecretNotDeliveredError extends NovaOSError {
  static override readonly brand: string = "SecretNotDeliveredError";
}
