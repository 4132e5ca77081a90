/**
 * `ToolBindings`: every platform tool of one run, over one governed call
 * (`ToolCaller`) to the MCP Gateway. Inside an agent it is `ctx.tools`,
 * built for each run from that run's token, tenant, trace and custom
 * headers; outside one, build it yourself:
 *
 *   const tools = new ToolBindings({ gateway: "http://mcp-gateway:8080", token, tenantId });
 *   const { results } = await tools.knowledge.search("refund policy", { top_k: 5 });
 */
import { AgentsTool } from "./agents-tool.js";
import { BrowserTool } from "./browser-tool.js";
import { CodeTool } from "./code-tool.js";
import { ConnectorTool } from "./connector-tool.js";
import { FilesTool } from "./files-tool.js";
import { HITLTool } from "./hitl-tool.js";
import { HTTPTool } from "./http-tool.js";
import { KnowledgeTool } from "./knowledge-tool.js";
import { MemoryTool } from "./memory-tool.js";
import { NotifyTool } from "./notify-tool.js";
import { ToolCaller, type ToolCallerOptions, type ToolCallOptions, type ToolEventSink } from "./tool-caller.js";
import type { CatalogToolName, ToolArguments, ToolResult } from "./tool-catalog.js";

export type ToolBindingsOptions = ToolCallerOptions;

export class ToolBindings {
  /** The one governed call every tool below makes. */
  readonly caller: ToolCaller;
  readonly knowledge: KnowledgeTool;
  readonly memory: MemoryTool;
  readonly connector: ConnectorTool;
  readonly agents: AgentsTool;
  readonly hitl: HITLTool;
  readonly files: FilesTool;
  readonly notify: NotifyTool;
  readonly http: HTTPTool;
  readonly browser: BrowserTool;
  readonly code: CodeTool;

  /** A bad default timeout (or one below `gatewayTimeoutS`) is a RangeError; a bad gateway URL NovaOSValidationError. */
  constructor(options: ToolBindingsOptions | ToolCaller = {}) {
    this.caller = options instanceof ToolCaller ? options : new ToolCaller(options);
    this.knowledge = new KnowledgeTool(this.caller);
    this.memory = new MemoryTool(this.caller);
    this.connector = new ConnectorTool(this.caller);
    this.agents = new AgentsTool(this.caller);
    this.hitl = new HITLTool(this.caller);
    this.files = new FilesTool(this.caller);
    this.notify = new NotifyTool(this.caller);
    this.http = new HTTPTool(this.caller);
    this.browser = new BrowserTool(this.caller);
    this.code = new CodeTool(this.caller);
  }

  /**
   * Any tool by its fully qualified name: typed for the catalogued ones,
   * passed through for a third-party MCP server's (never retried).
   */
  call<N extends CatalogToolName>(name: N, args: ToolArguments<N>, options?: ToolCallOptions): Promise<ToolResult<N>>;
  call(name: string, args?: Readonly<Record<string, unknown>>, options?: ToolCallOptions): Promise<unknown>;
  call(name: string, args?: Readonly<Record<string, unknown>>, options?: ToolCallOptions): Promise<unknown> {
    return this.caller.call(name, args, options);
  }

  /** Forwards the caller's custom headers on every tool call (filtered again; the SDK's own headers win). */
  setCustomHeaders(headers: Readonly<Record<string, string>>): void {
    this.caller.setCustomHeaders(headers);
  }

  /**
   * Hands every `tool.call` / `tool.result` event to `sink` as well; undefined
   * removes it. Inside an agent the run's stream (or final message) gets the
   * events whatever sink is set here.
   */
  setEventSink(sink: ToolEventSink | undefined): void {
    this.caller.setEventSink(sink);
  }

  /** The run recorded on every tool span (`novaos.run_id`). */
  setRunId(runId: string): void {
    this.caller.setRunId(runId);
  }

  /** The W3C trace every later tool call carries (a pod serving many runs sets it per run). */
  setTraceparent(traceparent: string): void {
    this.caller.setTraceparent(traceparent);
  }
}
