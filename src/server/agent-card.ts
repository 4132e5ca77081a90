/**
 * The agent card an AgentBuilder describes, and the route that serves it.
 *
 * Everything the builder knows is derived, never restated: skills under the
 * ids they are routed by, `capabilities.streaming` / `pushNotifications` /
 * `extendedAgentCard` from how the builder was constructed, the declared
 * extensions from its registry, `securitySchemes` and `securityRequirements`
 * from its auth mode. What only the publisher knows (description, provider,
 * the reachable interfaces) is passed in. NovaOS pods
 * are published by the platform's gateway; the adapters still serve the card
 * at `/.well-known/agent-card.json` so an agent run locally is discoverable
 * by any A2A client (see docs/decisions.md).
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import {
  AgentCapabilitiesSchema,
  type AgentCard,
  AgentCardSchema,
  type AgentExtension,
  AgentInterfaceSchema,
  type AgentSkill,
} from "../../gen/a2a_pb.js";
import { AGENT_CARD_PATH, JSON_MEDIA_TYPE, PROTOCOL_BINDING_JSONRPC } from "../a2a/constants.js";
import { headerValue } from "../a2a/headers.js";
import { encodeMessage } from "../a2a/protojson.js";
import { A2A_PROTOCOL_VERSION } from "../a2a/version.js";
import type { Logger } from "../runtime/logger.js";
import type { AgentAuth } from "./auth/agent-auth.js";
import type { Authenticator } from "./auth/authenticator.js";
import type { HttpBinding, HttpReply, HttpRequestLike } from "./http-exchange.js";

type CardInit = MessageInitShape<typeof AgentCardSchema>;
export type InterfaceInit = MessageInitShape<typeof AgentInterfaceSchema>;

/** What the publisher adds to the card. Interfaces default to JSON-RPC and protocol version 1.0. */
export interface AgentCardOptions
  extends Pick<
    CardInit,
    | "description"
    | "provider"
    | "documentationUrl"
    | "iconUrl"
    | "securitySchemes"
    | "securityRequirements"
    | "defaultInputModes"
    | "defaultOutputModes"
    | "signatures"
  > {
  supportedInterfaces?: readonly InterfaceInit[];
}

/** What the builder contributes. */
export interface AgentCardFacts {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly skills: readonly AgentSkill[];
  readonly extensions: readonly AgentExtension[];
  readonly streaming: boolean;
  readonly pushNotifications: boolean;
  readonly extendedAgentCard: boolean;
  readonly defaultInputModes: readonly string[];
  readonly defaultOutputModes: readonly string[];
  /** What the auth mode enforces; undefined when none was chosen (the publisher may then say). */
  readonly security: Pick<Authenticator, "securitySchemes" | "securityRequirements"> | undefined;
}

/** With an auth mode chosen, the card's security is the mode's: options that restate it are refused. */
export function checkCardSecurityOptions(options: AgentCardOptions, auth: AgentAuth | undefined): void {
  if (auth === undefined || (options.securitySchemes === undefined && options.securityRequirements === undefined)) {
    return;
  }
  throw new TypeError(
    "The card's securitySchemes and securityRequirements follow from AgentBuilder({ auth }): they cannot be set on the card as well",
  );
}

export function buildAgentCard(facts: AgentCardFacts, options: AgentCardOptions = {}): AgentCard {
  const { supportedInterfaces = [], ...rest } = options;
  return create(AgentCardSchema, {
    ...rest,
    ...(facts.security && {
      securitySchemes: { ...facts.security.securitySchemes },
      securityRequirements: [...facts.security.securityRequirements],
    }),
    name: facts.name,
    version: facts.version,
    description: options.description ?? facts.description,
    supportedInterfaces: supportedInterfaces.map((i) =>
      create(AgentInterfaceSchema, {
        ...i,
        protocolBinding: i.protocolBinding || PROTOCOL_BINDING_JSONRPC,
        protocolVersion: i.protocolVersion || A2A_PROTOCOL_VERSION,
      }),
    ),
    capabilities: create(AgentCapabilitiesSchema, {
      streaming: facts.streaming,
      pushNotifications: facts.pushNotifications,
      extendedAgentCard: facts.extendedAgentCard,
      extensions: [...facts.extensions],
    }),
    defaultInputModes: [...(options.defaultInputModes ?? facts.defaultInputModes)],
    defaultOutputModes: [...(options.defaultOutputModes ?? facts.defaultOutputModes)],
    skills: [...facts.skills],
  });
}

/** How long clients may cache the served card (spec §8.6 asks for Cache-Control and ETag). */
export const AGENT_CARD_MAX_AGE_SECONDS = 300;

/** Where the served card's interface URLs come from (decision B19). */
export interface CardUrlOptions {
  /**
   * The URL callers reach the agent at, from configuration: every HTTP
   * interface of the card is this URL, without a trailing slash (clients
   * append `/message:send`). JSON-RPC is served at it.
   */
  readonly publicUrl?: string | undefined;
  /**
   * Name the URL each request came in on (its `Host` and
   * `X-Forwarded-Proto`) instead, for an agent reached under several names
   * behind a proxy that sets them. The card then depends on the request and
   * is not cached publicly. Default false: a `Host` is trusted only when it
   * names this machine (`localhost`, `127.0.0.0/8`, `[::1]`), and only
   * without a `publicUrl`.
   */
  readonly trustHostHeader?: boolean | undefined;
}

