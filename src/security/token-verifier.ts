/**
 * Verification of the execution tokens the gateway issues (RS256 JWTs),
 * against the gateway's JWKS. The issuer is required: without it, a validly
 * signed token from an unrelated tenant of the same identity provider would
 * pass.
 */
import {
  createRemoteJWKSet,
  customFetch,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  jwtVerify,
} from "jose";
import { validateHostAllowed } from "../runtime/config.js";
import { InvalidTokenError, TokenDecodeError, type TokenFailureReason } from "./token-errors.js";

/** Where the gateway publishes its signing keys, relative to its base URL. */
export const GATEWAY_JWKS_PATH = "/.well-known/jwks.json";
/** The audience of execution tokens unless configured otherwise. */
export const DEFAULT_TOKEN_AUDIENCE = "acp-agent";
export const DEFAULT_JWKS_CACHE_TTL_SECONDS = 300;
/** Accepted clock skew between the gateway and this pod for `exp`, `nbf` and `iat`. */
export const TOKEN_CLOCK_TOLERANCE_SECONDS = 30;
/** The only algorithm execution tokens are signed with. */
export const EXECUTION_TOKEN_ALGORITHMS: readonly string[] = ["RS256"];
/** Claims every execution token must carry as non-empty strings. */
export const REQUIRED_EXECUTION_CLAIMS = ["user_id", "tenant_id", "run_id", "instance_id"] as const;

/** The claims of a verified execution token. */
export interface ExecutionTokenClaims extends JWTPayload {
  user_id: string;
  tenant_id: string;
  run_id: string;
  instance_id: string;
  agent_id?: string;
  agent_name?: string;
  scopes?: string[];
}

export interface JwksTokenVerifierOptions {
  /** The execution gateway's base URL (e.g. `GATEWAY_URL`); the JWKS is at `{gatewayUrl}/.well-known/jwks.json`. */
  gatewayUrl: string;
  /** The `iss` tokens must carry (e.g. `NOVAOS_TOKEN_ISSUER`). Required, no default. */
  issuer: string;
  /** The `aud` tokens must carry; `acp-agent` by default. */
  audience?: string;
  /** How long the JWKS is reused, in seconds; 300 by default. */
  cacheTtlSeconds?: number;
  /** Hostname suffixes `gatewayUrl` must match; `NOVAOS_ALLOWED_HOSTS` when omitted. */
  allowedHosts?: readonly string[];
  /** The fetch used for the JWKS; the global fetch by default. */
  fetch?: typeof fetch;
}

/**
 * Verifies execution tokens. Construct once per process: it caches the JWKS
 * for `cacheTtlSeconds`, and refetches on an unknown `kid` (a key rotation) at
 * most once per 30 s, so a flood of forged kids cannot turn into a flood of
 * requests to the gateway. The gateway host is checked against the allowlist
 * in the constructor, before any request.
 */
export class JwksTokenVerifier {
  readonly jwksUrl: string;
  readonly issuer: string;
  readonly audience: string;
  readonly #keys: ReturnType<typeof createRemoteJWKSet>;

  constructor(options: JwksTokenVerifierOptions) {
    if (typeof options.issuer !== "string" || options.issuer.trim() === "") {
      throw new TypeError("JwksTokenVerifier needs the issuer its gateway issues tokens for (no default)");
    }
    validateHostAllowed(options.gatewayUrl, options.allowedHosts);
    const base = new URL(options.gatewayUrl);
    base.pathname = `${base.pathname.replace(/\/+$/, "")}${GATEWAY_JWKS_PATH}`;
    base.search = "";
    base.hash = "";
    this.jwksUrl = base.href;
    this.issuer = options.issuer;
    this.audience = options.audience ?? DEFAULT_TOKEN_AUDIENCE;
    const ttl = options.cacheTtlSeconds ?? DEFAULT_JWKS_CACHE_TTL_SECONDS;
    if (!(ttl > 0)) throw new RangeError(`cacheTtlSeconds must be positive, got ${ttl}`);
    const fetchImpl = options.fetch;
    this.#keys = createRemoteJWKSet(base, {
      cacheMaxAge: ttl * 1000,
      ...(fetchImpl ? { [customFetch]: (url: string, init: RequestInit) => fetchImpl(url, init) } : {}),
    });
  }

  /**
   * The claims of `token` (a compact JWT; a leading `Bearer ` is tolerated).
   * Throws `TokenDecodeError` for a malformed token and `InvalidTokenError`
   * (with a `reason`) for one that is expired, for another issuer or
   * audience, badly signed, signed by an unknown key or algorithm, or that
   * cannot be checked because the JWKS is unreachable.
   */
  async verify(token: string): Promise<ExecutionTokenClaims> {
    const compact = typeof token === "string" ? token.replace(/^bearer\s+/i, "").trim() : "";
    if (compact.split(".").length !== 3) throw new TokenDecodeError("The execution token is not a compact JWT");
    try {
      // Structure first, so a malformed token is told apart from a badly signed one whatever its kid.
      decodeProtectedHeader(compact);
      decodeJwt(compact);
    } catch (cause) {
      throw new TokenDecodeError("The execution token is malformed", { cause });
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(compact, this.#keys, {
        algorithms: [...EXECUTION_TOKEN_ALGORITHMS],
        issuer: this.issuer,
        audience: this.audience,
        clockTolerance: TOKEN_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ["exp"],
      }));
    } catch (error) {
      throw tokenError(error);
    }
    const missing = REQUIRED_EXECUTION_CLAIMS.filter((claim) => typeof payload[claim] !== "string" || !payload[claim]);
    if (missing.length > 0) {
      throw new InvalidTokenError(`The execution token lacks required claims: ${missing.join(", ")}`, {
        reason: "claims",
      });
    }
    return payload as ExecutionTokenClaims;
  }
}

/** The SDK error for a jose failure. Messages name the failed check, never the token. */
function tokenError(error: unknown): InvalidTokenError {
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return new TokenDecodeError("The execution token is malformed", { cause: error });
  }
  const reason = failureReason(error);
  return new InvalidTokenError(`The execution token was refused (${reason})`, { reason, cause: error });
}

function failureReason(error: unknown): TokenFailureReason {
  if (error instanceof errors.JWTExpired) return "expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "issuer";
    if (error.claim === "aud") return "audience";
    if (error.claim === "nbf" || error.claim === "iat") return "not-yet-valid";
    return "claims";
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return "algorithm";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "signature";
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return "unknown-key";
  }
  return "jwks-unavailable";
}
