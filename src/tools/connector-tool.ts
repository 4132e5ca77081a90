/**
 * `ctx.tools.connector`: any connector-host operation (ClickUp, Slack,
 * Gmail, …) through the MCP Gateway, the one governed way out. The tool is
 * `novaos.connector[.licensed|.ext].<connectorId>.<operation>`; the params
 * are forwarded verbatim and the answer is connector-host's envelope
 * `{data, provenance, meta}`. Connector operations are often not idempotent
 * ("create-task"), so a call is sent once, never retried.
 *
 * Checked before anything is sent: the tier, the connector id and the
 * operation; params that are a JSON object of at most `MAX_PARAMS_BYTES`; and,
 * when the caller knows the operation's shape, params that match
 * `paramsSchema` (`validateAgainstSchema`).
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import { validateAgainstSchema } from "../runtime/schema-validation.js";
import { encodeJsonObject, utf8Bytes } from "./tool-arguments.js";
import { ToolBinding } from "./tool-binding.js";
import type { ToolCallOptions } from "./tool-caller.js";
import type { ToolResult } from "./tool-catalog.js";
import { ToolNotFoundError } from "./tool-errors.js";
import { type ConnectorTier, connectorToolName } from "./tool-names.js";

/** The most UTF-8 bytes of a connector call's params, as JSON. */
export const MAX_PARAMS_BYTES = 1024 * 1024;

export type ConnectorResult = ToolResult<"novaos.connector.*">;

export interface ConnectorCallOptions extends ToolCallOptions {
  /** The tier the connector is registered on. Default `standard`. */
  tier?: ConnectorTier | undefined;
  /** A JSON Schema the params must match, checked here before the call. */
  paramsSchema?: unknown;
}

export class ConnectorTool extends ToolBinding {
  /**
   * Calls `operation` of `connectorId`. A disabled connector-host is a
   * ServiceDisabledError (`SERVICE_DISABLED`); a standard-tier tool the
   * gateway does not know is a ToolNotFoundError whose message suggests the
   * `licensed` and `ext` tiers.
   */
  async call(
    connectorId: string,
    operation: string,
    params: JsonObject = {},
    options: ConnectorCallOptions = {},
  ): Promise<ConnectorResult> {
    const { tier = "standard", paramsSchema, ...callOptions } = options;
    const name = connectorToolName(connectorId, operation, tier);
    const bytes = utf8Bytes(encodeJsonObject(params, "params"));
    if (bytes > MAX_PARAMS_BYTES) {
      throw new NovaOSValidationError(`params are ${bytes} bytes of JSON; a connector call takes ${MAX_PARAMS_BYTES}`, {
        field: "params",
      });
    }
    if (paramsSchema !== undefined) {
      const violations = validateAgainstSchema(paramsSchema, params);
      if (violations.length > 0) {
        const first = violations[0] as { path: string; message: string };
        throw new NovaOSValidationError(
          `params do not match paramsSchema: ${first.path || "(params)"} ${first.message}` +
            (violations.length > 1 ? ` (and ${violations.length - 1} more)` : ""),
          { field: "params", details: { violations } },
        );
      }
    }
    try {
      return (await this.caller.call(name, params, callOptions)) as ConnectorResult;
    } catch (error) {
      if (tier === "standard" && error instanceof ToolNotFoundError) {
        throw new ToolNotFoundError(
          `${error.message}. A connector registered on another tier is called with { tier: "licensed" } or ` +
            '{ tier: "ext" }',
          { toolName: error.toolName, code: error.code, details: error.details, cause: error },
        );
      }
      throw error;
    }
  }
}
