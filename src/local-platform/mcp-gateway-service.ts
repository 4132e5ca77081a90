/**
 * The MCP Gateway (openapi/mcp-gateway.yaml) of the local platform, as far
 * as it is emulated: `tools/call` for the memory tools (`novaos.memory.write`,
 * `query`, `update`) over the local `MemoryStore`, and the knowledge tools
 * (`novaos.knowledge.ingest`, `get_job_status`, `query`) over the local
 * `KnowledgeStore`. Every call must carry a
 * run token this platform minted (401 `unauthenticated` otherwise, an
 * expired one included), and an `X-Tenant-ID` other than the token's tenant
 * is 403 `tenant_mismatch`, as the cluster's gateway answers. A tool that
 * ran and failed (a stale version, an unknown memory or job) is a `CallToolResult`
 * with `isError`; a catalogued tool that is not emulated is JSON-RPC -32043
 * `SERVICE_DISABLED`.
 */
import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { ExecutionTokenIssuer } from "./execution-tokens.js";
import { type KnowledgeStore, UnknownJobError } from "./knowledge-store.js";
import { type MemoryOwner, MemoryRefusal, type MemoryStore, type MemoryUpdate } from "./memory-store.js";
import type { JsonReply, OperationHandler } from "./spec-router.js";

type ToolsCall = {
  id: string | number;
  params: { name: string; arguments?: Record<string, unknown> };
};

type Tool = (owner: MemoryOwner, args: Record<string, unknown>) => unknown;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

function refusal(status: number, error: string, message: string): JsonReply {
  return {
    status,
    body: { error, message },
    ...(status === 401 ? { headers: { "WWW-Authenticate": "Bearer" } } : {}),
  };
}

export interface McpGatewayStores {
  readonly memory: MemoryStore;
  readonly knowledge: KnowledgeStore;
}

export function mcpGatewayHandlers(
  tokens: ExecutionTokenIssuer,
  { memory, knowledge }: McpGatewayStores,
): Record<string, OperationHandler> {
  // The router has checked every call's arguments against the tool's schema in the catalog.
  const tools: Record<string, Tool> = {
    "novaos.memory.write": (owner, args) => memory.write(owner, args as never),
    "novaos.memory.query": (owner, args) => memory.query(owner, args as never),
    "novaos.memory.update": (owner, args) => memory.update(owner, args as unknown as MemoryUpdate),
    "novaos.knowledge.ingest": (owner, args) => knowledge.ingest(owner.tenantId, args as never),
    "novaos.knowledge.get_job_status": (owner, args) => knowledge.jobStatus(owner.tenantId, args as never),
    "novaos.knowledge.query": (owner, args) => knowledge.query(owner.tenantId, args as never),
  };
  return {
    toolsCall: async ({ body, headers }) => {
      const token = /^bearer\s+(.+)$/i.exec(header(headers, "authorization") ?? "")?.[1];
      const claims = token ? await tokens.claimsOf(token) : undefined;
      if (!claims) return refusal(401, "unauthenticated", "A valid execution token of this platform is required");
      const tenant = header(headers, "x-tenant-id");
      if (tenant !== undefined && tenant !== claims.tenant_id) {
        return refusal(403, "tenant_mismatch", `X-Tenant-ID ${tenant} is not the token's tenant`);
      }
      const { id, params } = body as ToolsCall;
      const session = header(headers, "mcp-session-id") ?? randomUUID();
      const reply = (payload: object): JsonReply => ({
        status: 200,
        headers: { "Mcp-Session-Id": session },
        body: { jsonrpc: "2.0", id, ...payload },
      });
      const tool = tools[params.name];
      if (!tool) {
        const service = params.name.split(".").slice(0, 2).join(".");
        return reply({
          error: {
            code: -32043,
            message: `${service} is not emulated by the local platform`,
            data: { reason: "SERVICE_DISABLED", service },
          },
        });
      }
      const owner = {
        tenantId: claims.tenant_id,
        agentId: claims.agent_id ?? claims.instance_id,
        runId: claims.run_id,
      };
      try {
        const result = tool(owner, params.arguments ?? {});
        return reply({
          result: { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result },
        });
      } catch (error) {
        const status = error instanceof MemoryRefusal ? error.status : error instanceof UnknownJobError ? 404 : 0;
        if (status === 0) throw error;
        const why = `HTTP ${status}: ${(error as Error).message}`;
        return reply({ result: { content: [{ type: "text", text: why }], isError: true } });
      }
    },
  };
}
