/**
 * `@novaos/client-sdk/local-platform`: the NovaOS platform services on one
 * machine, for running, demoing and testing agents end to end without a
 * cluster. Its own entry, so nothing of it lands in a client or agent
 * bundle. See docs/local-platform.md.
 */
export { DEFAULT_DNS_PAGE_SIZE, LOCAL_REGISTER_PATH } from "./agent-dns-service.js";
export {
  AgentRegistry,
  INSTANCE_ID_METADATA_KEY,
  type RegisterAgentOptions,
  type RegisteredAgent,
} from "./agent-registry.js";
export {
  type ChainLink,
  EXECUTION_TOKEN_TTL_SECONDS,
  type ExecutionTokenGrant,
  ExecutionTokenIssuer,
  LOCAL_TOKEN_ISSUER,
  type MintOptions,
  type WriteConfirmation,
} from "./execution-tokens.js";
export { LOCAL_USER_ID } from "./gateway-service.js";
export { type HeartbeatFiring, HeartbeatScheduler, MAX_KEPT_FIRINGS, wallClock } from "./heartbeat-scheduler.js";
export {
  type LlmGatewayOptions,
  LOCAL_CHAT_MODEL,
  LOCAL_EMBEDDING_MODEL,
  LOCAL_MODEL_FINGERPRINT,
} from "./llm-gateway-service.js";
export { LOCAL_CONTEXT_WINDOW_TOKENS, NOTHING_FOUND } from "./local-chat-model.js";
export { LOCAL_EMBEDDING_DIMENSIONS } from "./local-embedding-model.js";
export {
  LOCAL_SERVICES,
  LOCAL_TENANT,
  type LocalPlatform,
  type LocalPlatformOptions,
  type LocalService,
  startLocalPlatform,
} from "./local-platform.js";
export {
  DEFAULT_REJECTION_REASON,
  MEMORY_RETENTION_MS,
  type MemoryProposal,
  type MemoryProposalReview,
} from "./memory-store.js";
export { RUN_EVENTS_PAGE_SIZE } from "./observability-service.js";
export { platformEnv, platformEnvFile, TOKEN_ISSUER_ENV } from "./platform-env.js";
export type { Run, RunEvent, RunStatus } from "./run.js";
export { registerWithLocalPlatform, type SelfRegisterOptions } from "./self-register.js";
export {
  type EventStreamReply,
  type ExtraRoute,
  type JsonReply,
  MAX_REQUEST_BODY_BYTES,
  type OperationCall,
  type OperationHandler,
  PlatformReplyError,
  SpecRouter,
  type SpecRouterOptions,
} from "./spec-router.js";
export { type SpecViolationDirection, SpecViolationError } from "./spec-violation.js";
export { MAX_CALL_DEPTH } from "./tools/agents-tools.js";
export {
  type ConnectorCall,
  type ConnectorHandler,
  ConnectorRegistry,
  ECHO_CONNECTOR_ID,
} from "./tools/connector-tools.js";
export type { Notification } from "./tools/notify-tools.js";
export { APPROVING_ANSWER } from "./tools/write-confirmation.js";
