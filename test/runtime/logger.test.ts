/** The agent logger: one JSON line per call in the platform's shape, bound ids, PII masked. */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, getAgentLogger } from "../../src/runtime/logger.js";
import { maskPii, maskPiiInObject } from "../../src/security/pii.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, destination };
}

describe("agent logger", () => {
  it("writes timestamp (microseconds), lowercase level, message, the bound ids when present, and extra fields", () => {
    const { lines, destination } = capture();
    const root = createLogger({ destination, level: "debug" });
    const logger = getAgentLogger({ runId: "run-1", agentId: "agent-1", tenantId: "" }, root);
    logger.info({ tool: "search" }, "Tool call completed");
    logger.warn({ status: 503 }, "Upstream failed");
    expect(lines[0]).toEqual({
      level: "info",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      run_id: "run-1",
      agent_id: "agent-1",
      tool: "search",
      message: "Tool call completed",
    });
    expect(lines[0]).not.toHaveProperty("tenant_id");
    expect(lines[1]).toMatchObject({ level: "warn", status: 503, message: "Upstream failed", run_id: "run-1" });
  });

  it("masks PII in messages and fields, never in the bound ids", () => {
    const { lines, destination } = capture();
    const root = createLogger({ destination, mask: { maskText: maskPii, maskObject: maskPiiInObject } });
    getAgentLogger({ runId: "4111-1111-1111-1111" }, root).info(
      { phone: "555-123-4567" },
      "user wrote jane.doe@example.com",
    );
    expect(JSON.stringify(lines[0])).not.toContain("jane.doe@example.com");
    expect(JSON.stringify(lines[0])).not.toContain("555-123-4567");
    expect(lines[0]?.run_id).toBe("4111-1111-1111-1111");
  });

  it("respects the level", () => {
    const { lines, destination } = capture();
    createLogger({ destination, level: "warn" }).info("hidden");
    expect(lines).toHaveLength(0);
  });
});
