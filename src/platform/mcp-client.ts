/**
 * `MCPClient`: the MCP Gateway's tool catalog and tool calls, JSON-RPC 2.0
 * over one POST per method (`/mcp/v1/tools/list`, `/mcp/v1/tools/call`,
 * openapi/mcp-gateway.yaml; decision D133 says why not the official MCP SDK).
 *
 *   await using mcp = new MCPClient({ auth: new BearerTokenAuth(ctx.executionContext.requireToken()) }); // MCP_GATEWAY_URL
 *   const tools = await mcp.toolsList("affirmation");
 *   const result = await mcp.toolsCall("novaos.affirmations.generate_affirmation", { mood: "calm" });
 *   if (result.isError) console.warn(result.text); else console.log(result.structuredContent ?? result.text);
 *
 * The gateway keeps a session per client for affinity with the MCP servers
 * behind it: the client sends back the `Mcp-Session-Id` of the last answer,
 * and when the gateway says the session expired (404, before anything ran)
 * it drops it and sends the same request once more without one.
 *
 * A tool that ran and failed is a result with `isError` (returned, never
 * thrown); a call the gateway refused is a JSON-RPC error, thrown typed
 * as the platform tools throw them (mcp-errors.ts). `tools/list` is retried after a transient failure;
 * `tools/call` only when the caller says the tool is idempotent.
 */
import type { components, paths } from "../../gen/openapi/mcp-gateway.js";
import { NovaOSServerError } from "../errors/novaos-errors.js";
import { optionalObject, text } from "../http/argument-checks.js";
import { arrayField, isRecord, type JsonRecord, objectAnswer, optionalString } from "../http/json-fields.js";
import { ServiceClient } from "../http/service-client.js";
import type { ServiceCallOptions, ServiceClientOptions } from "../http/service-connection.js";
import { getDefaultToolTimeoutS } from "../runtime/config.js";
import { tracedToolCall } from "../runtime/tracing.js";
import { gatewayRpcError } from "../tools/gateway-rpc-error.js";
import { forgetSession, keepSession, MCP_SESSION_ID_HEADER, type McpSession } from "../tools/mcp-session.js";
import { MCP_GATEWAY_URL_ENV } from "../tools/tool-errors.js";
import { isSessionExpired, mcpHttpError } from "./mcp-errors.js";
import { MCPTool, MCPToolResult } from "./mcp-tool.js";

/** `tools/list` pages followed at most, so a gateway that keeps answering a cursor cannot hold a call for ever. */
export const MAX_TOOLS_LIST_PAGES = 100;

const LIST = "/mcp/v1/tools/list";
const CALL = "/mcp/v1/tools/call";

export interface MCPCallOptions extends ServiceCallOptions {
  /** The tool may be called again after a transient failure (429, 502, 503, 504, a lost connection). Default false. */
  idempotent?: boolean | undefined;
  /** Names the call in its tool events and in a write-confirmation refusal (`_meta["novaos/call_id"]`). */
  callId?: string | undefined;
}

type Method = "tools/list" | "tools/call";

export class MCPClient extends ServiceClient<paths> {
  readonly #session: McpSession = { id: undefined };
  #nextId = 1;

  /**
   * The per-attempt deadline defaults to `NOVAOS_TOOL_TIMEOUT_S` (128 s): above
   * the gateway's own ceiling, so the gateway's timeout is the one a caller sees.
   */
  constructor(options: ServiceClientOptions = {}) {
    super(
      { name: "MCP Gateway", urlVariable: MCP_GATEWAY_URL_ENV, timeoutMs: getDefaultToolTimeoutS(options.env) * 1000 },
      options,
    );
  }

  /** The `Mcp-Session-Id` of the last answer, sent with the next call; undefined before the first. */
  get sessionId(): string | undefined {
    return this.#session.id;
  }

