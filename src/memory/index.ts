/** The Memory Service client and `ctx.memory` (below the agent side, which gives every skill its namespace). */
export { MAX_IDEMPOTENCY_KEY_CHARS, type MemoryCallerContext } from "./caller-context.js";
export {
  type AssembleOptions,
  DEFAULT_FORGET_REASON,
  type ForgetOptions,
  type HintOptions,
  MEMORY_SERVICE_URL_ENV,
  type MemoryCallOptions,
  MemoryClient,
  type MemoryClientOptions,
  type QueryOptions,
  type UpdateOptions,
  type WriteOptions,
} from "./memory-client.js";
export {
  MAX_LIVE_MESSAGE_LIMIT,
  MAX_MEMORY_CONTENT_BYTES,
  MAX_MEMORY_HINT_BYTES,
  MAX_REASON_CHARS,
  MAX_TAG_CHARS,
  MAX_TAGS,
  MAX_TOP_K,
} from "./memory-limits.js";
export { type ExecutionTokenSource, MemoryNamespace } from "./memory-namespace.js";
export type {
  AssembleResult,
  ForgetResult,
  HintPriority,
  HintResult,
  HintStatus,
  LiveMessage,
  MemoryClassification,
  MemoryItem,
  MemoryMetadata,
  MemoryScope,
  MemoryType,
  ProposalStatus,
  QueryResult,
  UpdateResult,
  WriteResult,
} from "./memory-results.js";
export { PROPOSAL_ID_PREFIX } from "./memory-results.js";
