/**
 * The local platform's memories, in memory: one list per tenant, agent and
 * scope (`run` and `task` memories per run too, `user` memories per tenant
 * and user). One store serves both doors, the MCP Gateway's memory tools and
 * the Memory Service's REST dispatch, so a value written through one is read
 * through the other.
 *
 * A memory has a version that every update raises; an update naming another
 * version is refused as stale, as the Memory Service answers 409. A query
 * ranks by the share of the query's words found in a memory's text (a
 * simple, real text search). The write gate has no PII screen locally: an
 * `agent` write classified `confidential` is held as a `prop_` proposal
 * (`durable: false`) until whoever runs the platform approves it (the memory
 * is written then) or rejects it (`proposals`); every other write is durable
 * at once. A hint is consolidated at once into a `user` memory of the run's
 * user.
 */
import { randomUUID } from "node:crypto";
import type { components } from "../../gen/openapi/memory.js";
import { textScore } from "./text-score.js";

type Schemas = components["schemas"];
export type MemoryItem = Schemas["MemoryItem"];

/** `MemoryUpdatePayload` (its `anyOf` leaves the generated type open); the router has checked it. */
export interface MemoryUpdate {
  scope: string;
  memory_id: string;
  version: number;
  content?: string;
  tags?: string[];
  confidence?: number;
  custom?: Record<string, unknown>;
}

/** Who owns a memory: the run's token says. */
export interface MemoryOwner {
  readonly tenantId: string;
  readonly agentId: string;
  readonly runId: string;
  /** The run's user, whose `user` memories hints consolidate into. */
  readonly userId?: string | undefined;
}

