/**
 * Chooses a call's credentials from the agent card's security requirements
 * (spec §4.5): the requirements of the skill being called when it declares
 * some, else the card's own. Requirements are alternatives; the schemes
 * inside one are all needed. The first requirement whose every scheme gets a
 * credential from the CredentialService wins; otherwise — no service, no
 * card, nothing for any requirement — the fallback `auth` provider answers.
 *
 * Formatting a bare credential: HTTP `bearer`, OAuth 2 and OpenID Connect
 * give `Authorization: Bearer <credential>`; other HTTP schemes
 * `Authorization: <scheme> <credential>`; an API key `<name>: <credential>`
 * when it lives in a header. API keys in a query or cookie and mutual TLS
 * cannot be expressed as headers and never match.
 */
import type { AgentCard, SecurityRequirement, SecurityScheme } from "../../gen/a2a_pb.js";
import type { AuthProvider } from "../http/auth.js";
import type { Credential, CredentialService } from "./credential-service.js";
import type { BeforeArgs, ClientCallContext, ClientCallInterceptor } from "./interceptors.js";
import { SKILL_ID_METADATA_KEY } from "./message-input.js";

export interface AuthInterceptorOptions {
  credentialService?: CredentialService;
  /** Used when the service has nothing for the call. */
  auth?: AuthProvider;
}

/** The header(s) a credential for `scheme` travels in, or undefined when it cannot travel in one. */
export function formatCredential(scheme: SecurityScheme, credential: Credential): Record<string, string> | undefined {
  if (typeof credential !== "string") return { ...credential };
  const { case: kind, value } = scheme.scheme;
  switch (kind) {
    case "httpAuthSecurityScheme":
      return value.scheme.toLowerCase() === "bearer"
        ? { Authorization: `Bearer ${credential}` }
        : { Authorization: `${value.scheme} ${credential}` };
    case "oauth2SecurityScheme":
    case "openIdConnectSecurityScheme":
      return { Authorization: `Bearer ${credential}` };
    case "apiKeySecurityScheme":
      return value.location.toLowerCase() === "header" && value.name ? { [value.name]: credential } : undefined;
    default:
      return undefined;
  }
}

/** The skill a message-sending call names, if the card lists it. */
function skillRequirements(card: AgentCard, args: BeforeArgs): readonly SecurityRequirement[] {
  if (args.method !== "SendMessage" && args.method !== "SendStreamingMessage") return [];
  const skillId = args.request.message?.metadata?.[SKILL_ID_METADATA_KEY];
  const skill = typeof skillId === "string" ? card.skills.find((s) => s.id === skillId) : undefined;
  return skill?.securityRequirements ?? [];
}

export class AuthInterceptor implements ClientCallInterceptor {
  readonly #service: CredentialService | undefined;
  readonly #auth: AuthProvider | undefined;

  constructor(options: AuthInterceptorOptions = {}) {
    this.#service = options.credentialService;
    this.#auth = options.auth;
  }

  async before(args: BeforeArgs): Promise<void> {
    const headers = (await this.#fromService(args)) ?? (await this.#auth?.headers());
    for (const [name, value] of Object.entries(headers ?? {})) args.headers.set(name, value);
  }

  async #fromService(args: BeforeArgs): Promise<Record<string, string> | undefined> {
    const service = this.#service;
    if (!service) return undefined;
    const card = args.agentCard;
    if (!card) {
      // With no scheme to format it by, only ready headers can be used.
      const credential = await service.getCredentials("", args.context);
      return credential !== undefined && typeof credential !== "string" ? { ...credential } : undefined;
    }
    const skill = skillRequirements(card, args);
    for (const requirement of skill.length > 0 ? skill : card.securityRequirements) {
      const headers = await this.#satisfy(service, card, requirement, args.context);
      if (headers) return headers;
    }
    return undefined;
  }

  /** Headers for every scheme of `requirement`, or undefined when one of them gets none. */
  async #satisfy(
    service: CredentialService,
    card: AgentCard,
    requirement: SecurityRequirement,
    context: ClientCallContext,
  ): Promise<Record<string, string> | undefined> {
    const names = Object.keys(requirement.schemes);
    if (names.length === 0) return undefined;
    const headers: Record<string, string> = {};
    for (const name of names) {
      const scheme = card.securitySchemes[name];
      if (!scheme) return undefined;
      const credential = await service.getCredentials(name, context);
      const formatted = credential === undefined ? undefined : formatCredential(scheme, credential);
      if (!formatted) return undefined;
      Object.assign(headers, formatted);
    }
    return headers;
  }
}
