/**
 * Agent DNS (openapi/agent-dns.yaml) over the local registry: list, search
 * and get by name, with the records `AgentDNSClient` reads. Pages are
 * offsets into the name-ordered list; `page_token` is the offset as a
 * decimal string. Beside the spec, `POST /local/v1/agents` lets a running
 * agent register itself (the cluster's registrar has no public route).
 */
import { isJsonObject } from "../a2a/json-object.js";
import type { AgentRecordJson } from "../discovery/agent-dns-record.js";
import type { RecipientPublicJwk } from "../security/sealed-envelope.js";
import type { AgentRegistry } from "./agent-registry.js";
import { type ExtraRoute, type OperationHandler, PlatformReplyError } from "./spec-router.js";

/** The route a running agent registers itself at (`{ url, domains? }`); local only. */
export const LOCAL_REGISTER_PATH = "/local/v1/agents";
/** Records per page when the caller asks for no size. */
export const DEFAULT_DNS_PAGE_SIZE = 100;

function page(records: AgentRecordJson[], size: unknown, token: unknown) {
  const offset = token === undefined || token === "" ? 0 : Number(token);
  if (!Number.isInteger(offset) || offset < 0 || offset > records.length) {
    throw new PlatformReplyError(400, "invalid_page_token", `page_token ${JSON.stringify(token)} is not one of ours`);
  }
  const limit = typeof size === "number" ? size : DEFAULT_DNS_PAGE_SIZE;
  const agents = records.slice(offset, offset + limit);
  const next = offset + agents.length;
  return { status: 200, body: { agents, ...(next < records.length ? { next_page_token: String(next) } : {}) } };
}

function lower(list: readonly string[] | undefined): string[] {
  return (list ?? []).map((item) => item.toLowerCase());
}

/** Every word of `query` appears in the record's name, description, capabilities or tags. */
function matchesQuery(record: AgentRecordJson, query: string): boolean {
  const haystack = [record.name, record.description ?? "", ...(record.capabilities ?? []), ...(record.tags ?? [])]
    .join(" ")
    .toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

export function agentDnsHandlers(registry: AgentRegistry): Record<string, OperationHandler> {
  const records = () => registry.list().map((agent) => agent.record);
  return {
    listAgents: ({ query }) => page(records(), query.page_size, query.page_token),
    searchAgents: ({ body }) => {
      const filters = body as Record<string, string | number | undefined>;
      const found = records().filter((record) => {
        if (typeof filters.query === "string" && !matchesQuery(record, filters.query)) return false;
        if (typeof filters.name === "string" && !record.name.toLowerCase().includes(filters.name.toLowerCase())) {
          return false;
        }
        if (typeof filters.domain === "string" && !lower(record.domains).includes(filters.domain.toLowerCase())) {
          return false;
        }
        if (typeof filters.tag === "string" && !lower(record.tags).includes(filters.tag.toLowerCase())) return false;
        return typeof filters.status !== "string" || record.status?.toLowerCase() === filters.status.toLowerCase();
      });
      return page(found, filters.page_size, filters.page_token);
    },
    getAgent: ({ params }) => {
      const agent = registry.byName(params.name as string);
      if (!agent) throw new PlatformReplyError(404, "agent_not_found", `No agent is named ${params.name}`);
      return { status: 200, body: agent.record };
    },
  };
}

/**
 * `POST /local/v1/agents` `{url, domains?, pod_key?}`: reads the card at
 * `url` and answers the record (201). `pod_key` is the pod's X25519 public
 * JWK, which the user's secrets are sealed to; one nothing can be sealed to
 * is 400.
 */
export function registerRoute(registry: AgentRegistry): ExtraRoute {
  return async ({ body, signal }) => {
    const { url, domains, pod_key } = (body ?? {}) as { url?: unknown; domains?: unknown; pod_key?: unknown };
    if (typeof url !== "string" || !URL.canParse(url)) {
      return { status: 400, body: { error: "invalid_request", message: "url must be the agent's absolute URL" } };
    }
    if (pod_key !== undefined && !isJsonObject(pod_key)) {
      return { status: 400, body: { error: "invalid_request", message: "pod_key must be an X25519 public JWK" } };
    }
    const wanted = Array.isArray(domains) ? domains.filter((d): d is string => typeof d === "string") : [];
    try {
      const podKey = pod_key as RecipientPublicJwk | undefined;
      const agent = await registry.register({ url, domains: wanted, signal, ...(podKey ? { podKey } : {}) });
      return { status: 201, body: agent.record };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof RangeError) return { status: 400, body: { error: "invalid_request", message } };
      return { status: 422, body: { error: "agent_card_unavailable", message } };
    }
  };
}
