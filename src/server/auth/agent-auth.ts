/**
 * `AgentBuilder({ auth })`: how an agent authenticates its callers, one mode
 * for every binding. Each mode is one `Authenticator`; the card's security
 * fields are read from it, so they say what the agent enforces.
 *
 * | mode             | who the caller is                                                 |
 * | ---------------- | ----------------------------------------------------------------- |
 * | `executionToken` | the claims of the NovaOS execution token, verified by the agent   |
 * | `bearer`         | what your `verify(token)` says a bearer token stands for          |
 * | `apiKey`         | what your key list (or lookup) says a key stands for              |
 * | `custom`         | what your `authenticate(request)` says                            |
 * | `trustedProxy`   | the NovaOS pod headers a proxy that authenticated the call set    |
 * | `none`           | nobody: every caller is the same anonymous one                    |
 * | (not set)        | as `trustedProxy`, for callers on this machine only (loopback.ts) |
 */

import { ApiKeyAuthenticator, type ApiKeyAuthOptions } from "./api-key-auth.js";
import type { Authenticator } from "./authenticator.js";
import { BearerAuthenticator, type BearerAuthOptions } from "./bearer-auth.js";
import { ANONYMOUS_CALLER } from "./caller-identity.js";
import { CustomAuthenticator, type CustomAuthOptions } from "./custom-auth.js";
import { ExecutionTokenAuthenticator, type ExecutionTokenAuthOptions } from "./execution-token-auth.js";
import { LoopbackOnlyAuthenticator } from "./loopback-only-auth.js";
import { TrustedProxyAuthenticator, type TrustedProxyAuthOptions } from "./trusted-proxy-auth.js";

export type AgentAuth =
  | "none"
  | "trustedProxy"
  | ExecutionTokenAuthOptions
  | BearerAuthOptions
  | ApiKeyAuthOptions
  | CustomAuthOptions
  | TrustedProxyAuthOptions;

/** `none`: nothing is checked and the card declares nothing. */
const NO_AUTHENTICATION: Authenticator = {
  securitySchemes: {},
  securityRequirements: [],
  challenge: "",
  authenticate: () => ANONYMOUS_CALLER,
};

/** The authenticator of `auth`; `realm` (the agent's name) goes into its challenges. */
export function authenticatorFor(auth: AgentAuth | undefined, realm: string): Authenticator {
  if (auth === undefined) return new LoopbackOnlyAuthenticator();
  if (auth === "none") return NO_AUTHENTICATION;
  if (auth === "trustedProxy") return new TrustedProxyAuthenticator({ mode: "trustedProxy" }, realm);
  switch (auth.mode) {
    case "executionToken":
      return new ExecutionTokenAuthenticator(auth, realm);
    case "bearer":
      return new BearerAuthenticator(auth, realm);
    case "apiKey":
      return new ApiKeyAuthenticator(auth, realm);
    case "custom":
      return new CustomAuthenticator(auth, realm);
    case "trustedProxy":
      return new TrustedProxyAuthenticator(auth, realm);
    default:
      throw new TypeError(`Unknown auth mode ${JSON.stringify((auth as { mode?: unknown }).mode)}`);
  }
}
