/**
 * `ctx.tools.memory`: the Memory Service's six agent tools through the MCP
 * Gateway (`novaos.memory.*`), with the service's own payloads
 * (openapi/memory.yaml). Reads (`query`, `assemble`) are retried after a
 * transient failure; writes are sent once. The byte limits the service
 * states for clients (32 KiB of content, 8 KiB of hint) and an update with
 * nothing to change are refused before anything is sent.
 */
import type { components } from "../../gen/openapi/mcp-gateway.js";
import { text } from "../http/argument-checks.js";
import { MAX_MEMORY_CONTENT_BYTES, MAX_MEMORY_HINT_BYTES, memoryChanges } from "../memory/memory-limits.js";
import type { MemoryScope, MemoryType } from "../memory/memory-results.js";
import { ToolBinding } from "./tool-binding.js";
import type { ToolCallOptions } from "./tool-caller.js";
import type { ToolArguments, ToolResult } from "./tool-catalog.js";

export type MemoryQueryArguments = Omit<ToolArguments<"novaos.memory.query">, "scope" | "query"> & {
  /** Shortcut for `filters.memory_type`. */
  memory_type?: MemoryType | undefined;
  /** Shortcut for `filters.conversation_id`. */
  conversation_id?: string | undefined;
};
export type MemoryWriteArguments = Omit<ToolArguments<"novaos.memory.write">, "scope" | "content">;
/** What an update changes: at least one of them. (The generated payload type is `unknown`: its `anyOf` erases it.) */
export interface MemoryChanges {
  content?: components["schemas"]["MemoryContent"] | undefined;
  tags?: components["schemas"]["MemoryTags"] | undefined;
  confidence?: components["schemas"]["MemoryConfidence"] | undefined;
  custom?: Record<string, unknown> | undefined;
}
export type MemoryForgetArguments = Omit<ToolArguments<"novaos.memory.forget">, "scope" | "memory_id" | "reason">;
export type MemoryHintArguments = Omit<ToolArguments<"novaos.memory.hint">, "hint" | "conversation_id">;
export type MemoryAssembleArguments = Omit<ToolArguments<"novaos.memory.assemble">, "query">;

export class MemoryTool extends ToolBinding {
  /** Memories of one scope ranked by similarity to `query`; `memory_type` and `conversation_id` narrow it. */
  query(
    scope: MemoryScope,
    query: string,
    args: MemoryQueryArguments = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.memory.query">> {
    const { memory_type, conversation_id, filters, ...rest } = args;
    const narrowed = {
      ...filters,
      ...(memory_type !== undefined ? { memory_type } : {}),
      ...(conversation_id !== undefined ? { conversation_id } : {}),
    };
    return this.caller.call(
      "novaos.memory.query",
      { ...rest, scope, query, ...(Object.keys(narrowed).length > 0 ? { filters: narrowed } : {}) },
      options,
    );
  }

  /** A new memory in `agent` or `run` scope. Sent once: pass an `idempotency_key` to make a repeat harmless. */
  async write(
    scope: MemoryScope,
    content: string,
    args: MemoryWriteArguments = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.memory.write">> {
    text(content, "content", { maxBytes: MAX_MEMORY_CONTENT_BYTES });
    return this.caller.call("novaos.memory.write", { ...args, scope, content }, options);
  }

  /** Changes one of the agent's own memories in place; `version` is the one last read (a stale one is refused). */
  async update(
    scope: MemoryScope,
    memoryId: string,
    version: number,
    changes: MemoryChanges,
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.memory.update">> {
    return this.caller.call(
      "novaos.memory.update",
      { ...memoryChanges(changes), scope, memory_id: memoryId, version },
      options,
    );
  }

  /** Deletes a memory, saying why (for the audit trail). */
  forget(
    scope: MemoryScope,
    memoryId: string,
    reason: string,
    args: MemoryForgetArguments = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.memory.forget">> {
    return this.caller.call("novaos.memory.forget", { ...args, scope, memory_id: memoryId, reason }, options);
  }

  /** A hint for the consolidation pipeline, which decides what of a conversation reaches user memory. */
  async hint(
    hint: string,
    conversationId: string,
    args: MemoryHintArguments = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.memory.hint">> {
    text(hint, "hint", { maxBytes: MAX_MEMORY_HINT_BYTES });
    return this.caller.call("novaos.memory.hint", { ...args, hint, conversation_id: conversationId }, options);
  }

  /** One context bundle: durable and agent memories, live messages and run data. */
  assemble(
    query: string,
    args: MemoryAssembleArguments = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.memory.assemble">> {
    return this.caller.call("novaos.memory.assemble", { ...args, query }, options);
  }
}
