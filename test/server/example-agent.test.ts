/** The README's main job: `make demo` drives the example agent through every method and exits 0. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

describe("make demo", () => {
  it("runs examples/demo.ts to a clean exit with every check passing", async () => {
    const { stdout } = await promisify(execFile)("node_modules/.bin/tsx", ["examples/demo.ts"], { timeout: 60_000 });
    expect(stdout).toContain("All A2A methods behaved as specified.");
    expect(stdout).not.toContain("✗");
  }, 60_000);
});
