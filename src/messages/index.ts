/**
 * NovaOS messages: the wire conventions that ride on A2A messages (payload
 * types generated from proto/novaos/v1), and MessageBuilder, MessageParser and
 * MessageValidator over them.
 */
export * from "../../gen/novaos/v1/error_message_pb.js";
export * from "../../gen/novaos/v1/hitl_pb.js";
export * from "../../gen/novaos/v1/metadata_pb.js";
export * from "../../gen/novaos/v1/pause_pb.js";
// The generated turn is exported as `ConversationTurnMessage`: `ConversationTurn` is the plain shape
// `ctx.history` hands skills (src/server), which must stay free of `$typeName` for LLM APIs.
export {
  type ConversationTurn as ConversationTurnMessage,
  ConversationTurnSchema,
  file_novaos_v1_platform_context,
  type PlatformContext,
  PlatformContextSchema,
} from "../../gen/novaos/v1/platform_context_pb.js";
export * from "../../gen/novaos/v1/progress_pb.js";
export * from "../../gen/novaos/v1/tool_event_pb.js";
export { isA2AShaped, isA2AShaped as isA2AMessage } from "./a2a-shape.js";
export {
  ARTIFACT_REVISION_KEY,
  artifactRevision,
  DEFAULT_ARTIFACT_REVISION,
  revisedArtifact,
  withArtifactRevision,
} from "./artifact-revision.js";
export { type ErrorMessageOptions, ErrorMessages, errorMessage, skillErrorPart } from "./error-message.js";
export {
  DEFAULT_SUBMIT_ACTION,
  HITL_METADATA_KEYS,
  type HitlActionInit,
  type HitlDetails,
  type HitlDetailsInit,
  HitlMessages,
  type HitlOptions,
  hitlDetails,
  hitlMessage,
  type InputFieldInit,
  type InputValidationInit,
  type ProgressDataInit,
  packHitlDetails,
  requiresUserActionByDefault,
} from "./hitl-message.js";
export { type HitlResponseOptions, hitlResponse } from "./hitl-response.js";
export * from "./message-builder.js";
export * from "./message-parser.js";
export * from "./message-validator.js";
export { hasNovaOSMetadataPart, novaosMetadataPart, novaosPayloads, skillMetadataPart } from "./metadata-part.js";
export {
  callIdProblem,
  type OAuthRequiredInit,
  type PauseRead,
  readOAuthRequired,
  readWriteConfirmationRequired,
  type WriteConfirmationRequiredInit,
} from "./pause.js";
export { type PlatformContextInit, platformContextMetadata, readPlatformContext } from "./platform-context.js";
export { type ProgressMessageOptions, progressMessage } from "./progress-message.js";
export { Author, MessagePart, SimpleMessage } from "./simple-message.js";
export { type ToolResultInit, toolCallEvent, toolEventsPart, toolResultEvent } from "./tool-event.js";
export * from "./vocabulary.js";
export * from "./wire-keys.js";