const LOOPBACK_HOSTNAME = /^(?:localhost|[^.]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** A URL without its trailing slashes: what a card names (spec §5.3 paths are appended to it). */
export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * The request's `Host`, parsed: undefined when absent, null when malformed
 * (not `host[:port]`: spaces, a path, credentials...).
 */
function requestHost(request: HttpRequestLike): URL | undefined | null {
  const host = headerValue(request.headers, "host");
  if (host === undefined) return undefined;
  const parsed = URL.canParse(`http://${host}`) ? new URL(`http://${host}`) : undefined;
  const bare = parsed && parsed.username === "" && parsed.password === "" && parsed.pathname === "/";
  return bare && parsed.search === "" && parsed.hash === "" ? parsed : null;
}

/** The URL a request came in on, as an http(s) base URL without trailing slash; null when it is not one. */
function requestBaseUrl(request: HttpRequestLike): string | undefined | null {
  if (!request.baseUrl) return undefined;
  const parsed = URL.canParse(request.baseUrl) ? new URL(request.baseUrl) : undefined;
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) return null;
  return withoutTrailingSlash(parsed.href);
}

const BAD_HOST: HttpReply = {
  kind: "body",
  status: 400,
  headers: { "content-type": "text/plain", connection: "close" },
  body: "Bad Request: malformed Host or X-Forwarded-Proto header",
};

/**
 * Serves `GET /.well-known/agent-card.json`. Without configured interfaces,
 * the card lists the interfaces `interfacesAt` gives for the agent's base
 * URL: the configured one, else (when trusted, see `CardUrlOptions`) the URL
 * the request came in on, else none. A malformed `Host` is a 400.
 */
export class AgentCardBinding implements HttpBinding {
  readonly #card: (options: AgentCardOptions) => AgentCard;
  readonly #options: AgentCardOptions;
  readonly #interfacesAt: (baseUrl: string) => InterfaceInit[];
  readonly #urls: CardUrlOptions;
  readonly #logger: Logger | undefined;
  #warned = false;

  constructor(
    card: (options: AgentCardOptions) => AgentCard,
    options: AgentCardOptions,
    interfacesAt: (baseUrl: string) => InterfaceInit[],
    urls: CardUrlOptions = {},
    logger?: Logger,
  ) {
    this.#card = card;
    this.#options = options;
    this.#interfacesAt = interfacesAt;
    this.#urls = urls;
    this.#logger = logger;
  }

  async handle(request: HttpRequestLike): Promise<HttpReply | undefined> {
    if (request.path !== AGENT_CARD_PATH) return undefined;
    if (request.method !== "GET" && request.method !== "HEAD") {
      return {
        kind: "body",
        status: 405,
        headers: { allow: "GET, HEAD", "content-type": "text/plain" },
        body: "Method Not Allowed",
      };
    }
    const host = requestHost(request);
    if (host === null) return BAD_HOST;
    let baseUrl: string | undefined;
    let perRequest = false;
    if (!this.#options.supportedInterfaces) {
      const { publicUrl, trustHostHeader } = this.#urls;
      if (trustHostHeader || (!publicUrl && host && LOOPBACK_HOSTNAME.test(host.hostname))) {
        const fromRequest = requestBaseUrl(request);
        if (fromRequest === null) return BAD_HOST;
        baseUrl = fromRequest;
        perRequest = true;
      } else if (publicUrl) {
        baseUrl = withoutTrailingSlash(publicUrl);
      }
      if (!baseUrl) this.#warnNoInterfaces();
    }
    const options = baseUrl ? { ...this.#options, supportedInterfaces: this.#interfacesAt(baseUrl) } : this.#options;
    const body = JSON.stringify(encodeMessage(AgentCardSchema, this.#card(options)));
    const etag = `W/"${await digest(body)}"`;
    // A card made from the request's own headers must not be served from a shared cache to other callers.
    const headers: Record<string, string> = perRequest
      ? { "cache-control": `private, max-age=${AGENT_CARD_MAX_AGE_SECONDS}`, vary: "Host, X-Forwarded-Proto" }
      : { "cache-control": `public, max-age=${AGENT_CARD_MAX_AGE_SECONDS}` };
    headers["content-type"] = JSON_MEDIA_TYPE;
    headers.etag = etag;
    const match = headerValue(request.headers, "if-none-match");
    if (match?.split(",").some((tag) => tag.trim() === etag)) return { kind: "body", status: 304, headers, body: "" };
    return { kind: "body", status: 200, headers, body: request.method === "HEAD" ? "" : body };
  }

  #warnNoInterfaces(): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#logger?.warn(
      "the served agent card lists no interfaces: configure publicUrl (or trustHostHeader) so callers can find the agent",
    );
  }
}

async function digest(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Buffer.from(hash).subarray(0, 16).toString("base64url");
}
