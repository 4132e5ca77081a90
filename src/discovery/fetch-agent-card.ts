/**
 * `fetchAgentCard`: the one-shot form of `AgentDiscoveryService.agentCard`,
 * for reading a card once at start-up. Nothing is cached and every
 * connection it opened is closed when it returns.
 */
import type { AgentCard } from "../../gen/a2a_pb.js";
import { AgentDiscoveryService, type AgentDiscoveryServiceOptions } from "./agent-discovery-service.js";

export interface FetchAgentCardOptions extends Omit<AgentDiscoveryServiceOptions, "baseUrl" | "cacheTtlMs" | "now"> {
  signal?: AbortSignal;
}

/**
 * GETs `{baseUrl}/.well-known/agent-card.json` with `A2A-Version: 1.0`.
 * Throws NovaOSAgentNotFoundError (404), NovaOSAuthenticationError
 * (401/403), NovaOSRateLimitError (429), NovaOSServerError (5xx),
 * NovaOSConnectionError (no answer, deadline), NovaOSValidationError (other
 * 4xx, or not a usable card), and with `verifySignatures`
 * NoAgentCardSignatureError / InvalidAgentCardSignatureError.
 */
export async function fetchAgentCard(baseUrl: string, options: FetchAgentCardOptions = {}): Promise<AgentCard> {
  const { signal, ...serviceOptions } = options;
  await using service = new AgentDiscoveryService({ ...serviceOptions, baseUrl, cacheTtlMs: null });
  return await service.agentCard({ signal });
}
