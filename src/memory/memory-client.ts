/**
 * `MemoryClient`: the Memory Service's tools over its one dispatch endpoint
 * (`POST /api/v1/mcp`, openapi/memory.yaml). The Memory Service is the one
 * internal service an agent calls directly rather than through the MCP
 * Gateway: memory sits on the critical path of every turn. It validates the
 * run's execution token itself, so the client sends that token as its bearer.
 *
 *   await using memory = new MemoryClient({ auth: new BearerTokenAuth(token) }); // MEMORY_SERVICE_URL
 *   const { memoryId, durable } = await memory.write("agent", "Reports need ISO 8601 ranges", { tags: ["api"] });
 *   const { items } = await memory.query("agent", "date formats");
 *
 * Inside a skill, `ctx.memory.client()` makes one bound to the run: its token,
 * its trace, and the skill's context for idempotency keys, hints and
 * correlation ids.
 *
 * Every call goes through the client's one resilience policy. Reads (query,
 * hint status, proposal status, assemble) are retried after a transient
 * failure; writes are retried only when they carry an idempotency key (the
 * service deduplicates them for 24 hours). A service refusal is typed: 400
 * NovaOSValidationError, 401 NovaOSAuthenticationError, 429
 * NovaOSRateLimitError, and 403 (another agent's memory), 404, 409 (a stale
 * version), 413 and 422 (a scope the caller may not write, content refused by
 * the PII/secret screen) NovaOSServerError with the status in `statusCode`,
 * as 5xx are.
 */
import type { components, paths } from "../../gen/openapi/memory.js";
import { NovaOSServerError, NovaOSValidationError } from "../errors/novaos-errors.js";
import {
  integer,
  oneOf,
  optionalInteger,
  optionalObject,
  optionalOneOf,
  optionalText,
  text,
} from "../http/argument-checks.js";
import { type JsonRecord, objectAnswer } from "../http/json-fields.js";
import { platformHttpError } from "../http/platform-http-error.js";
import { ServiceClient } from "../http/service-client.js";
import type { ServiceCallOptions, ServiceClientOptions } from "../http/service-connection.js";
import { type MemoryCallerContext, nextWriteIdempotencyKey } from "./caller-context.js";
import {
  MAX_LIVE_MESSAGE_LIMIT,
  MAX_MEMORY_CONTENT_BYTES,
  MAX_MEMORY_HINT_BYTES,
  MAX_REASON_CHARS,
  MAX_TOP_K,
  memoryChanges,
  optionalConfidence,
  optionalFilters,
  optionalTags,
  requestId,
  traceId,
} from "./memory-limits.js";
import {
  type AssembleResult,
  assembleResult,
  type ForgetResult,
  forgetResult,
  HINT_PRIORITIES,
  type HintPriority,
  type HintResult,
  type HintStatus,
  hintResult,
  hintStatus,
  MEMORY_CLASSIFICATIONS,
  MEMORY_SCOPES,
  MEMORY_TYPES,
  type MemoryClassification,
  type MemoryScope,
  type MemoryType,
  PROPOSAL_ID_PREFIX,
  type ProposalStatus,
  proposalStatus,
  type QueryResult,
  queryResult,
  type UpdateResult,
  updateResult,
  type WriteResult,
  writeResult,
} from "./memory-results.js";

/** The environment variable naming the Memory Service. */
export const MEMORY_SERVICE_URL_ENV = "MEMORY_SERVICE_URL";
export const DEFAULT_FORGET_REASON = "agent-requested";

const SERVICE = { name: "Memory Service", urlVariable: MEMORY_SERVICE_URL_ENV } as const;
const ROUTE = "/api/v1/mcp";
/** Refusals about the memory asked for, reported as NovaOSServerError with the status (never retried). */
const DECISIONS: ReadonlySet<number> = new Set([403, 404, 409, 413, 422]);

type ToolName = components["schemas"]["MemoryToolName"];
type Schemas = components["schemas"];

export interface MemoryClientOptions extends ServiceClientOptions {
  /**
   * The skill context the client works for: each `write` without a key gets
   * the next key derived from it, `hint` takes its conversation, every call
   * its run id and trace id as `request_id` / `trace_id`. A call's own `ctx`
   * overrides it.
   */
  context?: MemoryCallerContext | undefined;
}

