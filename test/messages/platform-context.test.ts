import { describe, expect, it } from "vitest";
import { NOVAOS_CONTEXT_METADATA_KEY, platformContextMetadata, readPlatformContext } from "../../src/messages/index.js";

describe("platform context", () => {
  it("round-trips through a metadata map under novaosContext, in snake_case", () => {
    const metadata = platformContextMetadata({
      runId: "run-1",
      tenantId: "t",
      sessionId: "ctx",
      config: { skill: "greet" },
      history: [{ role: "user", content: "hi" }],
      mcpWriteHitlActive: true,
      memoryBudget: { tokens: 1000 },
    });
    expect(metadata).toEqual({
      novaosContext: {
        run_id: "run-1",
        tenant_id: "t",
        session_id: "ctx",
        config: { skill: "greet" },
        history: [{ role: "user", content: "hi" }],
        mcp_write_hitl_active: true,
        memory_budget: { tokens: 1000 },
      },
    });
    const read = readPlatformContext(JSON.parse(JSON.stringify(metadata)));
    expect(read?.runId).toBe("run-1");
    expect(read?.history[0]?.content).toBe("hi");
    expect(read?.memoryBudget).toEqual({ tokens: 1000 });
  });

  it("merges request then message metadata, the later winning field by field", () => {
    const ctx = readPlatformContext(
      { [NOVAOS_CONTEXT_METADATA_KEY]: { run_id: "r", tenant_id: "from-request" } },
      { [NOVAOS_CONTEXT_METADATA_KEY]: { tenant_id: "from-message" } },
    );
    expect([ctx?.runId, ctx?.tenantId]).toEqual(["r", "from-message"]);
  });

  it("drops credentials and unknown fields, skips malformed entries, and is undefined when absent", () => {
    const ctx = readPlatformContext({
      [NOVAOS_CONTEXT_METADATA_KEY]: { run_id: "r", execution_token: "secret", mcp_gateway_token: "secret" },
    });
    expect(JSON.stringify(ctx)).not.toContain("secret");
    expect(
      readPlatformContext(
        { [NOVAOS_CONTEXT_METADATA_KEY]: { run_id: "ok" } },
        { [NOVAOS_CONTEXT_METADATA_KEY]: { run_id: 5, tenant_id: "half" } },
      ),
    ).toMatchObject({ runId: "ok", tenantId: "" });
    expect(readPlatformContext(undefined, {}, { [NOVAOS_CONTEXT_METADATA_KEY]: "x" })).toBeUndefined();
  });
});
