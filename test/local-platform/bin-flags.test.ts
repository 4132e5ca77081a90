import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "../cli/support/run-cli.js";

const BIN = `${ROOT}/src/local-platform/bin.ts`;

/** Runs the bin from source in one `node --import tsx` process; once stdout holds the ready lines, sends SIGTERM. */
function runBin(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", BIN, ...args], {
      env: { ...process.env, ...env },
      cwd: ROOT,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("LLM_GATEWAY_URL=")) child.kill("SIGTERM");
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

describe("novaos-platform's tool flags", () => {
  it("--secret names an environment variable; one that is not set is a usage error (exit 2)", async () => {
    const env = { NOVAOS_TEST_UNSET_SECRET: undefined };
    const run = await runBin(["--secret", "NOVAOS_TEST_UNSET_SECRET"], env);
    expect(run.code).toBe(2);
    expect(run.err).toContain("--secret NOVAOS_TEST_UNSET_SECRET: no such environment variable");
  }, 60_000);

  it("starts with --allow-host and --secret given, and prints no secret", async () => {
    const run = await runBin(
      ["--allow-host", "127.0.0.1", "--allow-host", "api.example.com", "--secret", "NOVAOS_TEST_SECRET"],
      { NOVAOS_TEST_SECRET: "s3cret" },
    );
    expect(run.out).toMatch(/^MCP_GATEWAY_URL=http:\/\/127\.0\.0\.1:\d+$/m);
    expect(run.out).not.toContain("s3cret");
    expect(run.err).not.toContain("s3cret");
  }, 60_000);
});