  /** The tools the caller may call, optionally only those whose name or description contains `query`. */
  async toolsList(query?: string, options: ServiceCallOptions = {}): Promise<MCPTool[]> {
    const filter = query === undefined ? undefined : text(query, "query", { maxChars: 256 });
    const tools: MCPTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOLS_LIST_PAGES; page++) {
      const params: components["schemas"]["ToolsListParams"] = {
        ...(filter !== undefined ? { query: filter } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
      };
      const result = await this.#rpc("tools/list", params, true, options);
      tools.push(...arrayField(result.tools, MCPTool.fromJson));
      const next = optionalString(result.nextCursor);
      if (!next) return tools;
      if (next === cursor) break;
      cursor = next;
    }
    throw new NovaOSServerError(
      `MCP Gateway tools/list kept answering a next page (cursor ${JSON.stringify(cursor)})`,
      {
        details: { cursor, pages: MAX_TOOLS_LIST_PAGES },
      },
    );
  }

  /** Runs one tool by its fully qualified name. A tool that failed answers `isError: true`. */
  async toolsCall(
    name: string,
    args: Record<string, unknown> = {},
    options: MCPCallOptions = {},
  ): Promise<MCPToolResult> {
    const params = {
      name: text(name, "name", { maxChars: 256 }),
      arguments: optionalObject(args, "args") ?? {},
      ...(options.callId !== undefined ? { _meta: { "novaos/call_id": text(options.callId, "callId") } } : {}),
    };
    return tracedToolCall(params.name, { args: params.arguments }, async () =>
      MCPToolResult.fromJson(await this.#rpc("tools/call", params, options.idempotent === true, options)),
    );
  }

  /** One JSON-RPC call; renews an expired session once. */
  async #rpc(method: Method, params: object, idempotent: boolean, options: ServiceCallOptions): Promise<JsonRecord> {
    const session = this.#session.id;
    try {
      return await this.#send(method, params, idempotent, options, session);
    } catch (error) {
      if (session === undefined || !isSessionExpired(error)) throw error;
      forgetSession(this.#session, session);
      return this.#send(method, params, idempotent, options, undefined);
    }
  }

  async #send(
    method: Method,
    params: object,
    idempotent: boolean,
    options: ServiceCallOptions,
    session: string | undefined,
  ): Promise<JsonRecord> {
    const id = this.#nextId++;
    // What an error names: the tool of a call, else the method.
    const subject = method === "tools/call" ? (params as { name: string }).name : method;
    const route = method === "tools/list" ? LIST : CALL;
    const { body, response } = await this.connection.json(
      {
        method: "POST",
        route,
        idempotent,
        send: (signal, sent) => {
          const headers: Record<string, string> = { ...sent };
          if (session !== undefined) headers[MCP_SESSION_ID_HEADER] = session;
          if (method === "tools/list") {
            const body: components["schemas"]["ToolsListRequest"] = { jsonrpc: "2.0", id, method, params };
            return this.connection.api.POST(LIST, { body, headers, signal, parseAs: "stream" });
          }
          const body = { jsonrpc: "2.0", id, method, params } as components["schemas"]["ToolsCallRequest"];
          return this.connection.api.POST(CALL, { body, headers, signal, parseAs: "stream" });
        },
        error: (response, error) => mcpHttpError(response, error, subject),
      },
      options,
    );
    keepSession(this.#session, response);
    const envelope = objectAnswer(body, `MCP Gateway ${method}`);
    if (envelope.id !== id || envelope.jsonrpc !== "2.0") {
      throw new NovaOSServerError(`MCP Gateway ${method} answered a response that is not the request's`, {
        details: { id, answered: envelope.id },
      });
    }
    if (envelope.error !== undefined) throw gatewayRpcError(envelope.error, subject);
    if (!isRecord(envelope.result)) {
      throw new NovaOSServerError(`MCP Gateway ${method} answered neither a result nor an error`, {
        details: { id },
      });
    }
    return envelope.result;
  }
}
