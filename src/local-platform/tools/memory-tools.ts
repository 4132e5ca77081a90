/**
 * The memory tools of the local MCP Gateway (`novaos.memory.*`) over the
 * platform's `MemoryStore`: write, query and update with versions (a stale
 * version is the Memory Service's 409, as an `isError` result), and `hint`,
 * which records the hint for the consolidation pipeline the platform does
 * not run (`platform.memoryHints`) and answers it accepted, as the service
 * does.
 */
import { randomUUID } from "node:crypto";
import type { components } from "../../../gen/openapi/memory.js";
import { MemoryRefusal, type MemoryStore, type MemoryUpdate } from "../memory-store.js";
import { ownerOf, type ToolHandler, withHttpFailures } from "./tool-call.js";

type Schemas = components["schemas"];

/** One hint an agent gave, as the consolidation pipeline would receive it. */
export interface MemoryHint extends Readonly<Schemas["MemoryHintPayload"]> {
  readonly hint_id: string;
  readonly tenant_id: string;
  readonly agent_id: string;
  readonly run_id: string;
  readonly submitted_at: string;
}

/** A Memory Service refusal (404, 409, 422) as the tool's failure. */
const asFailure = (run: ToolHandler) =>
  withHttpFailures((error) => (error instanceof MemoryRefusal ? error.status : undefined), run);

export function memoryTools(memory: MemoryStore, hints: MemoryHint[]): Record<string, ToolHandler> {
  return {
    "novaos.memory.write": asFailure(({ claims, args }) => memory.write(ownerOf(claims), args as never)),
    "novaos.memory.query": asFailure(({ claims, args }) => memory.query(ownerOf(claims), args as never)),
    "novaos.memory.update": asFailure(({ claims, args }) =>
      memory.update(ownerOf(claims), args as unknown as MemoryUpdate),
    ),
    "novaos.memory.hint": ({ claims, args }): Schemas["MemoryHintResult"] => {
      const owner = ownerOf(claims);
      const hint: MemoryHint = {
        ...(args as Schemas["MemoryHintPayload"]),
        hint_id: `hint_${randomUUID()}`,
        tenant_id: owner.tenantId,
        agent_id: owner.agentId,
        run_id: owner.runId,
        submitted_at: new Date().toISOString(),
      };
      hints.push(hint);
      return { hint_id: hint.hint_id, status: "accepted", message: "Queued for consolidation" };
    },
  };
}
