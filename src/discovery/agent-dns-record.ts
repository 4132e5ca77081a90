/**
 * `AgentDNSRecord`: one Agent DNS entry — where an agent answers and what it
 * says about itself. Capabilities, domains and tags are read from the record
 * and from its free-form `metadata`, merged (record first, duplicates
 * dropped), because registries put them in either place.
 *
 * `toClient` trusts the registry more than an Agent Card but not blindly:
 * the host-suffix allowlist, when given, is always enforced (it narrows,
 * never widens), and the private / loopback / link-local / reserved address
 * block is lifted only with `trustUrl`. The sanctioned route to a NovaOS
 * agent is gateway-mediated; a direct dial to a registry address is the
 * caller's explicit choice.
 */

import type { components } from "../../gen/openapi/agent-dns.js";
import type { ProtocolBinding } from "../a2a/constants.js";
import { isJsonObject } from "../a2a/json-object.js";
import { Capability } from "../capabilities/capability.js";
import { capabilitySimilarity, DEFAULT_SIMILARITY_THRESHOLD } from "../capabilities/capability-name.js";
import type { Client } from "../client/index.js";
import { NovaOSDNSError } from "../errors/novaos-errors.js";
import type { ResolveHost } from "../http/agent-url.js";
import { createGuardedClient, type GuardedClientOptions } from "./guarded-client.js";

/** The wire form of a record (gen/openapi/agent-dns.ts). */
export type AgentRecordJson = components["schemas"]["AgentRecord"];

/** The status of a record that does not name one. */
export const DEFAULT_AGENT_STATUS = "active";

export interface AgentDNSRecordToClientOptions extends GuardedClientOptions {
  /** Host suffixes the record's URL must fall under; always enforced when given. */
  allowedHostSuffixes?: readonly string[] | undefined;
  /** Skip the non-public address block for this URL (a registry you configured and trust). Default false. */
  trustUrl?: boolean | undefined;
  /** The binding spoken at the URL; default gRPC for `grpc(s)://` and bare `host:port`, else JSON-RPC. */
  binding?: ProtocolBinding | undefined;
  /** Name resolution for the SSRF guard. */
  resolve?: ResolveHost | undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : [];
}

function merged(...lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}