export interface MemoryCallOptions extends ServiceCallOptions {
  /** Correlation id for the service's logs (1–128 characters); default the context's run id. */
  requestId?: string | undefined;
  /** The W3C trace id for the service's logs; default the context's. */
  traceId?: string | undefined;
  /** The skill context for this call; default the client's. */
  ctx?: MemoryCallerContext | undefined;
}

export interface QueryOptions extends MemoryCallOptions {
  /** 1–100, default 10. */
  topK?: number | undefined;
  /** `tags` (all must match), `after`, `before`, `classification`, `memory_type`, `conversation_id`. */
  filters?: Schemas["MemoryFilters"] | undefined;
  /** Only memories written with this type (applied before `topK`); shortcut for `filters.memory_type`. */
  memoryType?: MemoryType | undefined;
  /** Durable scopes only: memories written under this conversation; shortcut for `filters.conversation_id`. */
  conversationId?: string | undefined;
  tokenBudget?: number | undefined;
  latencyBudgetMs?: number | undefined;
}

export interface WriteOptions extends MemoryCallOptions {
  /** At most 20 of at most 64 characters. */
  tags?: string[] | undefined;
  source?: string | undefined;
  /** 0–1. */
  confidence?: number | undefined;
  custom?: Record<string, unknown> | undefined;
  memoryType?: MemoryType | undefined;
  /** The memory's lifetime; the service enforces its own bounds per scope. */
  ttlSeconds?: number | undefined;
  classification?: MemoryClassification | undefined;
  /** Deduplicates the write for 24 hours. Default: derived from the context (`<ctx key>:memory.write:<n>`). */
  idempotencyKey?: string | undefined;
}

export interface UpdateOptions extends MemoryCallOptions {
  /** New content (at most 32 KiB). At least one of content, tags, confidence, custom is required. */
  content?: string | undefined;
  tags?: string[] | undefined;
  confidence?: number | undefined;
  custom?: Record<string, unknown> | undefined;
}

export interface ForgetOptions extends MemoryCallOptions {
  /** For the audit trail, 1–500 characters. Default `agent-requested`. */
  reason?: string | undefined;
  /** Deduplicates the delete for 24 hours. */
  idempotencyKey?: string | undefined;
}

export interface HintOptions extends MemoryCallOptions {
  /** The conversation to consolidate from; default the context's `contextId`. */
  conversationId?: string | undefined;
  /** Default `normal`. */
  priority?: HintPriority | undefined;
  tags?: string[] | undefined;
  /** Extra context for the consolidation worker. */
  context?: string | undefined;
}

export interface AssembleOptions extends MemoryCallOptions {
  /** Durable memories per scope, 1–100, default 10. */
  topK?: number | undefined;
  /** 1–100, default 20. */
  liveMessageLimit?: number | undefined;
  /** The bundle's token budget (for example from `ctx.memoryBudget`); default the service's. */
  tokenBudget?: number | undefined;
  latencyBudgetMs?: number | undefined;
  memoryType?: MemoryType | undefined;
  /** Narrows durable recall to this conversation (live messages always come from the token's own). */
  conversationId?: string | undefined;
}

export class MemoryClient extends ServiceClient<paths> {
  readonly #context: MemoryCallerContext | undefined;

  constructor(options: MemoryClientOptions = {}) {
    super(SERVICE, options);
    this.#context = options.context;
  }

