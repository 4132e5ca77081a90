/** The agent logger: one JSON line per call in the platform's shape, bound ids, PII masked. */
import { execFile } from "node:child_process";
import { Writable } from "node:stream";
import { promisify } from "node:util";
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

  it("writes one readable line per call in the pretty format, masked like the JSON line", () => {
    const written: string[] = [];
    const destination = { write: (text: string) => void written.push(text) };
    const logger = getAgentLogger({ runId: "run-1" }, createLogger({ destination, format: "pretty" }));
    logger.info({ tool: "search" }, "mail jane.doe@example.com");
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}mail \S+ run_id=run-1 tool=search\n$/);
    expect(written[0]).not.toContain("jane.doe@example.com");
  });

  it("respects the level", () => {
    const { lines, destination } = capture();
    createLogger({ destination, level: "warn" }).info("hidden");
    expect(lines).toHaveLength(0);
  });

  it("masks Errors (message, stack, cause, own fields) wherever they are logged", () => {
    const { lines, destination } = capture();
    const logger = getAgentLogger({ runId: "run-1" }, createLogger({ destination }));
    const cause = new Error("upstream answered for 555-123-4567");
    const error = Object.assign(new TypeError("no account for jane.doe@example.com", { cause }), { user: "a@b.cd" });
    logger.error(error);
    logger.error({ err: error }, "lookup failed");
    logger.warn({ detail: { failures: [error] } }, "nested");
    const text = JSON.stringify(lines);
    for (const secret of ["jane.doe@example.com", "555-123-4567", "a@b.cd"]) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ message: "no account for [EMAIL]", err: { type: "TypeError", user: "[EMAIL]" } });
    expect((lines[0]?.err as { message?: string } | undefined)?.message).toBe(
      "no account for [EMAIL]: upstream answered for [PHONE]",
    );
    expect((lines[0]?.err as { stack?: string } | undefined)?.stack).toContain(
      "caused by: Error: upstream answered for [PHONE]",
    );
    expect(lines[1]).toMatchObject({ message: "lookup failed", err: { message: expect.stringContaining("[EMAIL]") } });
    expect(lines[2]).toMatchObject({ detail: { failures: [{ user: "[EMAIL]" }] } });
    // The caller's error is untouched.
    expect(error.message).toBe("no account for jane.doe@example.com");
  });

  it("never throws, and withholds a line it cannot mask", () => {
    const { lines, destination } = capture();
    const failing = {
      maskText: () => "",
      maskObject: () => {
        throw new Error("boom");
      },
    };
    const logger = createLogger({ destination, mask: failing });
    expect(() => logger.info({ user: "a@b.cd" }, "hello")).not.toThrow();
    expect(JSON.stringify(lines)).not.toContain("a@b.cd");
    expect(lines[0]?.message).toContain("could not be masked");
    expect(() => createLogger({ destination }).info("1 ".repeat(4_000_000))).not.toThrow();
  });

  it("writes lines as given when masking is turned off", () => {
    const { lines, destination } = capture();
    createLogger({ destination, mask: false }).info("mail a@b.cd");
    expect(lines[0]?.message).toBe("mail a@b.cd");
  });

  it("masks through the standalone getAgentLogger and its default root logger", async () => {
    const { stdout } = await promisify(execFile)(
      "node_modules/.bin/tsx",
      ["test/runtime/fixtures/standalone-logger.ts"],
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)?.message).toBe("done");
    expect(lines[0]).toMatchObject({ run_id: "run-1", message: "no account for [EMAIL]", err: { user: "[EMAIL]" } });
    for (const secret of ["jane.doe@example.com", "555-123-4567", "a@b.cd"]) expect(stdout).not.toContain(secret);
  });
});
