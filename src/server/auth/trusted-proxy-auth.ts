/**
 * `trustedProxy`: a proxy in front of the agent authenticates every caller
 * and names it in the NovaOS pod headers (the NovaOS auth-proxy sidecar
 * does, from the execution token). The agent believes them as they come, so
 * choose it only where the deployment guarantees that no call reaches the
 * agent around the proxy. A call that names no tenant and user did not come
 * through such a proxy, and is refused.
 */
import { NOVAOS_CONTEXT_HEADERS } from "../../runtime/execution-context.js";
import {
  type Authenticator,
  type AuthRequest,
  anyOf,
  challengeFor,
  type SecurityRequirementInit,
  type SecuritySchemeInit,
  unauthenticated,
} from "./authenticator.js";
import { CallerIdentity } from "./caller-identity.js";
import { EXECUTION_TOKEN_SCHEMES } from "./execution-token-auth.js";
import { podHeaderCaller } from "./pod-headers.js";

export interface TrustedProxyAuthOptions {
  readonly mode: "trustedProxy";
  /** What the card says the proxy requires. Default: the NovaOS execution token, as `executionToken` declares it. */
  readonly securitySchemes?: Readonly<Record<string, SecuritySchemeInit>>;
  /** Default: any one of the schemes. */
  readonly securityRequirements?: readonly SecurityRequirementInit[];
}

export class TrustedProxyAuthenticator implements Authenticator {
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeInit>>;
  readonly securityRequirements: readonly SecurityRequirementInit[];
  readonly challenge: string;

  constructor(options: TrustedProxyAuthOptions, realm: string) {
    this.securitySchemes = options.securitySchemes ?? EXECUTION_TOKEN_SCHEMES;
    this.securityRequirements = options.securityRequirements ?? anyOf(this.securitySchemes);
    this.challenge = challengeFor(this.securitySchemes, realm);
  }

  authenticate(request: AuthRequest): CallerIdentity {
    const caller = podHeaderCaller(request.headers);
    if (!caller?.tenantId || !caller.userId) {
      throw unauthenticated(
        `The proxy in front of this agent did not say who is calling (${NOVAOS_CONTEXT_HEADERS.tenantId}, ${NOVAOS_CONTEXT_HEADERS.userId})`,
        this.challenge,
      );
    }
    return new CallerIdentity("trustedProxy", caller);
  }
}
