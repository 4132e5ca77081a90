/**
 * The seam every way of authenticating callers fits: an `Authenticator` reads
 * a call's credentials (headers or gRPC metadata, and the peer's address)
 * and answers who the caller is, or refuses the call. It also says what the
 * agent card declares about it (`securitySchemes`, `securityRequirements`),
 * so what the card advertises is what the agent enforces.
 *
 * Every binding (JSON-RPC, HTTP+JSON, gRPC) authenticates a call through the
 * agent's one authenticator before it reads the request (serve-rpc.ts).
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { SecurityRequirementSchema, SecuritySchemeSchema } from "../../../gen/a2a_pb.js";
import type { ProtocolBinding } from "../../a2a/constants.js";
import { PermissionDeniedError, UnauthenticatedError } from "../../a2a/errors.js";
import { type HeadersLike, headerValue } from "../../a2a/headers.js";
import { CallerIdentity, type CallerIdentityInit } from "./caller-identity.js";

export type SecuritySchemeInit = MessageInitShape<typeof SecuritySchemeSchema>;
export type SecurityRequirementInit = MessageInitShape<typeof SecurityRequirementSchema>;

/** What an authenticator sees of a call. */
export interface AuthRequest {
  /** The binding the call arrived on. */
  readonly binding: ProtocolBinding;
  /** Request headers (HTTP) or metadata (gRPC): the credentials. */
  readonly headers: HeadersLike;
  /** The caller's IP address as the socket sees it; undefined where the runtime does not say (Fetch). */
  readonly remoteAddress?: string | undefined;
}

/** One way of authenticating callers, and what the agent card says about it. */
export interface Authenticator {
  /** The card's `securitySchemes`: the schemes this authenticator accepts, by name. */
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeInit>>;
  /** The card's `securityRequirements`: alternatives, each naming the schemes it needs. */
  readonly securityRequirements: readonly SecurityRequirementInit[];
  /**
   * The `WWW-Authenticate` challenge sent with a 401 whose error carries none
   * of its own (`unauthenticated`); "" for an authenticator that never
   * answers 401.
   */
  readonly challenge: string;
  /**
   * The caller of `request`. Refuses with `UnauthenticatedError` (no or bad
   * credentials: 401, UNAUTHENTICATED; see `unauthenticated` for its
   * challenge) or `PermissionDeniedError` (403, PERMISSION_DENIED).
   */
  authenticate(request: AuthRequest): CallerIdentity | Promise<CallerIdentity>;
}

/** One requirement per scheme: any one of them lets a caller in. */
export function anyOf(schemes: Readonly<Record<string, SecuritySchemeInit>>): SecurityRequirementInit[] {
  return Object.keys(schemes).map((name) => ({ schemes: { [name]: { list: [] } } }));
}

/**
 * A refusal of missing or bad credentials, with the `WWW-Authenticate`
 * challenge sent beside it (RFC 9110 §11.6.1; gRPC sends it as response
 * metadata). The challenge rides in `details`, which never goes on the wire.
 */
export function unauthenticated(message: string, challenge: string, cause?: unknown): UnauthenticatedError {
  return new UnauthenticatedError(message, { details: { challenge }, cause });
}

/** The challenge a refusal carries, if it carries one. */
export function challengeOf(error: unknown): string | undefined {
  const challenge = error instanceof UnauthenticatedError ? error.details.challenge : undefined;
  return typeof challenge === "string" ? challenge : undefined;
}

/** `value` as an RFC 9110 quoted-string. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

/**
 * A challenge: `<scheme> realm="<realm>"`, then the given parameters (RFC 6750
 * §3 adds `error="invalid_token"` when a bearer token was presented and refused).
 */
export function challenge(scheme: string, realm: string, params: Readonly<Record<string, string>> = {}): string {
  const rest = Object.entries(params).map(([name, value]) => `, ${name}=${quoted(value)}`);
  return `${scheme} realm=${quoted(realm)}${rest.join("")}`;
}

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case), if there is one. */
export function bearerToken(headers: HeadersLike): string | undefined {
  const value = headerValue(headers, "authorization");
  const match = value === undefined ? null : /^bearer[ \t]+(\S+)[ \t]*$/i.exec(value);
  return match?.[1];
}

/**
 * The challenge of a refusal by an agent that accepts `schemes`, from the
 * first scheme that has one: an HTTP scheme names itself, OAuth 2 and
 * OpenID Connect are `Bearer`, an API key is `ApiKey` with where it goes.
 */
export function challengeFor(
  schemes: Readonly<Record<string, SecuritySchemeInit>>,
  realm: string,
  params: Readonly<Record<string, string>> = {},
): string {
  for (const { scheme } of Object.values(schemes)) {
    switch (scheme?.case) {
      case "httpAuthSecurityScheme":
        return challenge(scheme.value.scheme || "Bearer", realm, params);
      case "oauth2SecurityScheme":
      case "openIdConnectSecurityScheme":
        return challenge("Bearer", realm, params);
      case "apiKeySecurityScheme":
        return challenge("ApiKey", realm, {
          in: scheme.value.location ?? "",
          name: scheme.value.name ?? "",
          ...params,
        });
      default:
        break;
    }
  }
  return challenge("Bearer", realm, params);
}

/** What a check of the agent's own answers: the caller, or undefined to refuse the call. */
export type CallerCheck = () => CallerIdentityInit | undefined | Promise<CallerIdentityInit | undefined>;

/**
 * The caller a check of the agent's own (a token verifier, a key lookup, a
 * custom authenticator) accepted, authenticated by `mode`. Its refusals
 * (`UnauthenticatedError`, `PermissionDeniedError`) are answered as they
 * are; undefined, or anything else it throws, refuses the call with
 * `refusal` (the thrown error as its cause): a check that fails refuses, it
 * never lets a caller in.
 */
export async function checkedCaller(
  mode: string,
  check: CallerCheck,
  refusal: (cause?: unknown) => UnauthenticatedError,
): Promise<CallerIdentity> {
  let caller: CallerIdentityInit | undefined;
  try {
    caller = await check();
  } catch (error) {
    if (error instanceof UnauthenticatedError || error instanceof PermissionDeniedError) throw error;
    throw refusal(error);
  }
  if (!caller) throw refusal();
  return new CallerIdentity(mode, caller);
}