function parseDate(value: unknown): Date | undefined {
  if (typeof value !== "string") return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A registry entry as a Capability; entries that name none are skipped (records are read leniently). */
function capabilityOf(entry: unknown): Capability | undefined {
  try {
    return Capability.fromJson(entry);
  } catch {
    return undefined;
  }
}

export class AgentDNSRecord {
  readonly id: string;
  readonly name: string;
  /** Where the agent answers: a URL, or a bare `host:port` gRPC authority. */
  readonly url: string;
  readonly description: string | undefined;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly capabilities: readonly string[];
  readonly domains: readonly string[];
  readonly tags: readonly string[];
  readonly createdAt: Date | undefined;
  readonly updatedAt: Date | undefined;
  readonly status: string;

  constructor(init: {
    id?: string;
    name: string;
    url: string;
    description?: string | undefined;
    metadata?: Record<string, unknown> | undefined;
    capabilities?: readonly string[] | undefined;
    domains?: readonly string[] | undefined;
    tags?: readonly string[] | undefined;
    createdAt?: Date | undefined;
    updatedAt?: Date | undefined;
    status?: string | undefined;
  }) {
    this.id = init.id ?? "";
    this.name = init.name;
    this.url = init.url;
    this.description = init.description;
    this.metadata = init.metadata ?? {};
    this.capabilities = [...(init.capabilities ?? [])];
    this.domains = [...(init.domains ?? [])];
    this.tags = [...(init.tags ?? [])];
    this.createdAt = init.createdAt;
    this.updatedAt = init.updatedAt;
    this.status = init.status || DEFAULT_AGENT_STATUS;
  }

  /** A record from its wire form; NovaOSDNSError when it lacks a name or a URL (lists and dates are read leniently). */
  static fromJson(json: unknown): AgentDNSRecord {
    if (!isJsonObject(json) || typeof json.name !== "string" || json.name === "") {
      throw new NovaOSDNSError("Agent DNS returned a record without a name", { details: { record: json } });
    }
    if (typeof json.url !== "string" || json.url.trim() === "") {
      throw new NovaOSDNSError(`Agent DNS record ${JSON.stringify(json.name)} has no url`, {
        details: { record: json },
      });
    }
    return new AgentDNSRecord({
      id: typeof json.id === "string" ? json.id : typeof json.id === "number" ? String(json.id) : "",
      name: json.name,
      url: json.url,
      description: typeof json.description === "string" ? json.description : undefined,
      metadata: isJsonObject(json.metadata) ? json.metadata : undefined,
      capabilities: strings(json.capabilities),
      domains: strings(json.domains),
      tags: strings(json.tags),
      createdAt: parseDate(json.created_at),
      updatedAt: parseDate(json.updated_at),
      status: typeof json.status === "string" ? json.status : undefined,
    });
  }

  /** The wire form. */
  toJSON(): AgentRecordJson {
    return {
      id: this.id,
      name: this.name,
      url: this.url,
      ...(this.description !== undefined ? { description: this.description } : {}),
      ...(Object.keys(this.metadata).length > 0 ? { metadata: this.metadata } : {}),
      capabilities: [...this.capabilities],
      domains: [...this.domains],
      tags: [...this.tags],
      ...(this.createdAt ? { created_at: this.createdAt.toISOString() } : {}),
      ...(this.updatedAt ? { updated_at: this.updatedAt.toISOString() } : {}),
      status: this.status,
    };
  }

  /** Whether the registry lists the agent as `active` (case-insensitive). */
  get isAvailable(): boolean {
    return this.status.toLowerCase() === DEFAULT_AGENT_STATUS;
  }

  /** The record's capabilities, then those in `metadata.capabilities` (names or objects), one per name. */
  getCapabilities(): Capability[] {
    const seen = new Map<string, Capability>();
    const fromMetadata = Array.isArray(this.metadata.capabilities) ? this.metadata.capabilities : [];
    for (const entry of [...this.capabilities, ...fromMetadata]) {
      const capability = capabilityOf(entry);
      if (capability && !seen.has(capability.name)) seen.set(capability.name, capability);
    }
    return [...seen.values()];
  }

  /** `domains` merged with `metadata.domains`. */
  getDomains(): string[] {
    return merged([...this.domains], strings(this.metadata.domains));
  }

  /** `tags` merged with `metadata.tags`. */
  getTags(): string[] {
    return merged([...this.tags], strings(this.metadata.tags));
  }

  /**
   * Whether the agent declares `capability`: the same name once normalised
   * (case, separators, camelCase: `web_search` is `WebSearch`), or with
   * `fuzzy`, a similarity of at least 0.8 (see src/capabilities/capability-name.ts).
   */
  hasCapability(capability: string, options: { fuzzy?: boolean } = {}): boolean {
    const threshold = options.fuzzy ? DEFAULT_SIMILARITY_THRESHOLD : 1;
    return this.getCapabilities().some(({ name }) => capabilitySimilarity(capability, name) >= threshold);
  }

  /**
   * A client for this agent's URL. The URL is validated first (scheme,
   * `allowedHostSuffixes` when given, and unless `trustUrl` the non-public
   * address block) and every connection is checked again. Throws
   * AgentUrlRejectedError.
   */
  async toClient(options: AgentDNSRecordToClientOptions = {}): Promise<Client> {
    const { allowedHostSuffixes, trustUrl, binding, resolve, ...clientOptions } = options;
    return createGuardedClient(
      { url: this.url, binding },
      { allowedHostSuffixes, allowPrivateIps: trustUrl === true, resolve },
      clientOptions,
    );
  }
}
