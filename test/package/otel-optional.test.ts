/**
 * `@opentelemetry/api` is an optional peer: where it cannot be loaded (a
 * resolution hook refuses it in a child process), the built package still
 * serves and calls an agent, the tracing helpers run their callbacks with a
 * span that records nothing, and `configureOtel` answers false.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState } from "../../src/index.js";
import { ROOT } from "./support/package.js";

describe("without @opentelemetry/api", () => {
  it("an agent serves and a client calls; tracing is a no-op and configureOtel resolves false", () => {
    const fixtures = path.join(ROOT, "test/package/fixtures");
    const out = execFileSync(
      process.execPath,
      ["--import", path.join(fixtures, "deny-otel.mjs"), path.join(fixtures, "without-otel.mjs")],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(JSON.parse(out)).toEqual({
      otelApi: "missing",
      state: TaskState.COMPLETED,
      traced: "recording=false",
      headers: {},
      configured: false,
    });
  }, 90_000);
});
