/**
 * What the Memory Service answers, as the SDK's result types (camelCase, the
 * reference's defaults filled in) read from the snake_case results of
 * openapi/memory.yaml. Readers are lenient field by field (http/json-fields.ts):
 * a service build that omits a field yields its default, never a throw.
 */
import type { components } from "../../gen/openapi/memory.js";
import {
  arrayField,
  booleanField,
  isRecord,
  type JsonRecord,
  numberField,
  optionalNumber,
  optionalRecord,
  optionalString,
  stringArray,
  stringField,
} from "../http/json-fields.js";

/** The optional kind of a memory; memories written without one never match a type filter. */
export type MemoryType = components["schemas"]["MemoryType"];
/** Where a memory lives: agents write `agent` and `run`; `user` via hints; `tenant` is admin only. */
export type MemoryScope = components["schemas"]["MemoryScope"];
export type MemoryClassification = components["schemas"]["MemoryClassification"];
export type HintPriority = NonNullable<components["schemas"]["MemoryHintPayload"]["priority"]>;

export const MEMORY_TYPES: readonly MemoryType[] = ["semantic", "episodic", "procedural"];
export const MEMORY_SCOPES: readonly MemoryScope[] = ["user", "agent", "run", "tenant", "task"];
export const MEMORY_CLASSIFICATIONS: readonly MemoryClassification[] = [
  "inferred",
  "explicit",
  "system",
  "confidential",
];
export const HINT_PRIORITIES: readonly HintPriority[] = ["low", "normal", "high"];

/** The prefix of a proposal id: a gated `agent`-scope write that is not durable yet. */
export const PROPOSAL_ID_PREFIX = "prop_";

export interface MemoryMetadata {
  tags: string[];
  source: string | undefined;
  conversationId: string | undefined;
  confidence: number | undefined;
  salience: number | undefined;
  memoryType: string | undefined;
  createdAt: string | undefined;
  updatedAt: string | undefined;
  lastAccessedAt: string | undefined;
  custom: Record<string, unknown> | undefined;
}

export interface MemoryItem {
  memoryId: string;
  /** `user`, `agent`, `run`, `tenant`, `task` or `platform`. */
  scope: string;
  content: string;
  /** Pass it to `update` as the optimistic lock. */
  version: number;
  metadata: MemoryMetadata;
  /** Similarity to the query (0–1) for durable scopes; undefined for `run` and `task` (key reads). */
  score: number | undefined;
}

export interface QueryResult {
  items: MemoryItem[];
  /** Opaque id for explaining this retrieval later. */
  retrievalId: string;
  /** True when some stores failed and the items are incomplete. */
  partial: boolean;
  storesQueried: string[];
}

export interface WriteResult {
  /** The memory's id, or a `prop_` proposal id when the write gate holds the write (`durable` false). */
  memoryId: string;
  scope: string;
  writeEventId: string;
  createdAt: string;
  /** False for a proposal: resolve it with `pollProposal`. */
  durable: boolean;
}

export interface UpdateResult {
  memoryId: string;
  scope: string;
  /** The new version: pass it to the next update. */
  version: number;
  updateEventId: string;
  updatedAt: string;
}

export interface ForgetResult {
  deletedCount: number;
  deleteEventId: string;
}

export interface HintResult {
  hintId: string;
  /** Acceptance only (`accepted`); whether the hint was stored is `hintStatus`. */
  status: string;
  message: string;
}

export interface HintStatus {
  hintId: string;
  /** `pending`, `consolidated`, `dead_lettered` or `expired`. */
  status: string;
  submittedAt: string | undefined;
  resolvedAt: string | undefined;
}

export interface ProposalStatus {
  proposalId: string;
  /** `committed`, `pending` or `rejected`. */
  status: string;
  /** Why it was rejected (`pii_detected`, `secrets_detected`). */
  reason: string | undefined;
  /** The durable memory's id, once committed. */
  memoryId: string | undefined;
}

export interface LiveMessage {
  messageId: string;
  /** `user`, `assistant`, `system` or `tool`. */
  role: string;
  content: string;
  timestamp: string;
}

