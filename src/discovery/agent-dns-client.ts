/**
 * `AgentDNSClient`: the Agent DNS registry ("where is this agent, anywhere on
 * the network?") over openapi-fetch and the generated `paths` of
 * openapi/agent-dns.yaml. Listings are async iterators that follow
 * `next_page_token` page by page.
 *
 * Failures are the NovaOSDNSError family: no answer, a deadline or a 5xx is
 * NovaOSDNSConnectionError (retryable), 429 NovaOSDNSRateLimitError with
 * `retryAfter`, anything else NovaOSDNSError with the HTTP status as `code`.
 * `getAgent` answers undefined for an unknown name; `getAgentClient` throws
 * NovaOSDNSAgentNotFoundError.
 */
import type { Client as OpenApiClient } from "openapi-fetch";
import type { paths } from "../../gen/openapi/agent-dns.js";
import type { Client } from "../client/index.js";
import {
  NovaOSConnectionError,
  NovaOSDNSAgentNotFoundError,
  NovaOSDNSConnectionError,
  NovaOSDNSError,
  NovaOSDNSRateLimitError,
  NovaOSError,
} from "../errors/novaos-errors.js";
import type { ResolveHost } from "../http/agent-url.js";
import type { AuthProvider } from "../http/auth.js";
import { checkBaseUrl } from "../http/base-url.js";
import { CallScope } from "../http/call-scope.js";
import { parseRetryAfter } from "../http/http-status-errors.js";
import { createPlatformClient } from "../http/platform-client.js";
import { platformHttpErrorMessage } from "../http/platform-http-error.js";
import { DEFAULT_DISCOVERY_TIMEOUT_MS } from "./agent-card-fetch.js";
import { AgentDNSRecord, type AgentDNSRecordToClientOptions } from "./agent-dns-record.js";

export interface AgentDNSClientOptions {
  /** The registry, e.g. `http://agent-dns.example.internal:8000` (see `getDnsUrlFromEnv`). */
  baseUrl: string;
  /** Deadline of one registry request (ms). Default 10 000. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  auth?: AuthProvider;
  /** Host suffixes every record URL must fall under when a client is built from it. */
  allowedHostSuffixes?: readonly string[];
  /** Lift the non-public address block for record URLs (forwarded as `trustUrl`). Default false. */
  trustDnsUrls?: boolean;
  /** Records per page asked for; the registry may answer fewer. Default: the registry's. */
  pageSize?: number;
  fetch?: typeof fetch;
  /** Name resolution for the SSRF guard of built clients. */
  resolve?: ResolveHost;
}

export interface DnsCallOptions {
  signal?: AbortSignal;
}

/** Filters of `findAgents`. Every filter given must match. */
export interface AgentFilters {
  /** A case-insensitive substring of the name. */
  name?: string;
  /** Capability names the agent must declare. */
  capabilities?: readonly string[];
  /** All of `capabilities` (true, the default) or any of them. */
  requireAllCapabilities?: boolean;
  /** Compare capabilities by similarity (≥ 0.8) instead of equality. */
  fuzzyMatch?: boolean;
  /** A domain the agent serves (record or metadata). */
  domain?: string;
  /** A tag the agent carries (record or metadata). */
  tag?: string;
  /** The record status, e.g. `active` (case-insensitive). */
  status?: string;
}

type AgentList = { agents: unknown[]; next_page_token?: string };

function matches(record: AgentDNSRecord, filters: AgentFilters): boolean {
  if (filters.name && !record.name.toLowerCase().includes(filters.name.toLowerCase())) return false;
  if (filters.domain && !record.getDomains().includes(filters.domain)) return false;
  if (filters.tag && !record.getTags().includes(filters.tag)) return false;
  if (filters.status && record.status.toLowerCase() !== filters.status.toLowerCase()) return false;
  const wanted = filters.capabilities ?? [];
  if (wanted.length > 0) {
    const has = (c: string) => record.hasCapability(c, { fuzzy: filters.fuzzyMatch === true });
    if (filters.requireAllCapabilities === false ? !wanted.some(has) : !wanted.every(has)) return false;
  }
  return true;
}

export class AgentDNSClient {
  readonly baseUrl: string;
  readonly #options: AgentDNSClientOptions;
  readonly #api: OpenApiClient<paths>;

  constructor(options: AgentDNSClientOptions) {
    this.baseUrl = checkBaseUrl(options.baseUrl, "Agent DNS");
    this.#options = options;
    this.#api = createPlatformClient<paths>(options);
  }

