/**
 * What one tool of the local MCP Gateway is given, and the two ways it can
 * fail, as the cluster's gateway tells them apart: a tool that ran and
 * failed is a `CallToolResult` with `isError` (`ToolFailure`), a call the
 * gateway did not run is a JSON-RPC error (`ToolRefusal`: unknown tool,
 * policy, write confirmation, disabled service).
 */
import type { JWTPayload } from "jose";
import type { ExecutionTokenGrant } from "../execution-tokens.js";
import type { MemoryOwner } from "../memory-store.js";

/** The verified claims of the run token a call carried. */
export type RunClaims = JWTPayload & ExecutionTokenGrant;

export interface ToolCall {
  /** The tool's full name. */
  readonly name: string;
  /** Checked against the tool's schema by the router already. */
  readonly args: Record<string, unknown>;
  /** `_meta["novaos/call_id"]`, else the JSON-RPC id. */
  readonly callId: string;
  readonly claims: RunClaims;
}

/** One tool: its result (the `structuredContent`), or a thrown `ToolFailure` / `ToolRefusal`. */
export type ToolHandler = (call: ToolCall) => unknown;

/** The tool ran and failed: an `isError` result whose text is the message. */
export class ToolFailure extends Error {
  override readonly name = "ToolFailure";
}

/** The gateway refused the call before it ran: a JSON-RPC error with `data.reason`. */
export class ToolRefusal extends Error {
  override readonly name = "ToolRefusal";
  constructor(
    readonly code: number,
    message: string,
    readonly data: { reason: string } & Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Whose memories, files and notifications a call touches: the run token says. */
export function ownerOf(claims: RunClaims): MemoryOwner {
  return {
    tenantId: claims.tenant_id,
    agentId: claims.agent_id ?? claims.instance_id,
    runId: claims.run_id,
    userId: claims.user_id,
  };
}

/** A refusal of a platform service with an HTTP status, as the gateway words it in an `isError` result. */
export function httpFailure(status: number, message: string): ToolFailure {
  return new ToolFailure(`HTTP ${status}: ${message}`);
}

/** `run`, with every error `statusOf` gives a status for answered as that service refusal. */
export function withHttpFailures(statusOf: (error: unknown) => number | undefined, run: ToolHandler): ToolHandler {
  return async (call) => {
    try {
      return await run(call);
    } catch (error) {
      const status = statusOf(error);
      throw status === undefined ? error : httpFailure(status, (error as Error).message);
    }
  };
}
