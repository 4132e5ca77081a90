/**
 * The Memory Service (openapi/memory.yaml) of the local platform: its one
 * dispatch endpoint runs the eight memory tools over the same `MemoryStore`
 * the MCP Gateway's memory tools use, so an agent reads through either door
 * what it wrote through the other. The caller is the run token's agent and
 * tenant (`runTokenCaller`); a refusal is the service's `{error, message}`
 * with its status: 403 `forbidden`, 404 `not_found`, 409 `version_conflict`,
 * 422 `scope_not_writable`.
 */
import type { components } from "../../gen/openapi/memory.js";
import type { ExecutionTokenIssuer } from "./execution-tokens.js";
import { type MemoryOwner, MemoryRefusal, type MemoryStore, type MemoryUpdate } from "./memory-store.js";
import { runTokenCaller } from "./run-token-caller.js";
import { type OperationHandler, PlatformReplyError } from "./spec-router.js";

type Request = components["schemas"]["MemoryRequest"];
type ToolName = components["schemas"]["MemoryToolName"];

const CODES: Record<MemoryRefusal["status"], string> = {
  403: "forbidden",
  404: "not_found",
  409: "version_conflict",
  422: "scope_not_writable",
};

export function memoryServiceHandlers(
  tokens: ExecutionTokenIssuer,
  memory: MemoryStore,
): Record<string, OperationHandler> {
  // The router has checked each payload against its tool's schema (the request's `if/then` on `tool`).
  const tools: Record<ToolName, (owner: MemoryOwner, payload: never) => unknown> = {
    "memory.query": (owner, payload) => memory.query(owner, payload),
    "memory.write": (owner, payload) => memory.write(owner, payload),
    "memory.update": (owner, payload: MemoryUpdate) => memory.update(owner, payload),
    "memory.forget": (owner, payload) => memory.forget(owner, payload),
    "memory.hint": (owner, payload) => memory.hint(owner, payload),
    "memory.hint_status": (owner, payload) => memory.hintStatus(owner, payload),
    "memory.proposal_status": (owner, payload) => memory.proposalStatus(owner, payload),
    "memory.assemble": (owner, payload) => memory.assemble(owner, payload),
  };
  return {
    memoryDispatch: async ({ body, headers }) => {
      const owner = await runTokenCaller(tokens, headers);
      const { tool, payload } = body as Request;
      try {
        return { status: 200, body: { tool, result: tools[tool](owner, payload as never) } };
      } catch (error) {
        if (!(error instanceof MemoryRefusal)) throw error;
        throw new PlatformReplyError(error.status, CODES[error.status], error.message);
      }
    },
  };
}
