/**
 * `bearer`: the caller presents `Authorization: Bearer <token>`, and a check
 * of the agent's own says who it stands for — a JWT verified with jose
 * against any issuer, an opaque token looked up in a database. For an agent
 * outside NovaOS that still wants its card's bearer scheme enforced.
 */
import {
  type Authenticator,
  type AuthRequest,
  anyOf,
  bearerToken,
  challengeFor,
  checkedCaller,
  type SecurityRequirementInit,
  type SecuritySchemeInit,
  unauthenticated,
} from "./authenticator.js";
import type { CallerIdentity, CallerIdentityInit } from "./caller-identity.js";

export interface BearerAuthOptions {
  readonly mode: "bearer";
  /**
   * Who `token` stands for, or undefined to refuse it (401). Throw
   * `PermissionDeniedError` to answer 403; anything else thrown refuses the
   * token as undefined does.
   */
  verify(token: string, request: AuthRequest): CallerIdentityInit | undefined | Promise<CallerIdentityInit | undefined>;
  /** The card's hint of the token's format, e.g. `JWT`. */
  readonly bearerFormat?: string;
  /** The card's description of the scheme. */
  readonly description?: string;
}

const REFUSED = "The bearer token was refused";

export class BearerAuthenticator implements Authenticator {
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeInit>>;
  readonly securityRequirements: readonly SecurityRequirementInit[];
  readonly challenge: string;
  readonly #options: BearerAuthOptions;
  /** RFC 6750 §3.1: a token was presented and refused. */
  readonly #refusedChallenge: string;

  constructor(options: BearerAuthOptions, realm: string) {
    if (typeof options.verify !== "function") throw new TypeError('auth { mode: "bearer" } needs a verify function');
    this.#options = options;
    this.securitySchemes = {
      bearer: {
        scheme: {
          case: "httpAuthSecurityScheme",
          value: { scheme: "Bearer", bearerFormat: options.bearerFormat ?? "", description: options.description ?? "" },
        },
      },
    };
    this.securityRequirements = anyOf(this.securitySchemes);
    this.challenge = challengeFor(this.securitySchemes, realm);
    this.#refusedChallenge = challengeFor(this.securitySchemes, realm, {
      error: "invalid_token",
      error_description: REFUSED,
    });
  }

  authenticate(request: AuthRequest): Promise<CallerIdentity> {
    const token = bearerToken(request.headers);
    if (token === undefined) {
      return Promise.reject(
        unauthenticated("This agent requires a bearer token (Authorization: Bearer)", this.challenge),
      );
    }
    return checkedCaller(
      "bearer",
      () => this.#options.verify(token, request),
      (cause) => unauthenticated(REFUSED, this.#refusedChallenge, cause),
    );
  }
}