  /** Memories of one scope ranked by similarity to `query` (durable scopes) or read by key (`run`, `task`). */
  async query(scope: MemoryScope, query: string, options: QueryOptions = {}): Promise<QueryResult> {
    const filters = optionalFilters(options.filters) ?? {};
    if (options.memoryType !== undefined) filters.memory_type = oneOf(options.memoryType, MEMORY_TYPES, "memoryType");
    if (options.conversationId !== undefined) filters.conversation_id = text(options.conversationId, "conversationId");
    const payload: Schemas["MemoryQueryPayload"] = {
      scope: oneOf(scope, MEMORY_SCOPES, "scope"),
      query: text(query, "query"),
      top_k: integer(options.topK ?? 10, "topK", 1, MAX_TOP_K),
      ...(Object.keys(filters).length > 0 ? { filters } : {}),
      ...budgets(options),
    };
    return queryResult(await this.#dispatch("memory.query", payload, true, options));
  }

  /**
   * A new memory in `agent` scope (the agent's own) or `run` scope (ephemeral).
   * `user` (submit a `hint`) and `tenant` (administrators) are refused by the
   * service with 422. A gated `agent` write answers a `prop_` proposal id with
   * `durable: false`: resolve it with `pollProposal`.
   */
  async write(scope: MemoryScope, content: string, options: WriteOptions = {}): Promise<WriteResult> {
    const payload: Schemas["MemoryWritePayload"] = {
      scope: oneOf(scope, MEMORY_SCOPES, "scope"),
      content: text(content, "content", { maxBytes: MAX_MEMORY_CONTENT_BYTES }),
      ...defined("tags", optionalTags(options.tags)),
      ...defined("source", optionalText(options.source, "source")),
      ...defined("confidence", optionalConfidence(options.confidence)),
      ...defined("custom", optionalObject(options.custom, "custom")),
      ...defined("memory_type", optionalOneOf(options.memoryType, MEMORY_TYPES, "memoryType")),
      ...defined("ttl_seconds", optionalInteger(options.ttlSeconds, "ttlSeconds", 1)),
      ...defined("classification", optionalOneOf(options.classification, MEMORY_CLASSIFICATIONS, "classification")),
    };
    const ctx = options.ctx ?? this.#context;
    const key =
      optionalText(options.idempotencyKey, "idempotencyKey", { maxChars: 256 }) ??
      (ctx ? await nextWriteIdempotencyKey(ctx) : undefined);
    if (key !== undefined) payload.idempotency_key = key;
    return writeResult(await this.#dispatch("memory.write", payload, key !== undefined, options));
  }

  /**
   * Changes one of the agent's own `agent`-scope memories in place, at once
   * (no proposal gate). `version` is the version last read: a stale one is a
   * NovaOSServerError with `statusCode` 409 (read again, then retry).
   */
  async update(scope: MemoryScope, memoryId: string, version: number, options: UpdateOptions): Promise<UpdateResult> {
    const changes = memoryChanges(options);
    // The generated type of this payload is `unknown` (its `anyOf`); the write payload types its fields.
    const payload: Pick<Schemas["MemoryWritePayload"], "scope"> & { memory_id: string; version: number } = {
      scope: oneOf(scope, MEMORY_SCOPES, "scope"),
      memory_id: text(memoryId, "memoryId"),
      version: integer(version, "version", 1),
      ...changes,
    };
    return updateResult(await this.#dispatch("memory.update", payload, false, options));
  }

  /** Deletes one memory; 404 (no such memory) is a NovaOSServerError with `statusCode` 404. */
  async forget(scope: MemoryScope, memoryId: string, options: ForgetOptions = {}): Promise<ForgetResult> {
    const key = optionalText(options.idempotencyKey, "idempotencyKey", { maxChars: 256 });
    const payload: Schemas["MemoryForgetPayload"] = {
      scope: oneOf(scope, MEMORY_SCOPES, "scope"),
      memory_id: text(memoryId, "memoryId"),
      reason: text(options.reason ?? DEFAULT_FORGET_REASON, "reason", { maxChars: MAX_REASON_CHARS }),
      ...defined("idempotency_key", key),
    };
    return forgetResult(await this.#dispatch("memory.forget", payload, key !== undefined, options));
  }

  /**
   * A hint for the consolidation pipeline, which decides what reaches user
   * memory. Fire-and-forget: acceptance is not persistence (`hintStatus`).
   * Needs a conversation: `conversationId`, else the context's `contextId`.
   */
  async hint(hint: string, options: HintOptions = {}): Promise<HintResult> {
    const conversationId = options.conversationId ?? ((options.ctx ?? this.#context)?.contextId || undefined);
    if (conversationId === undefined) {
      throw new NovaOSValidationError("hint needs a conversation: pass conversationId, or a ctx with a contextId", {
        field: "conversationId",
      });
    }
    const payload: Schemas["MemoryHintPayload"] = {
      hint: text(hint, "hint", { maxBytes: MAX_MEMORY_HINT_BYTES }),
      conversation_id: text(conversationId, "conversationId"),
      priority: oneOf(options.priority ?? "normal", HINT_PRIORITIES, "priority"),
      ...defined("tags", optionalTags(options.tags)),
      ...defined("context", optionalText(options.context, "context")),
    };
    return hintResult(await this.#dispatch("memory.hint", payload, false, options));
  }

  /** What became of a hint this agent submitted (kept 24 hours); 404 when unknown, aged out or another agent's. */
  async hintStatus(hintId: string, options: MemoryCallOptions = {}): Promise<HintStatus> {
    const payload: Schemas["MemoryHintStatusPayload"] = { hint_id: text(hintId, "hintId") };
    return hintStatus(await this.#dispatch("memory.hint_status", payload, true, options));
  }

  /** The write gate's decision on a `prop_` proposal; `memoryId` is the durable id once committed. */
  async pollProposal(proposalId: string, options: MemoryCallOptions = {}): Promise<ProposalStatus> {
    const id = text(proposalId, "proposalId");
    if (!id.startsWith(PROPOSAL_ID_PREFIX) || id.length === PROPOSAL_ID_PREFIX.length) {
      throw new NovaOSValidationError(
        `proposalId must be a ${PROPOSAL_ID_PREFIX} proposal id, got ${JSON.stringify(id)}`,
        {
          field: "proposalId",
        },
      );
    }
    const payload: Schemas["MemoryProposalStatusPayload"] = { proposal_id: id };
    return proposalStatus(await this.#dispatch("memory.proposal_status", payload, true, options));
  }

  /**
   * One context bundle for a turn, gathered by the service in parallel: user
   * durable memories, agent memories, live messages and run data. A source
   * that fails is skipped (`partial`), not fatal.
   */
  async assembleContext(query: string, options: AssembleOptions = {}): Promise<AssembleResult> {
    const payload: Schemas["MemoryAssemblePayload"] = {
      query: text(query, "query"),
      top_k: integer(options.topK ?? 10, "topK", 1, MAX_TOP_K),
      live_message_limit: integer(options.liveMessageLimit ?? 20, "liveMessageLimit", 1, MAX_LIVE_MESSAGE_LIMIT),
      ...budgets(options),
      ...defined("memory_type", optionalOneOf(options.memoryType, MEMORY_TYPES, "memoryType")),
      ...defined("conversation_id", optionalText(options.conversationId, "conversationId")),
    };
    return assembleResult(await this.#dispatch("memory.assemble", payload, true, options));
  }

  /** One tool call: the envelope, the policy, and the result checked to be the tool's. */
  async #dispatch(
    tool: ToolName,
    payload: object,
    idempotent: boolean,
    options: MemoryCallOptions,
  ): Promise<JsonRecord> {
    const ctx = options.ctx ?? this.#context;
    const context: Schemas["MemoryCallContext"] = {
      ...defined("request_id", requestId(options.requestId, ctx?.runId)),
      ...defined("trace_id", traceId(options.traceId, ctx?.traceId)),
    };
    const body: Schemas["MemoryRequest"] = {
      tool,
      payload: payload as Record<string, unknown>,
      ...(Object.keys(context).length > 0 ? { context } : {}),
    };
    const operation = `${SERVICE.name} ${tool}`;
    const { body: answer } = await this.connection.json(
      {
        method: "POST",
        route: ROUTE,
        idempotent,
        send: (signal, headers) => this.connection.api.POST(ROUTE, { body, headers, signal, parseAs: "stream" }),
        error: (response, error) => platformHttpError(response, error, { operation, decisions: DECISIONS }),
      },
      options,
    );
    const envelope = objectAnswer(answer, operation);
    if (envelope.tool !== undefined && envelope.tool !== tool) {
      throw new NovaOSServerError(`${operation} answered the result of ${JSON.stringify(envelope.tool)}`, {
        details: { tool: envelope.tool },
      });
    }
    return objectAnswer(envelope.result, operation);
  }
}

/** `{ [key]: value }` when the value is set, else `{}`: payloads never carry undefined. */
function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function budgets(options: { tokenBudget?: number | undefined; latencyBudgetMs?: number | undefined }) {
  return {
    ...defined("token_budget", optionalInteger(options.tokenBudget, "tokenBudget", 1)),
    ...defined("latency_budget_ms", optionalInteger(options.latencyBudgetMs, "latencyBudgetMs", 1)),
  };
}
