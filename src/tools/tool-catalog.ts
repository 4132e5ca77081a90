/**
 * The tools the SDK calls, typed from `ToolCatalog` in
 * openapi/mcp-gateway.yaml: each fixed name's argument and result types, and
 * its two flags as values the code can read. The flags are typed from the
 * generated catalog too, so a flag changed in the spec and not here fails
 * the typecheck.
 */
import type { components } from "../../gen/openapi/mcp-gateway.js";

export type ToolCatalog = components["schemas"]["ToolCatalog"];
/** A fixed tool name of the catalog (`novaos.knowledge.query`, …); connector names follow a rule instead. */
export type CatalogToolName = Exclude<keyof ToolCatalog, "novaos.connector.*">;
export type ToolArguments<N extends keyof ToolCatalog> = ToolCatalog[N]["arguments"];
export type ToolResult<N extends keyof ToolCatalog> = ToolCatalog[N]["result"];

export interface ToolFlags {
  /** A repeated call is harmless: it may be retried after a transient failure. */
  readonly idempotent: boolean;
  /** Write-class: the gateway may ask for the user's confirmation first (-32042). */
  readonly requiresWriteHitl: boolean;
}

type CatalogFlags = {
  readonly [N in CatalogToolName]: {
    readonly idempotent: ToolCatalog[N]["idempotent"];
    readonly requiresWriteHitl: ToolCatalog[N]["requires_write_hitl"];
  };
};

const READ = { idempotent: true, requiresWriteHitl: false } as const;
const CHANGE = { idempotent: false, requiresWriteHitl: false } as const;
const WRITE = { idempotent: false, requiresWriteHitl: true } as const;

/** Every fixed tool's flags, as the catalog states them. */
export const TOOL_FLAGS: CatalogFlags = {
  "novaos.knowledge.query": READ,
  "novaos.knowledge.ingest": READ,
  "novaos.knowledge.get_job_status": READ,
  "novaos.knowledge.build_graph": READ,
  "novaos.knowledge.get_graph_status": READ,
  "novaos.knowledge.query_graph_local": READ,
  "novaos.knowledge.query_graph_global": READ,
  "novaos.memory.query": READ,
  "novaos.memory.write": CHANGE,
  "novaos.memory.update": CHANGE,
  "novaos.memory.forget": CHANGE,
  "novaos.memory.hint": CHANGE,
  "novaos.memory.assemble": READ,
  "novaos.agents.call": CHANGE,
  "novaos.agents.get_task": READ,
  "novaos.agents.list": READ,
  "novaos.files.list": READ,
  "novaos.files.read": READ,
  "novaos.files.write": READ,
  "novaos.files.delete": READ,
  "novaos.notify.send": WRITE,
  "novaos.http.get": READ,
  "novaos.http.request": WRITE,
  "novaos.browser.extract": READ,
  "novaos.browser.screenshot": READ,
  "novaos.browser.interact": WRITE,
  "novaos.code.execute": CHANGE,
};

/** The flags of a fixed tool name, or undefined for any other name. */
export function catalogFlags(name: string): ToolFlags | undefined {
  return Object.hasOwn(TOOL_FLAGS, name) ? TOOL_FLAGS[name as CatalogToolName] : undefined;
}
