/**
 * @novaos/client-sdk — build and call NovaOS agents over A2A v1.0.1.
 *
 * The public API is listed here explicitly, area by area; everything else is internal.
 */

// The A2A data model and service descriptor, generated from the pinned a2a.proto.
export * from "../gen/a2a_pb.js";
// For tools that speak the gRPC binding themselves (novaos-a2a check reads error details and dials card URLs):
// the google.rpc details every A2A gRPC error carries, and the dial URL of a card's gRPC interface URL.
export {
  type BadRequest,
  BadRequestSchema,
  type ErrorInfo,
  ErrorInfoSchema,
} from "../gen/google/rpc/error_details_pb.js";
export { grpcDialUrl } from "./a2a/grpc-url.js";
// The A2A protocol layer: errors, JSON-RPC envelope, SSE, version and extension headers, task helpers.
export * from "./a2a/index.js";
export * from "./capabilities/index.js";
export * from "./client/index.js";
export * from "./discovery/index.js";
// The NovaOS error hierarchy (the A2A protocol errors are re-exported above).
export {
  A2A_ERROR_SPEC_VERSION,
  A2A_ERROR_TYPES,
  AgentCardSignatureError,
  a2aErrorForCode,
  a2aErrorFromJsonRpc,
  errorFromJsonRpc,
  InvalidAgentCardSignatureError,
  isMethodUnavailable,
  JSONRPC_CODE_DETAIL_KEY,
  jsonRpcErrorCode,
  METHOD_UNAVAILABLE_ERROR_CODES,
  MissingExecutionTokenError,
  NoAgentCardSignatureError,
  NovaOSAgentNotFoundError,
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  NovaOSDNSAgentNotFoundError,
  NovaOSDNSConnectionError,
  NovaOSDNSError,
  NovaOSDNSRateLimitError,
  NovaOSError,
  type NovaOSErrorOptions,
  NovaOSRateLimitError,
  NovaOSServerError,
  NovaOSValidationError,
  RETRYABLE_HTTP_STATUSES,
  RecipientKeyUnavailableError,
  SealedEnvelopeError,
  SealedEnvelopeFormatError,
  SecretNotDeliveredError,
} from "./errors/index.js";
// What every HTTP caller shares: auth providers, the call deadline error, the body cap error.
export * from "./http/index.js";
export * from "./messages/index.js";
export * from "./platform/index.js";
// Foundations of the platform clients and tools: the one retry + circuit-breaker policy and the clock it waits on,
// W3C trace context and spans over @opentelemetry/api (no-op without an SDK; configureOtel exports over OTLP),
// and JSON Schema validation of caller-supplied schemas.
export { backoffDelayMs } from "./runtime/backoff.js";
export { type Clock, systemClock } from "./runtime/clock.js";
// Process configuration from the environment (allowed hosts, tool timeout, deployment environment).
export * from "./runtime/config.js";
export { configureOtel, type OtelOptions } from "./runtime/configure-otel.js";
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
} from "./runtime/resilience.js";
export { MAX_VIOLATIONS, type SchemaViolation, validateAgainstSchema } from "./runtime/schema-validation.js";
export {
  extractParentId,
  extractTraceId,
  getTraceparent,
  injectTraceHeaders,
  isValidTraceparent,
  propagateTrace,
  TRACEPARENT_ENV,
} from "./runtime/traceparent.js";
export { type ToolCallTraceOptions, TRACER_NAME, tracedGatewayCall, tracedToolCall } from "./runtime/tracing.js";
export * from "./security/index.js";
export * from "./server/index.js";
export * from "./tools/index.js";
