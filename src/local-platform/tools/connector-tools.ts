/**
 * The connector tools of the local MCP Gateway
 * (`novaos.connector[.licensed|.ext].<connector>.<operation>`): the platform
 * runs connectors the user registers (`platform.connectors.register`) in
 * place of connector-host, plus a built-in `echo` connector whose every
 * operation answers `{operation, params}`. A connector no one registered on
 * that tier is JSON-RPC -32602 `TOOL_NOT_FOUND`, as the gateway answers a tool
 * it does not know; a handler that throws is an `isError` result with its
 * message. The answer is connector-host's envelope `{data, provenance, meta}`.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { components } from "../../../gen/openapi/mcp-gateway.js";
import type { ConnectorTier } from "../../tools/tool-names.js";
import { parseConnectorToolName } from "../../tools/tool-names.js";
import { ToolFailure, type ToolHandler, ToolRefusal } from "./tool-call.js";

type Schemas = components["schemas"];

/** What a connector handler is told about the call besides its params. */
export interface ConnectorCall {
  readonly operation: string;
  readonly params: JsonObject;
  readonly tenantId: string;
  readonly userId: string;
  readonly runId: string;
}

/** A connector: the operation's result (its `data`), or a throw for a failed operation. */
export type ConnectorHandler = (call: ConnectorCall) => unknown;

/** The connector every local platform has: any operation echoes its params. */
export const ECHO_CONNECTOR_ID = "echo";

export class ConnectorRegistry {
  readonly #handlers = new Map<string, ConnectorHandler>();

  constructor() {
    this.register(ECHO_CONNECTOR_ID, ({ operation, params }) => ({ operation, params }));
  }

  /** Registers (or replaces) `connectorId` on `tier` (default `standard`). */
  register(connectorId: string, handler: ConnectorHandler, tier: ConnectorTier = "standard"): void {
    this.#handlers.set(`${tier}.${connectorId}`, handler);
  }

  get(connectorId: string, tier: ConnectorTier): ConnectorHandler | undefined {
    return this.#handlers.get(`${tier}.${connectorId}`);
  }
}

/**
 * The handler of a connector tool name, `undefined` for a name that is not
 * one; a connector no one registered is refused here, before any gate.
 */
export function connectorTool(connectors: ConnectorRegistry): (name: string) => ToolHandler | undefined {
  return (name) => {
    const parsed = parseConnectorToolName(name);
    if (!parsed) return undefined;
    const handler = connectors.get(parsed.connectorId, parsed.tier);
    if (!handler) {
      throw new ToolRefusal(-32602, `No ${parsed.tier} connector ${parsed.connectorId} is registered`, {
        reason: "TOOL_NOT_FOUND",
        tool_name: name,
      });
    }
    return async ({ args, claims }) => {
      let data: unknown;
      try {
        data = await handler({
          operation: parsed.operation,
          params: args as JsonObject,
          tenantId: claims.tenant_id,
          userId: claims.user_id,
          runId: claims.run_id,
        });
      } catch (error) {
        throw new ToolFailure(`${parsed.connectorId}.${parsed.operation} failed: ${(error as Error).message}`);
      }
      const result: Schemas["ConnectorResult"] = {
        data: data ?? null,
        provenance: {
          connector_id: parsed.connectorId,
          operation: parsed.operation,
          tier: parsed.tier,
          retrieved_at: new Date().toISOString(),
        },
        meta: {},
      };
      return result;
    };
  };
}