/** A refusal of the Memory Service, with its HTTP status (403 another agent's, 404 unknown, 409 stale, 422 scope). */
export class MemoryRefusal extends Error {
  override readonly name = "MemoryRefusal";
  constructor(
    readonly status: 403 | 404 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

/** How long a write's idempotency key deduplicates, and a hint's status is kept: 24 hours. */
export const MEMORY_RETENTION_MS = 24 * 60 * 60 * 1000;

const EPHEMERAL = new Set(["run", "task"]);
const WRITABLE = new Set(["agent", "run", "task"]);

interface Stored {
  readonly item: MemoryItem;
  /** The list it lives in, and the agent that wrote it (`user` memories: the hint's agent). */
  readonly key: string;
  readonly tenantId: string;
  readonly agentId: string;
  readonly expiresAt: number | undefined;
}

interface Hint {
  readonly tenantId: string;
  readonly agentId: string;
  readonly status: Schemas["MemoryHintStatus"];
  readonly at: number;
}

interface Proposal {
  readonly owner: MemoryOwner;
  readonly payload: Schemas["MemoryWritePayload"];
  status: Schemas["MemoryProposalStatus"];
}

/** A held write, as the platform's reviewer sees it. */
export interface MemoryProposal {
  readonly proposalId: string;
  readonly tenantId: string;
  readonly agentId: string;
  readonly content: string;
}

/** The reviewer's side of the write gate: the pending proposals, and a decision on each. */
export interface MemoryProposalReview {
  /** The proposals awaiting a decision, oldest first. */
  pending(): MemoryProposal[];
  /** Writes the proposed memory (its id becomes the proposal's `memory_id`); a RangeError unless pending. */
  approve(proposalId: string): MemoryItem;
  /** Refuses it with `reason` (default `rejected_by_reviewer`); a RangeError unless pending. */
  reject(proposalId: string, reason?: string): void;
}

/** Why a proposal was rejected when the reviewer gives no reason. */
export const DEFAULT_REJECTION_REASON = "rejected_by_reviewer";

interface Remembered {
  readonly result: unknown;
  readonly at: number;
}

function listKey(owner: MemoryOwner, scope: string): string {
  if (scope === "user") return [owner.tenantId, "user", owner.userId ?? ""].join("\u0000");
  if (scope === "tenant") return [owner.tenantId, "tenant"].join("\u0000");
  return [owner.tenantId, owner.agentId, scope, EPHEMERAL.has(scope) ? owner.runId : ""].join("\u0000");
}

/** Every filter given matches the memory (`MemoryFilters`). */
function matches(item: MemoryItem, filters: Schemas["MemoryFilters"] | undefined): boolean {
  if (!filters) return true;
  const { metadata } = item;
  const created = Date.parse(metadata.created_at ?? "");
  if (filters.tags && !filters.tags.every((tag) => metadata.tags?.includes(tag))) return false;
  if (filters.after !== undefined && !(created > Date.parse(filters.after))) return false;
  if (filters.before !== undefined && !(created < Date.parse(filters.before))) return false;
  if (filters.classification !== undefined && metadata.classification !== filters.classification) return false;
  if (filters.memory_type !== undefined && metadata.memory_type !== filters.memory_type) return false;
  if (filters.conversation_id !== undefined && !EPHEMERAL.has(item.scope)) {
    return metadata.conversation_id === filters.conversation_id;
  }
  return true;
}

export class MemoryStore {
  readonly #lists = new Map<string, Stored[]>();
  /** Every memory by id, to tell another agent's memory (403) from none (404). */
  readonly #byId = new Map<string, Stored>();
  readonly #hints = new Map<string, Hint>();
  /** Results of writes and forgets by idempotency key (per tenant and agent). */
  readonly #idempotent = new Map<string, Remembered>();
  readonly #proposals = new Map<string, Proposal>();

  /** The pending proposal `id`, or a RangeError. */
  #pending(id: string): Proposal {
    const proposal = this.#proposals.get(id);
    if (proposal?.status.status !== "pending") throw new RangeError(`No pending memory proposal ${id}`);
    return proposal;
  }

  readonly proposals: MemoryProposalReview = {
    pending: () =>
      [...this.#proposals]
        .filter(([, proposal]) => proposal.status.status === "pending")
        .map(([proposalId, { owner, payload }]) => ({
          proposalId,
          tenantId: owner.tenantId,
          agentId: owner.agentId,
          content: payload.content,
        })),
    approve: (proposalId) => {
      const proposal = this.#pending(proposalId);
      const item = this.#add(proposal.owner, "agent", proposal.payload, proposal.owner.agentId);
      proposal.status = { proposal_id: proposalId, status: "committed", reason: null, memory_id: item.memory_id };
      return item;
    },
    reject: (proposalId, reason = DEFAULT_REJECTION_REASON) => {
      this.#pending(proposalId).status = { proposal_id: proposalId, status: "rejected", reason, memory_id: null };
    },
  };

  #list(key: string): Stored[] {
    let list = this.#lists.get(key);
    if (!list) {
      list = [];
      this.#lists.set(key, list);
    }
    return list;
  }

  /** The live memories of `scope` for `owner`, expired ones dropped. */
  #live(owner: MemoryOwner, scope: string): Stored[] {
    const now = Date.now();
    const list = this.#list(listKey(owner, scope));
    const live = list.filter((stored) => stored.expiresAt === undefined || stored.expiresAt > now);
    if (live.length !== list.length) {
      for (const gone of list.filter((stored) => !live.includes(stored))) this.#byId.delete(gone.item.memory_id);
      this.#lists.set(listKey(owner, scope), live);
    }
    return live;
  }

