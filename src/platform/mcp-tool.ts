/**
 * The MCP data model `MCPClient` answers with: a tool of the catalog
 * (`MCPTool`) and the result of a tool that ran (`MCPToolResult`). The wire
 * form is MCP's own camelCase (`inputSchema`, `isError`, `structuredContent`,
 * `_meta`); `fromJson` reads it leniently and `toJSON` writes it back.
 */
import type { components } from "../../gen/openapi/mcp-gateway.js";
import { booleanField, isRecord, optionalRecord, optionalString, stringField } from "../http/json-fields.js";

/** An MCP content block: `text`, `image`, `audio`, `resource_link` or `resource`. */
export type MCPContentBlock = components["schemas"]["ContentBlock"];
export type MCPToolAnnotations = components["schemas"]["ToolAnnotations"];

export class MCPTool {
  constructor(
    /** The fully qualified name to call (`novaos.knowledge.query`). */
    readonly name: string,
    readonly description: string | undefined = undefined,
    /** A JSON Schema of the arguments. */
    readonly inputSchema: Record<string, unknown> | undefined = undefined,
    readonly title: string | undefined = undefined,
    readonly outputSchema: Record<string, unknown> | undefined = undefined,
    /** Hints (`readOnlyHint`, `idempotentHint`, ...), not guarantees. */
    readonly annotations: MCPToolAnnotations | undefined = undefined,
  ) {}

  /** A tool of a `tools/list` result; undefined for an entry without a name. */
  static fromJson(json: unknown): MCPTool | undefined {
    if (!isRecord(json) || typeof json.name !== "string" || json.name === "") return undefined;
    return new MCPTool(
      json.name,
      optionalString(json.description),
      optionalRecord(json.inputSchema),
      optionalString(json.title),
      optionalRecord(json.outputSchema),
      optionalRecord(json.annotations) as MCPToolAnnotations | undefined,
    );
  }

  /** The MCP wire form; fields without a value are left out. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name };
    if (this.title !== undefined) out.title = this.title;
    if (this.description !== undefined) out.description = this.description;
    if (this.inputSchema !== undefined) out.inputSchema = this.inputSchema;
    if (this.outputSchema !== undefined) out.outputSchema = this.outputSchema;
    if (this.annotations !== undefined) out.annotations = this.annotations;
    return out;
  }
}

export class MCPToolResult {
  constructor(
    readonly content: MCPContentBlock[] = [],
    /** True when the tool ran and failed; its first text block says why. Returned, never thrown. */
    readonly isError: boolean = false,
    /** The result's `_meta`. */
    readonly metadata: Record<string, unknown> | undefined = undefined,
    /** The tool's typed result, when it sent one. */
    readonly structuredContent: Record<string, unknown> | undefined = undefined,
  ) {}

  /** The first text block's text, else undefined. */
  get text(): string | undefined {
    for (const block of this.content) if (block.type === "text") return block.text;
    return undefined;
  }

  /**
   * A `tools/call` result. `content` may be a list of blocks or a single
   * value: a block stays a block, any other value becomes one text block
   * (a string as is, anything else as JSON).
   */
  static fromJson(json: unknown): MCPToolResult {
    const result = isRecord(json) ? json : {};
    const raw = result.content;
    const items = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
    return new MCPToolResult(
      items.map(contentBlock),
      booleanField(result.isError),
      optionalRecord(result._meta),
      optionalRecord(result.structuredContent),
    );
  }
}

function contentBlock(value: unknown): MCPContentBlock {
  if (isRecord(value) && typeof value.type === "string") {
    if (value.type !== "text") return { ...value } as MCPContentBlock;
    return { ...value, type: "text", text: stringField(value.text) } as MCPContentBlock;
  }
  return { type: "text", text: typeof value === "string" ? value : JSON.stringify(value) };
}
