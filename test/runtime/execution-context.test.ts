/** The auth-proxy's execution context: the six X-NovaOS-* headers, the token fallback, never the token in output. */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { MissingExecutionTokenError } from "../../src/errors/novaos-errors.js";
import { ExecutionContext } from "../../src/runtime/execution-context.js";

describe("ExecutionContext", () => {
  it("maps the headers case-insensitively and builds outbound headers", () => {
    const ctx = ExecutionContext.fromHeaders(
      {
        "x-novaos-user-id": "u",
        "X-NOVAOS-TENANT-ID": "t",
        "x-novaos-run-id": "r",
        "x-novaos-agent-id": "a",
        "x-novaos-instance-id": "i",
        "x-novaos-execution-token": "tok",
      },
      {},
    );
    expect([ctx.userId, ctx.tenantId, ctx.runId, ctx.agentId, ctx.instanceId]).toEqual(["u", "t", "r", "a", "i"]);
    expect(ctx.requireToken()).toBe("tok");
    expect(ctx.toAuthHeaders()).toEqual({ Authorization: "Bearer tok" });
    expect(ctx.toContextHeaders()).toEqual({
      "X-NovaOS-User-Id": "u",
      "X-NovaOS-Tenant-Id": "t",
      "X-NovaOS-Run-Id": "r",
      "X-NovaOS-Agent-Id": "a",
      "X-NovaOS-Instance-Id": "i",
      "X-NovaOS-Execution-Token": "tok",
    });
  });

  it("falls back to NOVAOS_EXECUTION_TOKEN, and without any token answers {} or MissingExecutionTokenError", () => {
    expect(ExecutionContext.fromHeaders({}, { NOVAOS_EXECUTION_TOKEN: "env-token" }).requireToken()).toBe("env-token");
    const none = ExecutionContext.fromHeaders(new Headers(), {});
    expect(none.toAuthHeaders()).toEqual({});
    expect(() => none.requireToken()).toThrow(MissingExecutionTokenError);
  });

  it("never prints the token", () => {
    const ctx = ExecutionContext.fromHeaders({ "x-novaos-execution-token": "s3cr3t", "x-novaos-run-id": "r" }, {});
    expect(JSON.stringify(ctx)).not.toContain("s3cr3t");
    expect(inspect(ctx, { depth: 5, showHidden: true })).not.toContain("s3cr3t");
  });
});
