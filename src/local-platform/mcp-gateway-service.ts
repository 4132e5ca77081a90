/**
 * The MCP Gateway (openapi/mcp-gateway.yaml) of the local platform:
 * `tools/call`, dispatched to one file per tool family under `tools/`
 * (memory, knowledge, agents, files, notify, http, connectors). Every call
 * must carry a run token this platform minted (401 `unauthenticated`
 * otherwise, an expired one included), and an `X-Tenant-ID` other than the
 * token's tenant is 403 `tenant_mismatch`, as the cluster's gateway answers.
 * A write-class call then passes the write-confirmation gate (-32042).
 *
 * A tool that ran and failed is a `CallToolResult` with `isError`
 * (`ToolFailure`); a call the gateway did not run is a JSON-RPC error
 * (`ToolRefusal`); a catalogued tool that is not emulated (browser, code)
 * is -32043 `SERVICE_DISABLED`, naming its service.
 */
import { randomUUID } from "node:crypto";
import { GatewayRpcCode } from "../tools/gateway-rpc-error.js";
import type { ExecutionTokenIssuer } from "./execution-tokens.js";
import { bearerToken, headerValue } from "./request-headers.js";
import type { JsonReply, OperationHandler } from "./spec-router.js";
import { type ToolCall, ToolFailure, type ToolHandler, ToolRefusal } from "./tools/tool-call.js";
import type { WriteConfirmationGate } from "./tools/write-confirmation.js";

type ToolsCall = {
  id: string | number;
  params: { name: string; arguments?: Record<string, unknown>; _meta?: { "novaos/call_id"?: string } };
};

function refusal(status: number, error: string, message: string): JsonReply {
  return {
    status,
    body: { error, message },
    ...(status === 401 ? { headers: { "WWW-Authenticate": "Bearer" } } : {}),
  };
}

export interface McpGatewayOptions {
  readonly tokens: ExecutionTokenIssuer;
  /** The emulated tools by full name. */
  readonly tools: Readonly<Record<string, ToolHandler>>;
  /** The handler of a name outside `tools` (the connector tools), if any. */
  readonly toolFor?: (name: string) => ToolHandler | undefined;
  readonly writeConfirmation: WriteConfirmationGate;
}

/** The tool `name` belongs to the service of its first two segments (`novaos.browser`). */
function serviceDisabled(name: string): ToolRefusal {
  const service = name.split(".").slice(0, 2).join(".");
  return new ToolRefusal(GatewayRpcCode.SERVICE_DISABLED, `${service} is not emulated by the local platform`, {
    reason: "SERVICE_DISABLED",
    service,
  });
}

export function mcpGatewayHandlers({
  tokens,
  tools,
  toolFor,
  writeConfirmation,
}: McpGatewayOptions): Record<string, OperationHandler> {
  return {
    toolsCall: async ({ body, headers }) => {
      const token = bearerToken(headers);
      const claims = token ? await tokens.claimsOf(token) : undefined;
      if (!claims) return refusal(401, "unauthenticated", "A valid execution token of this platform is required");
      const tenant = headerValue(headers, "x-tenant-id");
      if (tenant !== undefined && tenant !== claims.tenant_id) {
        return refusal(403, "tenant_mismatch", `X-Tenant-ID ${tenant} is not the token's tenant`);
      }
      // The router has checked the request, and every call's arguments, against the spec.
      const { id, params } = body as ToolsCall;
      const session = headerValue(headers, "mcp-session-id") ?? randomUUID();
      const reply = (payload: object): JsonReply => ({
        status: 200,
        headers: { "Mcp-Session-Id": session },
        body: { jsonrpc: "2.0", id, ...payload },
      });
      const call: ToolCall = {
        name: params.name,
        args: params.arguments ?? {},
        callId: params._meta?.["novaos/call_id"] ?? String(id),
        claims,
      };
      try {
        const tool = tools[call.name] ?? toolFor?.(call.name);
        if (!tool) throw serviceDisabled(call.name);
        writeConfirmation.admit(call);
        const result = await tool(call);
        return reply({
          result: { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result },
        });
      } catch (error) {
        if (error instanceof ToolRefusal) {
          return reply({ error: { code: error.code, message: error.message, data: error.data } });
        }
        if (error instanceof ToolFailure) {
          return reply({ result: { content: [{ type: "text", text: error.message }], isError: true } });
        }
        throw error;
      }
    },
  };
}
