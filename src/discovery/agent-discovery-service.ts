/**
 * `AgentDiscoveryService`: one agent's Agent Card, fetched once and reused.
 *
 * The card is cached for `cacheTtlMs` (default 300 s), or for less when the
 * origin's `Cache-Control` says so; an expired card is revalidated with
 * `If-None-Match` / `If-Modified-Since` and kept (same object) on a 304.
 * Concurrent lookups share one request. With `verifySignatures`, every
 * fetched card is verified against `jwksUrl` before it is cached or used.
 *
 * `toClient` is discovery's payoff and its risk: the card's interface URL
 * decides where the client dials and where its credentials go, so it demands
 * an allowlist of host suffixes and applies the SSRF guard to the URL and to
 * every connection the client makes.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { AgentCard, AgentExtension, AgentSkill } from "../../gen/a2a_pb.js";
import { cardExtensions, interfaceUrl, skillById, skillIds, supportsExtension } from "../a2a/agent-card-lookups.js";
import { PROTOCOL_BINDING_JSONRPC, type ProtocolBinding } from "../a2a/constants.js";
import { type Client, resolveClientConfig, selectInterface } from "../client/index.js";
import { NovaOSAgentNotFoundError, NovaOSError, NovaOSValidationError } from "../errors/novaos-errors.js";
import type { ResolveHost } from "../http/agent-url.js";
import type { AuthProvider } from "../http/auth.js";
import { createGuardedFetch, type GuardedFetch } from "../http/guarded-fetch.js";
import { raceSignal } from "../runtime/race-signal.js";
import { type AgentCardVerifier, createAgentCardVerifier } from "../security/card-signing.js";
import {
  type AgentCardRequestOptions,
  agentCardUrl,
  type CardValidators,
  requestAgentCard,
} from "./agent-card-fetch.js";
import { cardFreshness } from "./card-freshness.js";
import { createGuardedClient, type GuardedClientOptions } from "./guarded-client.js";

/** How long a card is reused when the origin does not say (A2A §8.6.2 leaves it to the client). */
export const DEFAULT_AGENT_CARD_CACHE_TTL_MS = 300_000;

export interface AgentDiscoveryServiceOptions {
  /**
   * Where the agent is addressed; its card is read from
   * `{baseUrl}/.well-known/agent-card.json`, or from `baseUrl` itself when it
   * is a card's URL (its path ends in `.json`).
   */
  baseUrl: string;
  /** Reuse a fetched card this long (ms); `null` or `0` disables caching. Default 300 000. */
  cacheTtlMs?: number | null;
  /** Deadline of one card fetch (ms). Default 10 000. */
  timeoutMs?: number;
  /** Credentials, for a deployment that gates even the public card. */
  auth?: AuthProvider;
  headers?: Record<string, string>;
  /** Verify the card's JWS signatures against `jwksUrl` after every fetch. */
  verifySignatures?: boolean;
  /** Where verification keys come from (trusted configuration). Required with `verifySignatures`. */
  jwksUrl?: string;
  /** Accepted signature algorithms (asymmetric only). */
  signatureAlgorithms?: readonly string[];
  /** Refuse to fetch the card from a private, loopback, link-local or reserved address (checked at connect time). */
  guardConnectIps?: boolean;
  /** With `guardConnectIps`, skip the address block (a gateway on a private network). */
  allowPrivateIps?: boolean;
  /** The fetch for the card (ignored with `guardConnectIps`, which brings its own). */
  fetch?: typeof fetch;
  /** Name resolution for the SSRF guard (tests, private resolvers). */
  resolve?: ResolveHost;
  /** The clock used for cache expiry, in ms. Default `Date.now`. */
  now?: () => number;
  /** Cap on the card body. Default 1 MiB. */
  maxCardBytes?: number;
}

export interface AgentCardLookupOptions {
  /** Fetch (or revalidate) even when the cached card is fresh. */
  forceRefresh?: boolean;
  signal?: AbortSignal;
}

