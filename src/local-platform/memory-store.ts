/**
 * The local platform's memories, in memory: one list per tenant, agent and
 * scope (`run` and `task` memories per run too). A memory has a version
 * that every update raises; an update naming another version is refused as
 * stale, as the Memory Service answers 409. A query ranks by the share of
 * the query's words found in a memory's text (a simple, real text search).
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
}

/** A refusal of the Memory Service, with its HTTP status (404 unknown memory, 409 stale version, 422 scope). */
export class MemoryRefusal extends Error {
  override readonly name = "MemoryRefusal";
  constructor(
    readonly status: 404 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

const EPHEMERAL = new Set(["run", "task"]);
const WRITABLE = new Set(["agent", "run", "task"]);

export class MemoryStore {
  readonly #lists = new Map<string, MemoryItem[]>();

  #list(owner: MemoryOwner, scope: string): MemoryItem[] {
    const key = [owner.tenantId, owner.agentId, scope, EPHEMERAL.has(scope) ? owner.runId : ""].join("\u0000");
    let list = this.#lists.get(key);
    if (!list) {
      list = [];
      this.#lists.set(key, list);
    }
    return list;
  }

  write(owner: MemoryOwner, payload: Schemas["MemoryWritePayload"]): Schemas["MemoryWriteResult"] {
    if (!WRITABLE.has(payload.scope)) {
      throw new MemoryRefusal(422, `An agent cannot write ${payload.scope} memory`);
    }
    const now = new Date().toISOString();
    const item: MemoryItem = {
      memory_id: `mem_${randomUUID()}`,
      scope: payload.scope as MemoryItem["scope"],
      content: payload.content,
      version: 1,
      metadata: {
        tags: [...(payload.tags ?? [])],
        source: payload.source ?? null,
        confidence: payload.confidence ?? null,
        custom: payload.custom ?? null,
        created_at: now,
        updated_at: now,
      },
    };
    this.#list(owner, payload.scope).push(item);
    return {
      memory_id: item.memory_id,
      scope: payload.scope,
      write_event_id: randomUUID(),
      created_at: now,
      durable: true,
    };
  }

  query(owner: MemoryOwner, payload: Schemas["MemoryQueryPayload"]): Schemas["MemoryQueryResult"] {
    const scored = this.#list(owner, payload.scope)
      .map((item) => ({ ...item, score: EPHEMERAL.has(payload.scope) ? null : textScore(payload.query, item.content) }))
      .filter((item) => EPHEMERAL.has(payload.scope) || (item.score ?? 0) > 0)
      .sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    return {
      items: scored.slice(0, payload.top_k ?? 10),
      retrieval_id: randomUUID(),
      partial: false,
      stores_queried: ["local"],
    };
  }

  update(owner: MemoryOwner, payload: MemoryUpdate): Schemas["MemoryUpdateResult"] {
    if (payload.scope !== "agent") throw new MemoryRefusal(422, "Only agent memories are updated in place");
    const item = this.#list(owner, "agent").find((candidate) => candidate.memory_id === payload.memory_id);
    if (!item) throw new MemoryRefusal(404, `No memory ${payload.memory_id}`);
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
}
