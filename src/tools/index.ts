/** The platform tools (`ctx.tools`): every tool of the MCP Gateway, over one governed call per run. */
export { type AgentsCallArguments, AgentsTool, type AgentTaskResult } from "./agents-tool.js";
export { type BrowserStep, BrowserTool } from "./browser-tool.js";
export { type CodeLanguage, CodeTool } from "./code-tool.js";
export { type ConnectorCallOptions, type ConnectorResult, ConnectorTool, MAX_PARAMS_BYTES } from "./connector-tool.js";
export { EvaluationContext, type EvaluationToolCall } from "./evaluation-context.js";
export { type FileInfo, FilesTool } from "./files-tool.js";
export { GatewayRpcCode } from "./gateway-rpc-error.js";
export { HITLTool } from "./hitl-tool.js";
export { HTTPTool, type HttpMethod, type HttpResponseResult } from "./http-tool.js";
export {
  BATCH_CONCURRENCY_LIMIT,
  type BatchIngestResponse,
  DEFAULT_BASE_DELAY_S,
  DEFAULT_MAX_RETRIES,
  INGEST_TIMEOUT_S,
  type IngestBatchOptions,
  type IngestItem,
  type IngestJobStatus,
  type KnowledgeDocumentMetadata,
  type KnowledgeJobState,
  type KnowledgeSearchArguments,
  KnowledgeTool,
  TERMINAL_GRAPH_STATES,
  TERMINAL_JOB_STATES,
} from "./knowledge-tool.js";
export { MCP_SESSION_ID_HEADER, type McpSession } from "./mcp-session.js";
export {
  type CallToolResult,
  DEFAULT_MAX_REPLY_BYTES,
  MAX_REQUEST_BYTES,
  McpToolGateway,
  type McpToolGatewayOptions,
  type ToolResilienceOptions,
} from "./mcp-tool-gateway.js";
export {
  type MemoryAssembleArguments,
  type MemoryChanges,
  type MemoryForgetArguments,
  type MemoryHintArguments,
  type MemoryQueryArguments,
  MemoryTool,
  type MemoryWriteArguments,
} from "./memory-tool.js";
export { type NotifySendArguments, NotifyTool } from "./notify-tool.js";
export { DEFAULT_POLL_INTERVAL_S, type PollOptions } from "./poll.js";
export { ToolBinding } from "./tool-binding.js";
export { ToolBindings, type ToolBindingsOptions } from "./tool-bindings.js";
export {
  MAX_EVENT_VALUE_BYTES,
  ToolCaller,
  type ToolCallerOptions,
  type ToolCallOptions,
  type ToolEventSink,
} from "./tool-caller.js";
export {
  type CatalogToolName,
  TOOL_FLAGS,
  type ToolArguments,
  type ToolCatalog,
  type ToolFlags,
  type ToolResult,
} from "./tool-catalog.js";
export {
  HitlUnavailableError,
  MCP_GATEWAY_URL_ENV,
  PollTimeoutError,
  ServiceDisabledError,
  ToolCallError,
  ToolError,
  ToolNotFoundError,
  ToolsNotConfiguredError,
  WriteConfirmationRequiredError,
} from "./tool-errors.js";
export { CONNECTOR_TIERS, type ConnectorTier, connectorToolName } from "./tool-names.js";
export { READ_VERBS, requiresWriteHitl } from "./write-class.js";