export interface DiscoveryToClientOptions extends Omit<GuardedClientOptions, "agentCard"> {
  /**
   * Host suffixes the card's interface URL must fall under, such as
   * `["partner.example"]`. Required and non-empty: the card decides where the
   * client's credentials go.
   */
  allowedHostSuffixes: readonly string[];
  /** URL schemes to accept. Default `https`, `http`, `grpcs`, `grpc` (and bare `host:port` for gRPC). */
  allowedSchemes?: readonly string[];
  /**
   * Lift the private / loopback / link-local address block for the card's
   * interface URL: the switch for an agent on this machine or a private
   * network (local development, a private deployment). Default false.
   */
  allowPrivateIps?: boolean;
}

interface CachedCard {
  card: AgentCard;
  json: JsonObject;
  validators: CardValidators;
  expiresAt: number;
}

export class AgentDiscoveryService implements AsyncDisposable {
  readonly baseUrl: string;
  /** The well-known URL the card is read from. */
  readonly cardUrl: string;
  readonly #options: AgentDiscoveryServiceOptions;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #verify: AgentCardVerifier | undefined;
  readonly #guarded: GuardedFetch | undefined;
  #cached: CachedCard | undefined;
  #inflight: Promise<CachedCard> | undefined;

  constructor(options: AgentDiscoveryServiceOptions) {
    this.cardUrl = agentCardUrl(options.baseUrl);
    this.baseUrl = options.baseUrl;
    this.#options = options;
    this.#ttlMs = Math.max(
      0,
      options.cacheTtlMs === null ? 0 : (options.cacheTtlMs ?? DEFAULT_AGENT_CARD_CACHE_TTL_MS),
    );
    this.#now = options.now ?? Date.now;
    if (options.verifySignatures) {
      if (!options.jwksUrl) {
        throw new NovaOSValidationError("verifySignatures needs a jwksUrl to take verification keys from", {
          field: "jwksUrl",
        });
      }
      this.#verify = createAgentCardVerifier({
        jwksUrl: options.jwksUrl,
        ...(options.signatureAlgorithms ? { algorithms: options.signatureAlgorithms } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
    }
    if (options.guardConnectIps) {
      this.#guarded = createGuardedFetch({ allowPrivateIps: options.allowPrivateIps, resolve: options.resolve });
    }
  }