  /** Every record, page by page. */
  listAgents(options: DnsCallOptions = {}): AsyncGenerator<AgentDNSRecord, void, undefined> {
    return this.#pages("GET /agents", options, (pageToken, signal) =>
      this.#api.GET("/agents", {
        params: { query: { page_size: this.#options.pageSize, page_token: pageToken } },
        signal,
      }),
    );
  }

  /** Records matching a free-text query (the registry decides what matches). */
  searchAgents(query: string, options: DnsCallOptions = {}): AsyncGenerator<AgentDNSRecord, void, undefined> {
    return this.#search({ query }, options);
  }

  /**
   * Records matching every filter given. With a text filter (name, domain,
   * tag) the registry pre-filters through `POST /agents/search`; otherwise
   * every record is listed. Either way all filters are applied here too, so
   * the answer does not depend on how much the registry filtered.
   */
  async *findAgents(filters: AgentFilters = {}, options: DnsCallOptions = {}): AsyncGenerator<AgentDNSRecord> {
    const { name, domain, tag, status } = filters;
    const source =
      name || domain || tag
        ? this.#search(
            {
              ...(name ? { name } : {}),
              ...(domain ? { domain } : {}),
              ...(tag ? { tag } : {}),
              ...(status ? { status } : {}),
            },
            options,
          )
        : this.listAgents(options);
    for await (const record of source) if (matches(record, filters)) yield record;
  }

  /** The record named exactly `name`, or undefined when the registry has none. */
  async getAgent(name: string, options: DnsCallOptions = {}): Promise<AgentDNSRecord | undefined> {
    const operation = "GET /agents/{name}";
    using scope = new CallScope(options.signal, this.#options.timeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS);
    try {
      const { data, error, response } = await this.#api.GET("/agents/{name}", {
        params: { path: { name } },
        signal: scope.signal,
      });
      if (response.status === 404) return undefined;
      if (error !== undefined || data === undefined) throw dnsHttpError(response, error, operation);
      return AgentDNSRecord.fromJson(data);
    } catch (error) {
      throw dnsFailure(scope, error, this.baseUrl, operation);
    }
  }

  /** A client for the agent named `name`, under this DNS client's URL policy. */
  async getAgentClient(
    name: string,
    options: Omit<AgentDNSRecordToClientOptions, "allowedHostSuffixes" | "trustUrl" | "resolve"> & DnsCallOptions = {},
  ): Promise<Client> {
    const { signal, ...clientOptions } = options;
    const record = await this.getAgent(name, { signal });
    if (!record) {
      throw new NovaOSDNSAgentNotFoundError(`Agent DNS at ${this.baseUrl} has no agent named ${JSON.stringify(name)}`, {
        agentName: name,
      });
    }
    return record.toClient({
      ...clientOptions,
      allowedHostSuffixes: this.#options.allowedHostSuffixes,
      trustUrl: this.#options.trustDnsUrls,
      resolve: this.#options.resolve,
    });
  }

  #search(
    body: { query?: string; name?: string; domain?: string; tag?: string; status?: string },
    options: DnsCallOptions,
  ): AsyncGenerator<AgentDNSRecord, void, undefined> {
    return this.#pages("POST /agents/search", options, (pageToken, signal) =>
      this.#api.POST("/agents/search", {
        body: {
          ...body,
          ...(this.#options.pageSize ? { page_size: this.#options.pageSize } : {}),
          ...(pageToken ? { page_token: pageToken } : {}),
        },
        signal,
      }),
    );
  }

  async *#pages(
    operation: string,
    options: DnsCallOptions,
    fetchPage: (
      pageToken: string | undefined,
      signal: AbortSignal,
    ) => Promise<{ data?: AgentList; error?: unknown; response: Response }>,
  ): AsyncGenerator<AgentDNSRecord, void, undefined> {
    const seen = new Set<string>();
    let pageToken: string | undefined;
    do {
      let page: AgentList;
      {
        using scope = new CallScope(options.signal, this.#options.timeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS);
        try {
          const { data, error, response } = await fetchPage(pageToken, scope.signal);
          if (error !== undefined || data === undefined) throw dnsHttpError(response, error, operation);
          if (!Array.isArray(data.agents))
            throw new NovaOSDNSError(`Agent DNS ${operation} answered without an agents list`);
          page = data;
        } catch (error) {
          throw dnsFailure(scope, error, this.baseUrl, operation);
        }
      }
      for (const json of page.agents) yield AgentDNSRecord.fromJson(json);
      pageToken = page.next_page_token || undefined;
      if (pageToken !== undefined) {
        if (seen.has(pageToken)) {
          throw new NovaOSDNSError(`Agent DNS ${operation} repeated page token ${JSON.stringify(pageToken)}`);
        }
        seen.add(pageToken);
      }
    } while (pageToken !== undefined);
  }
}

function dnsHttpError(response: Response, body: unknown, operation: string): NovaOSDNSError {
  const status = response.status;
  const message = platformHttpErrorMessage(`Agent DNS ${operation}`, status, body);
  const options = { code: status, details: { status, body } };
  if (status === 429) {
    return new NovaOSDNSRateLimitError(message, {
      ...options,
      retryAfter: parseRetryAfter(response.headers.get("retry-after")),
    });
  }
  if (status >= 500) return new NovaOSDNSConnectionError(message, options);
  return new NovaOSDNSError(message, options);
}

/**
 * The caller's abort reason as is; a deadline, or a failure with no usable
 * answer, as NovaOSDNSConnectionError; SDK errors as they are.
 */
function dnsFailure(scope: CallScope, error: unknown, baseUrl: string, operation: string): unknown {
  const aborted = scope.abortError();
  if (aborted instanceof NovaOSConnectionError) {
    return new NovaOSDNSConnectionError(`Agent DNS ${operation} at ${baseUrl}: ${aborted.message}`, {
      cause: aborted,
      details: aborted.details,
    });
  }
  if (aborted !== undefined) return aborted;
  if (error instanceof NovaOSError) return error;
  return new NovaOSDNSConnectionError(
    `Agent DNS ${operation} at ${baseUrl} failed: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
