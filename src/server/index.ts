/**
 * `@novaos/client-sdk/server`: the agent side — `AgentBuilder`, its Fetch
 * handler, the harness, stores and `TaskUpdater`, and the runtime pieces
 * skills use (context variables, logging, pod context). Runtime-neutral: it
 * serves on any Fetch runtime (Bun, Deno, workers); `/node` adds `listen()`
 * and the `node:http` handler, `/grpc` the gRPC binding.
 */

export { ContextVar, hasScope, LookupError, runInCopiedScope, runInNewScope } from "../runtime/context-var.js";
export {
  EXECUTION_TOKEN_ENV,
  ExecutionContext,
  type ExecutionContextFields,
  NOVAOS_CONTEXT_HEADERS,
} from "../runtime/execution-context.js";
export {
  type AgentLogFields,
  type CreateLoggerOptions,
  createLogger,
  defaultLogger,
  getAgentLogger,
  type Logger,
  type PiiMasker,
} from "../runtime/logger.js";

export {
  AgentBuilder,
  type AgentBuilderOptions,
  DEFAULT_INPUT_MODES,
  DEFAULT_OUTPUT_MODES,
  type ServeOptions,
} from "./agent-builder.js";
export { AGENT_CARD_MAX_AGE_SECONDS, type AgentCardOptions, type CardUrlOptions } from "./agent-card.js";
export {
  AgentExecutionContext,
  type ConversationTurn,
  type SkillMemoryOptions,
  type ToolsFactory,
} from "./agent-execution-context.js";
export {
  AgentRequestHandler,
  type AgentRequestHandlerOptions,
  DEFAULT_PUSH_CONFIG_PAGE_SIZE,
  type ExtendedAgentCardProvider,
} from "./agent-request-handler.js";
export type { AgentAuth } from "./auth/agent-auth.js";
export type { ApiKeyAuthOptions, ApiKeyLookup } from "./auth/api-key-auth.js";
export type {
  Authenticator,
  AuthRequest,
  SecurityRequirementInit,
  SecuritySchemeInit,
} from "./auth/authenticator.js";
export type { AuthorizeHook } from "./auth/authorize.js";
export type { BearerAuthOptions } from "./auth/bearer-auth.js";
export {
  ANONYMOUS_CALLER,
  CallerIdentity,
  type CallerIdentityInit,
  tenantUserPrincipal,
} from "./auth/caller-identity.js";
export type { CustomAuthOptions } from "./auth/custom-auth.js";
export type { ExecutionTokenAuthOptions, ExecutionTokenVerifier } from "./auth/execution-token-auth.js";
export { AuthNotConfiguredError } from "./auth/loopback.js";
export type { TrustedProxyAuthOptions } from "./auth/trusted-proxy-auth.js";
export type { ServerCallContext } from "./call-context.js";
export { type CancellationReason, CancelledError, isCancellation } from "./cancellation.js";
export { EventQueue, Subscription } from "./event-queue.js";
export type { OutputMasker, SkillHandler } from "./execution.js";
export { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from "./fetch-adapter.js";
export { type BatchedFrames, batchedFrames, FRAME_BATCHES, hasFrameBatches } from "./frame-batches.js";
export { agentHttpBindings } from "./http-bindings.js";
export type { HttpBinding, HttpBodyReply, HttpReply, HttpRequestLike, HttpStreamReply } from "./http-exchange.js";
export { HttpJsonBinding, type HttpJsonBindingOptions } from "./http-json/http-json-binding.js";
export { JsonRpcBinding, type JsonRpcBindingOptions } from "./jsonrpc-binding.js";
export { DEFAULT_LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE } from "./list-tasks.js";
export { DEFAULT_MAX_HISTORY_BYTES, HISTORY_TRIMMED_METADATA_KEY, type LiveTask } from "./live-task.js";
export { createPlatformTools, type PlatformToolsOptions, platformToolsFactory } from "./platform-tools.js";
export {
  DEFAULT_PUSH_BASE_DELAY_MS,
  DEFAULT_PUSH_CONCURRENCY,
  DEFAULT_PUSH_MAX_ATTEMPTS,
  DEFAULT_PUSH_MAX_DELAY_MS,
  DEFAULT_PUSH_MAX_QUEUED,
  DEFAULT_PUSH_TIMEOUT_MS,
  NOTIFICATION_TOKEN_HEADER,
  PushNotificationSender,
  type PushNotificationSenderOptions,
} from "./push/push-notification-sender.js";
export { MAX_WEBHOOK_URL_LENGTH } from "./push/webhook-config.js";
export {
  DEFAULT_MAX_PUSH_CONFIG_BYTES,
  DEFAULT_MAX_PUSH_CONFIGS,
  InMemoryPushNotificationConfigStore,
  type InMemoryPushNotificationConfigStoreOptions,
  type PushConfigPage,
  type PushConfigQuery,
  type PushNotificationConfigStore,
  type StoredPushConfig,
} from "./push-config-store.js";
export type { A2AHandlerMethod, A2ARequestHandler } from "./request-handler.js";
export { handlerMethodName } from "./request-handler.js";
export type { SecretCallInfo, SecretSource } from "./secret-source.js";
export {
  describeException,
  SKILL_STATUS_TO_TASK_STATE,
  type SkillResult,
  type SkillStatus,
  taskStateForSkillStatus,
} from "./skill-result.js";
export type { RegisteredSkill, SkillOptions } from "./skills.js";
export {
  CorruptRecordError,
  StoreError,
  StoreTimeoutError,
  StoreUnavailableError,
  TaskVersionConflictError,
} from "./store-errors.js";
export type { CoordinatedRun, TaskCoordinator } from "./task-coordinator.js";
export { compareTasks, matchesQuery, sortsAfter, statusTime } from "./task-order.js";
export {
  DEFAULT_MAX_TASK_BYTES,
  DEFAULT_MAX_TASKS,
  InMemoryTaskStore,
  type InMemoryTaskStoreOptions,
  type StoredTask,
  type TaskCursor,
  type TaskPage,
  type TaskQuery,
  type TaskStore,
  type TaskWriter,
} from "./task-store.js";
export { type AddArtifactOptions, type StatusMessage, TaskSealedError, TaskUpdater } from "./task-updater.js";
