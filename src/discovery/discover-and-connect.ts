/**
 * `discoverAndConnect`: an Agent DNS lookup and a client for what it found,
 * in one call. The client owns its connections; use it with `await using`
 * so they close when the block ends.
 *
 *   await using client = await discoverAndConnect({ agent: "joke-agent" });
 *
 * A discovered URL gets the same SSRF guard as any other: Agent DNS is not
 * the sanctioned route to a NovaOS agent (the Execution Gateway is), so the
 * non-public address block stays on unless `trustDnsUrls` lifts it.
 */

import type { Client } from "../client/index.js";
import type { AuthProvider } from "../http/auth.js";
import { AgentDNSClient } from "./agent-dns-client.js";
import { AgentDNSRecord, type AgentDNSRecordToClientOptions } from "./agent-dns-record.js";
import { getDnsUrlFromEnv } from "./dns-url-from-env.js";

export interface DiscoverAndConnectOptions extends Omit<AgentDNSRecordToClientOptions, "trustUrl"> {
  /** An agent name to look up, or a record already in hand (used as is, no lookup). */
  agent: string | AgentDNSRecord;
  /** The registry; default `getDnsUrlFromEnv()`. Unused for a record. */
  dnsBaseUrl?: string;
  /** Deadline of the lookup (ms). */
  dnsTimeoutMs?: number;
  dnsHeaders?: Record<string, string>;
  dnsAuth?: AuthProvider;
  /** The fetch for the registry call. */
  dnsFetch?: typeof fetch;
  /** Lift the non-public address block for the discovered URL. Default false. */
  trustDnsUrls?: boolean;
  signal?: AbortSignal;
}

/**
 * Throws NovaOSDNSAgentNotFoundError for an unknown name, the NovaOSDNSError
 * family for registry failures, and AgentUrlRejectedError for a URL the
 * guard refuses.
 */
export async function discoverAndConnect(options: DiscoverAndConnectOptions): Promise<Client> {
  const { agent, dnsBaseUrl, dnsTimeoutMs, dnsHeaders, dnsAuth, dnsFetch, trustDnsUrls, signal, ...clientOptions } =
    options;
  if (agent instanceof AgentDNSRecord) return agent.toClient({ ...clientOptions, trustUrl: trustDnsUrls === true });
  const { allowedHostSuffixes, resolve, ...recordClientOptions } = clientOptions;
  const dns = new AgentDNSClient({
    baseUrl: dnsBaseUrl ?? getDnsUrlFromEnv(),
    timeoutMs: dnsTimeoutMs,
    headers: dnsHeaders,
    auth: dnsAuth,
    fetch: dnsFetch,
    allowedHostSuffixes,
    trustDnsUrls,
    resolve,
  });
  return dns.getAgentClient(agent, { ...recordClientOptions, signal });
}
