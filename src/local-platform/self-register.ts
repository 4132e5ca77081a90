/**
 * `registerWithLocalPlatform`: how a running agent (an `AgentBuilder` pod
 * started on its own) puts itself into the local platform's Agent DNS: it
 * posts its URL to the registration route, and the platform reads its card
 * from there. The platform's DNS URL is the one sandbox mode finds
 * (`AGENT_DNS_URL`) unless given.
 */
import type { AgentRecordJson } from "../discovery/agent-dns-record.js";
import { AGENT_DNS_URL_ENV } from "../discovery/dns-url-from-env.js";
import type { RecipientPublicJwk } from "../security/sealed-envelope.js";
import { LOCAL_REGISTER_PATH } from "./agent-dns-service.js";

export interface SelfRegisterOptions {
  /** The local Agent DNS; default `AGENT_DNS_URL`. */
  dnsUrl?: string;
  domains?: readonly string[];
  /** The pod's X25519 public key (`RecipientKey.publicJwk()`), for the user's secrets to be sealed to. */
  podKey?: RecipientPublicJwk;
  signal?: AbortSignal;
}

/** Registers the agent served at `agentUrl`; resolves to its DNS record. */
export async function registerWithLocalPlatform(
  agentUrl: string,
  options: SelfRegisterOptions = {},
): Promise<AgentRecordJson> {
  const dnsUrl = options.dnsUrl ?? process.env[AGENT_DNS_URL_ENV];
  if (!dnsUrl) throw new RangeError(`No local Agent DNS: pass dnsUrl or set ${AGENT_DNS_URL_ENV}`);
  const response = await fetch(new URL(LOCAL_REGISTER_PATH, dnsUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: agentUrl, domains: options.domains ?? [], pod_key: options.podKey }),
    signal: options.signal,
  });
  const body = (await response.json()) as AgentRecordJson & { message?: string };
  if (response.status !== 201) {
    throw new Error(`The local Agent DNS refused ${agentUrl} (HTTP ${response.status}): ${body.message ?? ""}`);
  }
  return body;
}
