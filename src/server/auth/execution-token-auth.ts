/**
 * `executionToken`: the caller presents the NovaOS execution token the
 * gateway minted for its run, as `Authorization: Bearer <token>` or (as the
 * auth-proxy forwards it) `X-NovaOS-Execution-Token`. The agent verifies it
 * itself (a `JwksTokenVerifier`), so it needs no proxy in front: tenant, user,
 * run, agent and instance come from the verified claims, and pod headers
 * that say otherwise are refused rather than believed.
 */
import { PermissionDeniedError } from "../../a2a/errors.js";
import { type HeadersLike, headerValue } from "../../a2a/headers.js";
import { NOVAOS_CONTEXT_HEADERS } from "../../runtime/execution-context.js";
import { InvalidTokenError } from "../../security/token-errors.js";
import type { ExecutionTokenClaims } from "../../security/token-verifier.js";
import {
  type Authenticator,
  type AuthRequest,
  anyOf,
  bearerToken,
  challengeFor,
  type SecurityRequirementInit,
  type SecuritySchemeInit,
  unauthenticated,
} from "./authenticator.js";
import { CallerIdentity } from "./caller-identity.js";

/** What verifies a token: `JwksTokenVerifier`, or anything that answers as it does. */
export interface ExecutionTokenVerifier {
  /** The claims of a valid token; throws `InvalidTokenError` (with a reason) for any other. */
  verify(token: string): Promise<ExecutionTokenClaims>;
}

export interface ExecutionTokenAuthOptions {
  readonly mode: "executionToken";
  /** E.g. `new JwksTokenVerifier({ gatewayUrl, issuer })`, made once per process (it caches the keys). */
  readonly verifier: ExecutionTokenVerifier;
  /** When set, a token minted for another agent (its `agent_id`) is refused. */
  readonly agentId?: string;
}

/** The scheme the card declares: the execution token as a bearer JWT. */
export const EXECUTION_TOKEN_SCHEMES: Readonly<Record<string, SecuritySchemeInit>> = {
  executionToken: {
    scheme: {
      case: "httpAuthSecurityScheme",
      value: {
        scheme: "Bearer",
        bearerFormat: "JWT",
        description: "The NovaOS execution token of the calling run (RS256, verified against the gateway's JWKS)",
      },
    },
  },
};

/** Each pod header and the claim it must agree with. */
const HEADER_CLAIMS = [
  [NOVAOS_CONTEXT_HEADERS.tenantId, "tenant_id"],
  [NOVAOS_CONTEXT_HEADERS.userId, "user_id"],
  [NOVAOS_CONTEXT_HEADERS.runId, "run_id"],
  [NOVAOS_CONTEXT_HEADERS.agentId, "agent_id"],
  [NOVAOS_CONTEXT_HEADERS.instanceId, "instance_id"],
] as const;

export class ExecutionTokenAuthenticator implements Authenticator {
  readonly securitySchemes = EXECUTION_TOKEN_SCHEMES;
  readonly securityRequirements: readonly SecurityRequirementInit[] = anyOf(EXECUTION_TOKEN_SCHEMES);
  readonly challenge: string;
  readonly #realm: string;
  readonly #verifier: ExecutionTokenVerifier;
  readonly #agentId: string | undefined;

  constructor(options: ExecutionTokenAuthOptions, realm: string) {
    if (typeof options.verifier?.verify !== "function") {
      throw new TypeError('auth { mode: "executionToken" } needs a verifier, e.g. new JwksTokenVerifier(...)');
    }
    this.#verifier = options.verifier;
    this.#agentId = options.agentId;
    this.#realm = realm;
    this.challenge = challengeFor(EXECUTION_TOKEN_SCHEMES, realm);
  }

  async authenticate(request: AuthRequest): Promise<CallerIdentity> {
    const token = this.#tokenOf(request.headers);
    let claims: ExecutionTokenClaims;
    try {
      claims = await this.#verifier.verify(token);
    } catch (error) {
      // A gateway whose keys cannot be fetched is an outage, not the caller's fault: logged, answered as internal.
      if (!(error instanceof InvalidTokenError) || error.reason === "jwks-unavailable") throw error;
      throw this.#invalid(`The execution token was refused (${error.reason})`, error);
    }
    if (this.#agentId !== undefined && claims.agent_id !== this.#agentId) {
      throw this.#invalid("The execution token was issued for another agent");
    }
    for (const [header, claim] of HEADER_CLAIMS) {
      const said = headerValue(request.headers, header)?.trim();
      if (said && said !== claims[claim]) {
        throw new PermissionDeniedError(`The ${header} header does not match the execution token`);
      }
    }
    return new CallerIdentity("executionToken", {
      tenantId: claims.tenant_id,
      userId: claims.user_id,
      runId: claims.run_id,
      agentId: claims.agent_id,
      instanceId: claims.instance_id,
      scopes: Array.isArray(claims.scopes) ? claims.scopes.filter((s) => typeof s === "string") : [],
      claims,
      token,
    });
  }

  /** The one token of the call: the bearer one or the forwarded one, which must not differ. */
  #tokenOf(headers: HeadersLike): string {
    const bearer = bearerToken(headers);
    const forwarded = headerValue(headers, NOVAOS_CONTEXT_HEADERS.executionToken)?.trim() || undefined;
    if (bearer !== undefined && forwarded !== undefined && bearer !== forwarded) {
      throw this.#invalid(`Authorization and ${NOVAOS_CONTEXT_HEADERS.executionToken} carry different tokens`);
    }
    const token = bearer ?? forwarded;
    if (token === undefined) {
      throw unauthenticated("This agent requires a NovaOS execution token (Authorization: Bearer)", this.challenge);
    }
    return token;
  }

  /** RFC 6750 §3.1: a token was presented and refused. */
  #invalid(message: string, cause?: unknown) {
    const params = { error: "invalid_token", error_description: message };
    return unauthenticated(message, challengeFor(EXECUTION_TOKEN_SCHEMES, this.#realm, params), cause);
  }
}