/** One context bundle for a turn: durable and agent memories, live messages and the run's data. */
export interface AssembleResult {
  /** User-scope durable memories. */
  durableMemories: MemoryItem[];
  liveMessages: LiveMessage[];
  agentMemories: MemoryItem[];
  runData: Record<string, unknown> | undefined;
  sourcesConsulted: string[];
  /** Sources not consulted (a capability or id was missing). */
  sourcesSkipped: string[];
  /** True when a source failed (the bundle degrades instead of failing). */
  partial: boolean;
  retrievalId: string | undefined;
}

function memoryMetadata(value: unknown): MemoryMetadata {
  const m: JsonRecord = isRecord(value) ? value : {};
  return {
    tags: stringArray(m.tags),
    source: optionalString(m.source),
    conversationId: optionalString(m.conversation_id),
    confidence: optionalNumber(m.confidence),
    salience: optionalNumber(m.salience),
    memoryType: optionalString(m.memory_type),
    createdAt: optionalString(m.created_at),
    updatedAt: optionalString(m.updated_at),
    lastAccessedAt: optionalString(m.last_accessed_at),
    custom: optionalRecord(m.custom),
  };
}

/** A memory item; one without an id is skipped (it could be neither updated nor forgotten). */
function memoryItem(value: unknown): MemoryItem | undefined {
  if (!isRecord(value) || typeof value.memory_id !== "string") return undefined;
  return {
    memoryId: value.memory_id,
    scope: stringField(value.scope),
    content: stringField(value.content),
    version: numberField(value.version, 1),
    metadata: memoryMetadata(value.metadata),
    score: optionalNumber(value.score),
  };
}

function liveMessage(value: unknown): LiveMessage | undefined {
  if (!isRecord(value)) return undefined;
  return {
    messageId: stringField(value.message_id),
    role: stringField(value.role),
    content: stringField(value.content),
    timestamp: stringField(value.timestamp),
  };
}

export function queryResult(r: JsonRecord): QueryResult {
  return {
    items: arrayField(r.items, memoryItem),
    retrievalId: stringField(r.retrieval_id),
    partial: booleanField(r.partial),
    storesQueried: stringArray(r.stores_queried),
  };
}

/** `durable` is the service's when it says; else it is false exactly for a `prop_` id. */
export function writeResult(r: JsonRecord): WriteResult {
  const memoryId = stringField(r.memory_id);
  return {
    memoryId,
    scope: stringField(r.scope),
    writeEventId: stringField(r.write_event_id),
    createdAt: stringField(r.created_at),
    durable: booleanField(r.durable, !memoryId.startsWith(PROPOSAL_ID_PREFIX)),
  };
}

export function updateResult(r: JsonRecord): UpdateResult {
  return {
    memoryId: stringField(r.memory_id),
    scope: stringField(r.scope),
    version: numberField(r.version),
    updateEventId: stringField(r.update_event_id),
    updatedAt: stringField(r.updated_at),
  };
}

export function forgetResult(r: JsonRecord): ForgetResult {
  return { deletedCount: numberField(r.deleted_count), deleteEventId: stringField(r.delete_event_id) };
}

export function hintResult(r: JsonRecord): HintResult {
  return {
    hintId: stringField(r.hint_id),
    status: stringField(r.status, "accepted"),
    message: stringField(r.message),
  };
}

export function hintStatus(r: JsonRecord): HintStatus {
  return {
    hintId: stringField(r.hint_id),
    status: stringField(r.status, "pending"),
    submittedAt: optionalString(r.submitted_at),
    resolvedAt: optionalString(r.resolved_at),
  };
}

export function proposalStatus(r: JsonRecord): ProposalStatus {
  return {
    proposalId: stringField(r.proposal_id),
    status: stringField(r.status),
    reason: optionalString(r.reason),
    memoryId: optionalString(r.memory_id),
  };
}

export function assembleResult(r: JsonRecord): AssembleResult {
  return {
    durableMemories: arrayField(r.durable_memories, memoryItem),
    liveMessages: arrayField(r.live_messages, liveMessage),
    agentMemories: arrayField(r.agent_memories, memoryItem),
    runData: optionalRecord(r.run_data),
    sourcesConsulted: stringArray(r.sources_consulted),
    sourcesSkipped: stringArray(r.sources_skipped),
    partial: booleanField(r.partial),
    retrievalId: optionalString(r.retrieval_id),
  };
}
