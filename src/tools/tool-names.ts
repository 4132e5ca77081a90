/**
 * Tool names as the MCP Gateway reads them (openapi/mcp-gateway.yaml
 * `ToolName`, `ConnectorToolName`): dot-separated segments of letters,
 * digits, `_` and `-`, at most 256 characters. A name that breaks the grammar
 * is refused before anything is sent.
 */
import { NovaOSValidationError } from "../errors/novaos-errors.js";

export const MAX_TOOL_NAME_LENGTH = 256;
const TOOL_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+$/;

/** The tiers connector-host registers connectors on; `standard` has no segment of its own. */
export const CONNECTOR_TIERS = ["standard", "licensed", "ext"] as const;
export type ConnectorTier = (typeof CONNECTOR_TIERS)[number];

const CONNECTOR_PREFIX = "novaos.connector.";
/** A connector id or an operation: a letter or digit, then up to 63 letters, digits, `_` or `-`. */
const CONNECTOR_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function describe(value: unknown): string {
  return typeof value === "string"
    ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
    : typeof value;
}

/** `name` itself, or NovaOSValidationError when it is not a tool name. */
export function checkToolName(name: unknown): string {
  if (typeof name !== "string" || name.length > MAX_TOOL_NAME_LENGTH || !TOOL_NAME.test(name)) {
    throw new NovaOSValidationError(
      `${describe(name)} is not a tool name: dot-separated segments of letters, digits, '_' and '-', at most ` +
        `${MAX_TOOL_NAME_LENGTH} characters`,
      { field: "name" },
    );
  }
  return name;
}

/**
 * The service a tool belongs to, `novaos.<service>` (the first two segments):
 * the unit a circuit breaker guards.
 */
export function toolService(name: string): string {
  const second = name.indexOf(".", name.indexOf(".") + 1);
  return second < 0 ? name : name.slice(0, second);
}

/**
 * `novaos.connector.<connectorId>.<operation>`, with `licensed` or `ext` as
 * an extra segment for those tiers. A bad tier, connector id or operation is
 * NovaOSValidationError.
 */
export function connectorToolName(connectorId: string, operation: string, tier: ConnectorTier = "standard"): string {
  if (!(CONNECTOR_TIERS as readonly unknown[]).includes(tier)) {
    throw new NovaOSValidationError(`${describe(tier)} is not a connector tier: use ${CONNECTOR_TIERS.join(", ")}`, {
      field: "tier",
    });
  }
  for (const [field, value] of [
    ["connectorId", connectorId],
    ["operation", operation],
  ] as const) {
    if (typeof value !== "string" || !CONNECTOR_SEGMENT.test(value)) {
      throw new NovaOSValidationError(
        `${field} ${describe(value)} is not valid: a letter or digit, then up to 63 letters, digits, '_' or '-'`,
        { field },
      );
    }
  }
  if (tier === "standard" && (connectorId === "licensed" || connectorId === "ext")) {
    throw new NovaOSValidationError(`'${connectorId}' is a tier, not a connector id`, { field: "connectorId" });
  }
  return `${CONNECTOR_PREFIX}${tier === "standard" ? "" : `${tier}.`}${connectorId}.${operation}`;
}

/** The parts of a connector tool name, or undefined for any other name. */
export function parseConnectorToolName(
  name: string,
): { readonly tier: ConnectorTier; readonly connectorId: string; readonly operation: string } | undefined {
  if (!name.startsWith(CONNECTOR_PREFIX)) return undefined;
  const segments = name.slice(CONNECTOR_PREFIX.length).split(".");
  const tiered = segments.length === 3 && (segments[0] === "licensed" || segments[0] === "ext");
  if (segments.length !== (tiered ? 3 : 2)) return undefined;
  const [connectorId, operation] = (tiered ? segments.slice(1) : segments) as [string, string];
  if (!tiered && (connectorId === "licensed" || connectorId === "ext")) return undefined;
  if (!CONNECTOR_SEGMENT.test(connectorId) || !CONNECTOR_SEGMENT.test(operation)) return undefined;
  return { tier: tiered ? (segments[0] as ConnectorTier) : "standard", connectorId, operation };
}
