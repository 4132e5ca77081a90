/**
 * The memory tools of the local MCP Gateway (`novaos.memory.*`) over the
 * platform's one `MemoryStore`, the same the Memory Service serves, so what
 * an agent writes through either door it reads through the other: write,
 * query, update with versions, forget, hint (consolidated at once into the
 * run user's memory) and assemble. A Memory Service refusal (403, 404, 409
 * stale version, 422) is an `isError` result.
 */
import { MemoryRefusal, type MemoryStore, type MemoryUpdate } from "../memory-store.js";
import { ownerOf, type ToolHandler, withHttpFailures } from "./tool-call.js";

const asFailure = (run: ToolHandler) =>
  withHttpFailures((error) => (error instanceof MemoryRefusal ? error.status : undefined), run);

export function memoryTools(memory: MemoryStore): Record<string, ToolHandler> {
  const tools: Record<string, ToolHandler> = {
    "novaos.memory.write": ({ claims, args }) => memory.write(ownerOf(claims), args as never),
    "novaos.memory.query": ({ claims, args }) => memory.query(ownerOf(claims), args as never),
    "novaos.memory.update": ({ claims, args }) => memory.update(ownerOf(claims), args as unknown as MemoryUpdate),
    "novaos.memory.forget": ({ claims, args }) => memory.forget(ownerOf(claims), args as never),
    "novaos.memory.hint": ({ claims, args }) => memory.hint(ownerOf(claims), args as never),
    "novaos.memory.assemble": ({ claims, args }) => memory.assemble(ownerOf(claims), args as never),
  };
  return Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, asFailure(tool)]));
}
