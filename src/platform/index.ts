/**
 * `@novaos/client-sdk/platform`: NovaOS platform services over their OpenAPI
 * specs (the Execution Gateway, Memory, run observability, heartbeat, MCP
 * and LLM clients), and the foundations of the platform
 * clients and tools: the one retry + circuit-breaker policy and the clock it
 * waits on, W3C trace context and spans over `@opentelemetry/api` (an
 * optional peer: no-op without it; `configureOtel` exports over OTLP), and
 * JSON Schema validation of caller-supplied schemas; and the platform tools
 * a skill reaches as `ctx.tools` (`src/tools/`: `ToolBindings`, one class per
 * tool, their errors, `EvaluationContext`), for use outside a skill too.
 */

export { DEFAULT_MAX_RESPONSE_BYTES } from "../http/service-connection.js";
// The Memory Service client lives below the agent side (src/memory/), which gives every skill its `ctx.memory`.
export * from "../memory/index.js";
export { backoffDelayMs } from "../runtime/backoff.js";
export { type Clock, systemClock } from "../runtime/clock.js";
export { configureOtel, type OtelOptions } from "../runtime/configure-otel.js";
export {
  type BreakerState,
  CircuitOpenError,
  DEFAULT_BASE_DELAY_MS,
  DEFAULT_BREAKER_RESET_MS,
  DEFAULT_BREAKER_THRESHOLD,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_MAX_RETRY_AFTER_MS,
  type ResilienceOptions,
  ResiliencePolicy,
  type ResilientCallOptions,
} from "../runtime/resilience.js";
export { MAX_VIOLATIONS, type SchemaViolation, validateAgainstSchema } from "../runtime/schema-validation.js";
export {
  extractParentId,
  extractTraceId,
  getTraceparent,
  injectTraceHeaders,
  isValidTraceparent,
  propagateTrace,
  TRACEPARENT_ENV,
} from "../runtime/traceparent.js";
export { type ToolCallTraceOptions, TRACER_NAME, tracedGatewayCall, tracedToolCall } from "../runtime/tracing.js";
export * from "../tools/index.js";
export { Attachment, type AttachmentInit, type AttachmentJson } from "./attachment.js";
export {
  DEFAULT_GATEWAY_TIMEOUT_MS,
  DEFAULT_RECONNECT_INITIAL_BACKOFF_MS,
  DEFAULT_RECONNECT_MAX_BACKOFF_MS,
  DEFAULT_RECONNECT_MAX_RETRIES,
  type EventsOptions,
  type ExecuteOptions,
  type ExecuteResponseJson,
  type ExecuteResult,
  type GatewayCallOptions,
  GatewayClient,
  type GatewayClientOptions,
  MAX_INPUT_TEXT_CHARS,
  type ReconnectOptions,
  type ServiceRun,
} from "./gateway-client.js";
export {
  type CreateHeartbeatConfig,
  DEFAULT_HEARTBEAT_TIMEZONE,
  type HeartbeatBudget,
  type HeartbeatBudgetJson,
  HeartbeatClient,
  type HeartbeatConfig,
  type HeartbeatConfigCreated,
  type HeartbeatConfigStatus,
  type HeartbeatSchedule,
  type HeartbeatTrigger,
  NOVAOS_AGENT_OPS_URL_ENV,
} from "./heartbeat-client.js";
export {
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionCreateParams,
  type ChatCompletionCreateParamsNonStreaming,
  type ChatCompletionCreateParamsStreaming,
  type CreateEmbeddingResponse,
  DEFAULT_LLM_TIMEOUT_MS,
  type EmbeddingCreateParams,
  InsufficientQuotaError,
  LLM_GATEWAY_URL_ENV,
  LLMClient,
  type LLMClientOptions,
  type LLMModel,
  type LLMRequestOptions,
} from "./llm-client.js";
export { MAX_EVENT_LINE_BYTES } from "./llm-fetch.js";
export {
  MAX_TOOLS_LIST_PAGES,
  type MCPCallOptions,
  MCPClient,
} from "./mcp-client.js";
export { type MCPContentBlock, MCPTool, type MCPToolAnnotations, MCPToolResult } from "./mcp-tool.js";
export {
  DEBUG_ACTIONS,
  type DebugAction,
  type DebugControlOptions,
  type DebugControlResult,
  type EventsRoute,
  MAX_RUN_EVENTS_LIMIT,
  NOVAOS_GATEWAY_URL_ENV,
  ObservabilityClient,
  type RunEventsOptions,
} from "./observability-client.js";
export { type RunEvent, RunEventsPage } from "./run-events.js";
export {
  CHUNK_EVENT_TYPE,
  FAILED_RUN_STATUSES,
  type GatewayEventJson,
  type RunStatus,
  StreamEvent,
  type StreamEventInit,
  TERMINAL_RUN_STATUSES,
} from "./stream-event.js";
