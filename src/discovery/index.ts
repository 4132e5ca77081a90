/**
 * `@novaos/client-sdk/discovery` (Node): one agent's Agent Card (fetch,
 * cache, signatures), Agent DNS (where agents are) and capability matching
 * over its records, and the SSRF guard every discovered URL goes through
 * (its connect-time half, the guarded fetch, is on `/node`).
 */
export * from "../capabilities/index.js";
export {
  type AgentUrlPolicy,
  DEFAULT_AGENT_URL_SCHEMES,
  type ParsedAgentUrl,
  parseAgentUrl,
  type ResolveHost,
  type ValidatedAgentUrl,
  validateAgentUrl,
} from "../http/agent-url.js";
export { AgentUrlRejectedError, type AgentUrlRejection } from "../http/agent-url-error.js";
export { type BlockedAddressCategory, blockedAddressCategory, isBlockedAddress } from "../http/blocked-addresses.js";
export {
  type AgentCardRequestOptions,
  agentCardUrl,
  DEFAULT_DISCOVERY_TIMEOUT_MS,
  DEFAULT_MAX_AGENT_CARD_BYTES,
} from "./agent-card-fetch.js";
export {
  type AgentCardLookupOptions,
  AgentDiscoveryService,
  type AgentDiscoveryServiceOptions,
  DEFAULT_AGENT_CARD_CACHE_TTL_MS,
  type DiscoveryToClientOptions,
} from "./agent-discovery-service.js";
export {
  AgentDNSClient,
  type AgentDNSClientOptions,
  type AgentFilters,
  type DnsCallOptions,
} from "./agent-dns-client.js";
export {
  AgentDNSRecord,
  type AgentDNSRecordToClientOptions,
  type AgentRecordJson,
  DEFAULT_AGENT_STATUS,
} from "./agent-dns-record.js";
export { type DiscoverAndConnectOptions, discoverAndConnect } from "./discover-and-connect.js";
export {
  ACP_DNS_URL_ENV,
  AGENT_DNS_URL_ENV,
  DEFAULT_DNS_SERVICE_PORT,
  DNS_SERVICE_HOST_ENV,
  DNS_SERVICE_PORT_ENV,
  type DnsUrlOptions,
  getDnsUrlForEnvironment,
  getDnsUrlFromEnv,
} from "./dns-url-from-env.js";
export { type FetchAgentCardOptions, fetchAgentCard } from "./fetch-agent-card.js";
