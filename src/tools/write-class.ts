/**
 * Which tool calls are write-class: those the MCP Gateway may hold for the
 * user's confirmation (-32042) while a run's write confirmation is active.
 * The platform decides by name, and so does this mirror of its rule: the
 * catalog's flag for a fixed tool, and for a connector tool the first word of
 * its operation, which must be a read verb for the call to be read-only. A
 * verb this rule does not know is a write: a confirmation too many is safer
 * than a write unconfirmed. A hint, not a guarantee: a tenant's policy may
 * say otherwise.
 */
import { catalogFlags } from "./tool-catalog.js";
import { parseConnectorToolName } from "./tool-names.js";

/** The verbs that make a connector operation read-only when they come first. */
export const READ_VERBS: ReadonlySet<string> = new Set([
  "get",
  "list",
  "read",
  "search",
  "query",
  "find",
  "fetch",
  "lookup",
  "describe",
  "download",
  "export",
  "count",
  "check",
  "view",
  "show",
  "preview",
  "retrieve",
]);

/** The first word of an operation: split on `-`, `_`, `.` and lower-to-upper case changes, lower-cased. */
export function firstWord(operation: string): string {
  return (operation.split(/[-_.]|(?<=[a-z0-9])(?=[A-Z])/)[0] ?? "").toLowerCase();
}

/**
 * Whether a call of `toolName` is write-class. Fixed tools follow the
 * catalog; connector tools (any tier) are unless their operation starts with
 * a read verb; any other name, a third-party tool or not a tool name at all,
 * is not: the gateway gates only these.
 */
export function requiresWriteHitl(toolName: string): boolean {
  if (typeof toolName !== "string") return false;
  const flags = catalogFlags(toolName);
  if (flags) return flags.requiresWriteHitl;
  const connector = parseConnectorToolName(toolName);
  return connector !== undefined && !READ_VERBS.has(firstWord(connector.operation));
}
