/**
 * The agents the local platform knows: what Agent DNS lists and what the
 * Execution Gateway runs. Registering an agent reads its Agent Card from its
 * URL (the card is the one description an agent publishes), files a DNS
 * record built from it, and installs one instance of it, whose id callers
 * pass to `execute`. The record carries that id as `metadata.instance_id`,
 * so a caller that found the agent through DNS can run it.
 */
import { randomUUID } from "node:crypto";
import type { AgentCard } from "../../gen/a2a_pb.js";
import type { AgentRecordJson } from "../discovery/agent-dns-record.js";
import { fetchAgentCard } from "../discovery/index.js";
import { type RecipientPublicJwk, sealEnvelope } from "../security/sealed-envelope.js";

/** Where a record names the instance the gateway runs for it. */
export const INSTANCE_ID_METADATA_KEY = "instance_id";

export interface RegisteredAgent {
  readonly instanceId: string;
  readonly agentId: string;
  /** The A2A interface URL the gateway calls. */
  readonly url: string;
  readonly card: AgentCard;
  readonly record: AgentRecordJson;
  /** The skill this instance runs (sent as `message.metadata.skillId`); unset for an agent's only skill. */
  readonly skillId: string | undefined;
  /** The pod's X25519 public key, which user-context secrets are sealed to. */
  readonly podKey: RecipientPublicJwk | undefined;
}

export interface RegisterAgentOptions {
  /** The agent's URL (where its card is served, `/.well-known/agent-card.json` under it). */
  url: string;
  /** Domains it serves (the card has no such field). */
  domains?: readonly string[];
  /** The skill the instance runs, for an agent with several (an installed instance is configured with one). */
  skillId?: string;
  /** A fixed instance id (a UUID); default a fresh one. */
  instanceId?: string;
  /**
   * The pod's X25519 public key (`RecipientKey.publicJwk()`, or the JWK
   * `novaos-a2a keys generate` prints): what the cluster's control plane
   * holds for a pod and seals the user's secrets to. Without it no secret
   * is delivered to the agent.
   */
  podKey?: RecipientPublicJwk;
  signal?: AbortSignal;
}

/** Refuses (RangeError) a pod key nothing could be sealed to, by sealing an empty value to it. */
function checkPodKey(podKey: RecipientPublicJwk): void {
  sealEnvelope("", podKey, { tenantId: "", instanceId: "", runId: "", secretName: "" });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class AgentRegistry {
  readonly #byName = new Map<string, RegisteredAgent>();
  readonly #byInstance = new Map<string, RegisteredAgent>();

  /**
   * Reads the card at `url` and registers the agent under the card's name;
   * registering a name again replaces its record and keeps its instance id
   * (a restarted pod registers again). Capabilities are the skill ids, tags
   * the skills' tags.
   */
  async register(options: RegisterAgentOptions): Promise<RegisteredAgent> {
    if (options.instanceId !== undefined && !UUID.test(options.instanceId)) {
      throw new RangeError(`instanceId must be a UUID, got ${JSON.stringify(options.instanceId)}`);
    }
    if (options.podKey !== undefined) checkPodKey(options.podKey);
    const card = await fetchAgentCard(options.url, { allowPrivateIps: true, signal: options.signal });
    const previous = this.#byName.get(card.name);
    const instanceId = options.instanceId ?? previous?.instanceId ?? randomUUID();
    const agentId = previous?.agentId ?? randomUUID();
    const now = new Date().toISOString();
    const record: AgentRecordJson = {
      id: agentId,
      name: card.name,
      url: card.supportedInterfaces[0]?.url ?? options.url,
      description: card.description,
      capabilities: card.skills.map((skill) => skill.id),
      domains: [...(options.domains ?? [])],
      tags: [...new Set(card.skills.flatMap((skill) => skill.tags))],
      metadata: { [INSTANCE_ID_METADATA_KEY]: instanceId, version: card.version },
      created_at: previous?.record.created_at ?? now,
      updated_at: now,
      status: "active",
    };
    const agent: RegisteredAgent = {
      instanceId,
      agentId,
      url: record.url,
      card,
      record,
      skillId: options.skillId,
      podKey: options.podKey,
    };
    if (previous) this.#byInstance.delete(previous.instanceId);
    this.#byName.set(card.name, agent);
    this.#byInstance.set(instanceId, agent);
    return agent;
  }

  byName(name: string): RegisteredAgent | undefined {
    return this.#byName.get(name);
  }

  byInstance(instanceId: string): RegisteredAgent | undefined {
    return this.#byInstance.get(instanceId);
  }

  /** Every agent, by name. */
  list(): RegisteredAgent[] {
    return [...this.#byName.values()].sort((a, b) => a.record.name.localeCompare(b.record.name));
  }
}
