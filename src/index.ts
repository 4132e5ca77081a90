/**
 * `@novaos/client-sdk`: the universal entry. The A2A data model, `Client`
 * over Fetch, the messages and their helpers, the typed errors — what runs
 * unchanged on Node, Bun, Deno, workers and in browsers. Nothing here loads a
 * Node built-in or a Node-only package; the other entries (`/server`, `/node`,
 * `/grpc`, `/discovery`, `/platform`, `/security`, `/protocol`, `/fleet`) add
 * the rest (docs/api.md lists every entry's names).
 *
 * The names are listed here explicitly, area by area; everything else is internal.
 */

// The JSON types of metadata, data parts and raw cards in the public signatures (protobuf-es's own).
export type { JsonObject, JsonValue } from "@bufbuild/protobuf";
// The A2A data model and service descriptor, generated from the pinned a2a.proto.
export * from "../gen/a2a_pb.js";
// The google.rpc details every A2A gRPC error carries (for connect-es users reading error details).
export {
  type BadRequest,
  BadRequestSchema,
  type ErrorInfo,
  ErrorInfoSchema,
} from "../gen/google/rpc/error_details_pb.js";
// What a user reaches for first: parts, messages, their text, tasks and streams, card lookups, protocol constants.
export * from "./a2a/agent-card-lookups.js";
export * from "./a2a/artifacts.js";
export * from "./a2a/constants.js";
export {
  A2AError,
  type A2AErrorOptions,
  A2AProtocolError,
  ContentTypeNotSupportedError,
  type ErrorDetail,
  ExtendedAgentCardNotConfiguredError,
  ExtensionSupportRequiredError,
  InternalError,
  InvalidAgentResponseError,
  InvalidParamsError,
  InvalidRequestError,
  JSONParseError,
  JsonRpcError,
  MethodNotFoundError,
  PermissionDeniedError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnauthenticatedError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from "./a2a/errors.js";
export * from "./a2a/extensions.js";
export { grpcDialUrl } from "./a2a/grpc-url.js";
export * from "./a2a/message-factory.js";
export * from "./a2a/parts.js";
// A2A messages to and from their wire JSON (ProtoJSON, REQUIRED fields, typed -32602 errors).
export { type DecodeOptions, decodeMessage, encodeMessage, encodeMessageText } from "./a2a/protojson.js";
export * from "./a2a/result-kind.js";
export * from "./a2a/stream-frame.js";
export * from "./a2a/stream-text.js";
export * from "./a2a/task-state.js";
export * from "./a2a/text.js";
export * from "./a2a/timestamps.js";
export { A2A_PROTOCOL_VERSION, A2A_SPEC_VERSION, A2A_VERSION_HEADER } from "./a2a/version.js";
export * from "./client/index.js";
// The NovaOS error hierarchy (the A2A protocol errors are listed above).
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
// Any failure on any binding (a connect-es ConnectError, a JSON-RPC error member, an HTTP+JSON error body) as the typed class.
export { toA2AError } from "./errors/to-a2a-error.js";
// What every HTTP caller shares: auth providers, the call deadline error, the body cap error.
export * from "./http/index.js";
export * from "./messages/index.js";
// Process configuration from the environment (allowed hosts, tool timeout, deployment environment).
export * from "./runtime/config.js";
