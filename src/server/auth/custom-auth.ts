/**
 * `custom`: the agent's own authentication — mutual TLS terminated in front,
 * a signature over the request, several schemes at once. It reads the call
 * and answers who is calling; it also declares the schemes it checks, which
 * the card then advertises.
 */
import {
  type Authenticator,
  type AuthRequest,
  anyOf,
  challengeFor,
  checkedCaller,
  type SecurityRequirementInit,
  type SecuritySchemeInit,
  unauthenticated,
} from "./authenticator.js";
import type { CallerIdentity, CallerIdentityInit } from "./caller-identity.js";

export interface CustomAuthOptions {
  readonly mode: "custom";
  /**
   * Who is calling, or undefined to refuse the call (401). Throw
   * `PermissionDeniedError` to answer 403; anything else thrown refuses the
   * call as undefined does.
   */
  authenticate(request: AuthRequest): CallerIdentityInit | undefined | Promise<CallerIdentityInit | undefined>;
  /** The card's `securitySchemes`: what `authenticate` checks (at least one). */
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeInit>>;
  /** The card's `securityRequirements`. Default: any one of the schemes. */
  readonly securityRequirements?: readonly SecurityRequirementInit[];
  /** The `WWW-Authenticate` challenge of a refusal. Default: from the first scheme. */
  readonly challenge?: string;
}

export class CustomAuthenticator implements Authenticator {
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeInit>>;
  readonly securityRequirements: readonly SecurityRequirementInit[];
  readonly challenge: string;
  readonly #options: CustomAuthOptions;

  constructor(options: CustomAuthOptions, realm: string) {
    if (typeof options.authenticate !== "function") {
      throw new TypeError('auth { mode: "custom" } needs an authenticate function');
    }
    if (Object.keys(options.securitySchemes ?? {}).length === 0) {
      throw new TypeError('auth { mode: "custom" } must declare the securitySchemes it checks: the card lists them');
    }
    this.#options = options;
    this.securitySchemes = options.securitySchemes;
    this.securityRequirements = options.securityRequirements ?? anyOf(options.securitySchemes);
    this.challenge = options.challenge ?? challengeFor(options.securitySchemes, realm);
  }

  authenticate(request: AuthRequest): Promise<CallerIdentity> {
    return checkedCaller(
      "custom",
      () => this.#options.authenticate(request),
      (cause) => unauthenticated("The call's credentials were refused", this.challenge, cause),
    );
  }
}
