/**
 * `apiKey`: the caller presents a key in a header (`X-API-Key` unless told
 * otherwise), and the agent knows who each key stands for — a fixed list, or
 * a lookup of its own. Listed keys are held as SHA-256 digests and looked up
 * by the digest of the key presented, so the lookup's timing says nothing
 * about the keys.
 */
import { type HeadersLike, headerValue } from "../../a2a/headers.js";
import { DEFAULT_API_KEY_HEADER } from "../../http/auth.js";
import {
  type Authenticator,
  type AuthRequest,
  anyOf,
  type CallerCheck,
  challengeFor,
  checkedCaller,
  type SecurityRequirementInit,
  type SecuritySchemeInit,
  unauthenticated,
} from "./authenticator.js";
import type { CallerIdentity, CallerIdentityInit } from "./caller-identity.js";

/** Who a key stands for, or undefined for a key the agent does not accept. */
export type ApiKeyLookup = (
  key: string,
  request: AuthRequest,
) => CallerIdentityInit | undefined | Promise<CallerIdentityInit | undefined>;

export interface ApiKeyAuthOptions {
  readonly mode: "apiKey";
  /**
   * The accepted keys and the caller each stands for, or a lookup (throw
   * `PermissionDeniedError` from it to answer 403; anything else thrown
   * refuses the key).
   */
  readonly keys: Readonly<Record<string, CallerIdentityInit>> | ReadonlyMap<string, CallerIdentityInit> | ApiKeyLookup;
  /** The header the key travels in. Default `X-API-Key`. */
  readonly headerName?: string;
  /** The card's description of the scheme. */
  readonly description?: string;
}

/** A key's SHA-256, base64: what a listed key is held and looked up as. */
async function digest(key: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return Buffer.from(hash).toString("base64");
}

/** A lookup over a fixed list, by digest; an empty key is refused when the list is made. */
function listedKeys(
  keys: Readonly<Record<string, CallerIdentityInit>> | ReadonlyMap<string, CallerIdentityInit>,
): ApiKeyLookup {
  const listed = [...(keys instanceof Map ? keys : Object.entries(keys))] as [string, CallerIdentityInit][];
  if (listed.some(([key]) => !key)) throw new TypeError('auth { mode: "apiKey" }: an API key cannot be empty');
  const byDigest = Promise.all(listed.map(async ([key, caller]) => [await digest(key), caller] as const)).then(
    (entries) => new Map(entries),
  );
  return async (key) => (await byDigest).get(await digest(key));
}

export class ApiKeyAuthenticator implements Authenticator {
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeInit>>;
  readonly securityRequirements: readonly SecurityRequirementInit[];
  readonly challenge: string;
  readonly headerName: string;
  readonly #lookup: ApiKeyLookup;

  constructor(options: ApiKeyAuthOptions, realm: string) {
    this.headerName = options.headerName ?? DEFAULT_API_KEY_HEADER;
    this.#lookup = typeof options.keys === "function" ? options.keys : listedKeys(options.keys);
    this.securitySchemes = {
      apiKey: {
        scheme: {
          case: "apiKeySecurityScheme",
          value: { location: "header", name: this.headerName, description: options.description ?? "" },
        },
      },
    };
    this.securityRequirements = anyOf(this.securitySchemes);
    this.challenge = challengeFor(this.securitySchemes, realm);
  }

  authenticate(request: AuthRequest): Promise<CallerIdentity> {
    const key = this.#keyOf(request.headers);
    if (key === undefined) {
      return Promise.reject(unauthenticated(`This agent requires an API key (${this.headerName})`, this.challenge));
    }
    const check: CallerCheck = () => this.#lookup(key, request);
    return checkedCaller("apiKey", check, (cause) => unauthenticated("The API key was refused", this.challenge, cause));
  }

  #keyOf(headers: HeadersLike): string | undefined {
    return headerValue(headers, this.headerName)?.trim() || undefined;
  }
}