  /**
   * The agent's card: the cached one while fresh, else fetched (or
   * revalidated). Throws what `fetchAgentCard` throws, plus the signature
   * errors when verifying.
   */
  async agentCard(options: AgentCardLookupOptions = {}): Promise<AgentCard> {
    return (await this.#entry(options)).card;
  }

  /** The card exactly as the origin published it (what signatures cover). */
  async agentCardJson(options: AgentCardLookupOptions = {}): Promise<JsonObject> {
    return (await this.#entry(options)).json;
  }

  /** Drops the cached card; the next lookup fetches afresh. */
  clearCache(): void {
    this.#cached = undefined;
  }

  /** Every extension the card declares. */
  async extensions(): Promise<AgentExtension[]> {
    return cardExtensions(await this.agentCard());
  }

  /** Whether the card declares the extension `uri` (exact match). */
  async supportsExtension(uri: string): Promise<boolean> {
    return supportsExtension(await this.agentCard(), uri);
  }

  /** The URL of the card's first interface for `binding` that this SDK can call, or undefined; never another binding's. */
  async interfaceUrl(binding: ProtocolBinding | string = PROTOCOL_BINDING_JSONRPC): Promise<string | undefined> {
    return interfaceUrl(await this.agentCard(), binding);
  }

  async skills(): Promise<AgentSkill[]> {
    return (await this.agentCard()).skills;
  }

  /** The advertised skill with this id, or undefined. */
  async skill(skillId: string): Promise<AgentSkill | undefined> {
    return skillById(await this.agentCard(), skillId);
  }

  /** The advertised skill with this id; NovaOSAgentNotFoundError naming the advertised ids otherwise. */
  async requireSkill(skillId: string): Promise<AgentSkill> {
    const card = await this.agentCard();
    const found = skillById(card, skillId);
    if (found) return found;
    const advertised = skillIds(card);
    throw new NovaOSAgentNotFoundError(
      `Agent at ${this.baseUrl} advertises no skill ${JSON.stringify(skillId)} (advertised: ${advertised.join(", ") || "none"})`,
      { details: { skillId, advertisedSkillIds: advertised } },
    );
  }

  /**
   * A client for the card's interface, chosen by the client config's
   * preferred bindings (the card's order wins unless `useClientPreference`).
   * The interface URL must fall under `allowedHostSuffixes` and must not be,
   * or resolve to, a non-public address; every connection the client makes
   * is checked again. The client's `agentCard` is this service's cached card.
   */
  async toClient(options: DiscoveryToClientOptions): Promise<Client> {
    const { allowedHostSuffixes, allowedSchemes, allowPrivateIps, ...clientOptions } = options;
    if (!allowedHostSuffixes || allowedHostSuffixes.length === 0) {
      throw new NovaOSError(
        "toClient needs allowedHostSuffixes: the card's URL decides where the client connects and sends credentials",
        { details: { field: "allowedHostSuffixes" } },
      );
    }
    const card = await this.agentCard();
    const config = resolveClientConfig(clientOptions.config);
    const chosen = selectInterface(card.supportedInterfaces, config.preferredBindings, {
      useClientPreference: config.useClientPreference,
    });
    if (!chosen) {
      const offered = card.supportedInterfaces.map((i) => i.protocolBinding);
      throw new NovaOSValidationError(
        `The card of ${this.baseUrl} offers no interface this client speaks (offered: ${offered.join(", ") || "none"}; ` +
          `accepted: ${config.preferredBindings.join(", ")})`,
        { field: "supportedInterfaces" },
      );
    }
    return createGuardedClient(
      { url: chosen.url, binding: chosen.protocolBinding as ProtocolBinding },
      { allowedHostSuffixes, allowedSchemes, allowPrivateIps, resolve: this.#options.resolve },
      { ...clientOptions, agentCard: card, tenant: clientOptions.tenant ?? (chosen.tenant || undefined) },
    );
  }

  /** Closes the connections of the guarded card fetch, if any. */
  async close(): Promise<void> {
    await this.#guarded?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #entry(options: AgentCardLookupOptions): Promise<CachedCard> {
    const cached = this.#cached;
    if (!options.forceRefresh && cached && this.#now() < cached.expiresAt) return cached;
    // One request serves every concurrent caller, so it is bound by the deadline only; each caller's
    // own signal ends that caller's wait, not the request the others share.
    this.#inflight ??= this.#refresh(cached).finally(() => {
      this.#inflight = undefined;
    });
    return raceSignal(this.#inflight, options.signal);
  }

  async #refresh(previous: CachedCard | undefined): Promise<CachedCard> {
    const options = this.#options;
    const request: AgentCardRequestOptions & { validators?: CardValidators } = {
      fetch: this.#guarded?.fetch ?? options.fetch,
      auth: options.auth,
      headers: options.headers,
      timeoutMs: options.timeoutMs,
      maxCardBytes: options.maxCardBytes,
      validators: previous?.validators,
    };
    const response = await requestAgentCard(this.cardUrl, request);
    const fetchedAt = this.#now();
    const freshness = cardFreshness(response.cache, this.#ttlMs);
    if (response.notModified) {
      const revalidated = { ...(previous as CachedCard), expiresAt: fetchedAt + freshness.lifetimeMs };
      this.#cached = freshness.storable ? revalidated : undefined;
      return revalidated;
    }
    await this.#verify?.(response.json);
    const entry: CachedCard = {
      card: response.card,
      json: response.json,
      validators: response.validators,
      expiresAt: fetchedAt + freshness.lifetimeMs,
    };
    this.#cached = freshness.storable && this.#ttlMs > 0 ? entry : undefined;
    return entry;
  }
}