  /** The caller's own memory `id` in `scope`: 404 when it has none such, 403 when it is another agent's. */
  #own(owner: MemoryOwner, scope: string, id: string): Stored {
    const stored = this.#byId.get(id);
    const live = stored && this.#live(owner, scope).includes(stored);
    if (live) return stored;
    if (stored && stored.tenantId === owner.tenantId && stored.agentId !== owner.agentId) {
      throw new MemoryRefusal(403, `Memory ${id} belongs to another agent`);
    }
    throw new MemoryRefusal(404, `No memory ${id}`);
  }

  /** Runs `act` once per idempotency key: a retry answers the first result. */
  #once<T>(owner: MemoryOwner, tool: string, key: string | undefined, act: () => T): T {
    if (key === undefined) return act();
    const id = [owner.tenantId, owner.agentId, tool, key].join("\u0000");
    const seen = this.#idempotent.get(id);
    if (seen && Date.now() - seen.at < MEMORY_RETENTION_MS) return seen.result as T;
    const result = act();
    this.#idempotent.set(id, { result, at: Date.now() });
    return result;
  }

  #add(owner: MemoryOwner, scope: string, payload: Schemas["MemoryWritePayload"], agentId: string): MemoryItem {
    const now = new Date().toISOString();
    const item: MemoryItem = {
      memory_id: `mem_${randomUUID()}`,
      scope: scope as MemoryItem["scope"],
      content: payload.content,
      version: 1,
      metadata: {
        tags: [...(payload.tags ?? [])],
        source: payload.source ?? null,
        confidence: payload.confidence ?? null,
        custom: payload.custom ?? null,
        memory_type: payload.memory_type ?? null,
        ...(payload.classification !== undefined ? { classification: payload.classification } : {}),
        created_at: now,
        updated_at: now,
      },
    };
    const key = listKey(owner, scope);
    const expiresAt = payload.ttl_seconds === undefined ? undefined : Date.now() + payload.ttl_seconds * 1000;
    const stored: Stored = { item, key, tenantId: owner.tenantId, agentId, expiresAt };
    this.#list(key).push(stored);
    this.#byId.set(item.memory_id, stored);
    return item;
  }

  write(owner: MemoryOwner, payload: Schemas["MemoryWritePayload"]): Schemas["MemoryWriteResult"] {
    if (!WRITABLE.has(payload.scope)) {
      throw new MemoryRefusal(422, `An agent cannot write ${payload.scope} memory`);
    }
    return this.#once(owner, "write", payload.idempotency_key, () => {
      if (payload.scope === "agent" && payload.classification === "confidential") return this.#propose(owner, payload);
      const item = this.#add(owner, payload.scope, payload, owner.agentId);
      return {
        memory_id: item.memory_id,
        scope: payload.scope,
        write_event_id: randomUUID(),
        created_at: item.metadata.created_at as string,
        durable: true,
      };
    });
  }

  /** Holds a write for the reviewer: its result carries the proposal id and `durable: false`. */
  #propose(owner: MemoryOwner, payload: Schemas["MemoryWritePayload"]): Schemas["MemoryWriteResult"] {
    const proposalId = `prop_${randomUUID()}`;
    const status = { proposal_id: proposalId, status: "pending", reason: null, memory_id: null } as const;
    this.#proposals.set(proposalId, { owner, payload, status });
    return {
      memory_id: proposalId,
      scope: "agent",
      write_event_id: randomUUID(),
      created_at: new Date().toISOString(),
      durable: false,
    };
  }

  /** Memories of one scope: ranked by the query for durable scopes (only those that share a word), all for run/task. */
  #ranked(owner: MemoryOwner, scope: string, query: string, filters?: Schemas["MemoryFilters"]): MemoryItem[] {
    const ephemeral = EPHEMERAL.has(scope);
    return this.#live(owner, scope)
      .map(({ item }) => ({ ...item, score: ephemeral ? null : textScore(query, item.content) }))
      .filter((item) => (ephemeral || (item.score ?? 0) > 0) && matches(item, filters))
      .sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  }

  query(owner: MemoryOwner, payload: Schemas["MemoryQueryPayload"]): Schemas["MemoryQueryResult"] {
    return {
      items: this.#ranked(owner, payload.scope, payload.query, payload.filters).slice(0, payload.top_k ?? 10),
      retrieval_id: randomUUID(),
      partial: false,
      stores_queried: ["local"],
    };
  }

  update(owner: MemoryOwner, payload: MemoryUpdate): Schemas["MemoryUpdateResult"] {
    if (payload.scope !== "agent") throw new MemoryRefusal(422, "Only agent memories are updated in place");
    const { item } = this.#own(owner, "agent", payload.memory_id);
    if (item.version !== payload.version) {
      throw new MemoryRefusal(
        409,
        `Memory ${payload.memory_id} is at version ${item.version}, not ${payload.version}: read it again`,
      );
    }
    const now = new Date().toISOString();
    if (payload.content !== undefined) item.content = payload.content;
    if (payload.tags !== undefined) item.metadata.tags = [...payload.tags];
    if (payload.confidence !== undefined) item.metadata.confidence = payload.confidence;
    if (payload.custom !== undefined) item.metadata.custom = payload.custom;
    item.metadata.updated_at = now;
    item.version++;
    return {
      memory_id: item.memory_id,
      scope: "agent",
      version: item.version,
      update_event_id: randomUUID(),
      updated_at: now,
    };
  }

  forget(owner: MemoryOwner, payload: Schemas["MemoryForgetPayload"]): Schemas["MemoryForgetResult"] {
    if (!WRITABLE.has(payload.scope)) throw new MemoryRefusal(422, `An agent cannot forget ${payload.scope} memory`);
    return this.#once(owner, "forget", payload.idempotency_key, () => {
      const stored = this.#own(owner, payload.scope, payload.memory_id);
      const list = this.#list(stored.key);
      list.splice(list.indexOf(stored), 1);
      this.#byId.delete(payload.memory_id);
      return { deleted_count: 1, delete_event_id: randomUUID() };
    });
  }

  /** Accepts a hint and consolidates it at once into a `user` memory of the run's user. */
  hint(owner: MemoryOwner, payload: Schemas["MemoryHintPayload"]): Schemas["MemoryHintResult"] {
    const hintId = `hint_${randomUUID()}`;
    const submitted = new Date().toISOString();
    const item = this.#add(
      owner,
      "user",
      { scope: "user", content: payload.hint, tags: payload.tags, source: "hint" },
      owner.agentId,
    );
    item.metadata.conversation_id = payload.conversation_id;
    this.#hints.set(hintId, {
      tenantId: owner.tenantId,
      agentId: owner.agentId,
      at: Date.now(),
      status: { hint_id: hintId, status: "consolidated", submitted_at: submitted, resolved_at: submitted },
    });
    return { hint_id: hintId, status: "accepted", message: "Consolidated into user memory at once (local platform)" };
  }

  /** A hint this agent submitted in the last 24 hours; 404 otherwise. */
  hintStatus(owner: MemoryOwner, payload: Schemas["MemoryHintStatusPayload"]): Schemas["MemoryHintStatus"] {
    const hint = this.#hints.get(payload.hint_id);
    const own = hint && hint.tenantId === owner.tenantId && hint.agentId === owner.agentId;
    if (!own || Date.now() - hint.at >= MEMORY_RETENTION_MS) throw new MemoryRefusal(404, `No hint ${payload.hint_id}`);
    return hint.status;
  }

  /** The gate's decision on a proposal of this agent's; 404 for any other id. */
  proposalStatus(owner: MemoryOwner, payload: Schemas["MemoryProposalStatusPayload"]): Schemas["MemoryProposalStatus"] {
    const proposal = this.#proposals.get(payload.proposal_id);
    const own = proposal && proposal.owner.tenantId === owner.tenantId && proposal.owner.agentId === owner.agentId;
    if (!own) throw new MemoryRefusal(404, `No proposal ${payload.proposal_id}`);
    return proposal.status;
  }

  /** The context bundle: user and agent memories ranked by the query, and the run's own memories. */
  assemble(owner: MemoryOwner, payload: Schemas["MemoryAssemblePayload"]): Schemas["MemoryAssembleResult"] {
    const topK = payload.top_k ?? 10;
    const filters = {
      ...(payload.memory_type !== undefined ? { memory_type: payload.memory_type } : {}),
      ...(payload.conversation_id !== undefined ? { conversation_id: payload.conversation_id } : {}),
    };
    const run = this.#live(owner, "run").map(({ item }) => ({ ...item, score: null }));
    return {
      durable_memories: this.#ranked(owner, "user", payload.query, filters).slice(0, topK),
      agent_memories: this.#ranked(owner, "agent", payload.query, filters).slice(0, topK),
      live_messages: [],
      run_data: run.length > 0 ? { memories: run } : null,
      sources_consulted: ["user", "agent", "run"],
      sources_skipped: ["live_messages"],
      partial: false,
      retrieval_id: randomUUID(),
    };
  }
}
