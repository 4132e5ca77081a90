/**
 * The built bin: src/cli/main.ts bundled the way tsdown builds dist/cli.js
 * (ESM, shebang, executable), run as a program: `--version` reads the
 * package's version, and it talks to an agent. package.json names it
 * `novaos-a2a`, its only bin, so `npx @novaos/client-sdk` runs it too.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExampleAgent, startExampleAgent } from "./support/agents.js";
import { cliProcess, ROOT } from "./support/run-cli.js";

describe("the built bin", () => {
  let dir: string;
  let bin: string;
  let agent: ExampleAgent;
  beforeAll(async () => {
    // Inside the repository, so the bundle resolves its dependencies from node_modules.
    await mkdir(join(ROOT, ".cache"), { recursive: true });
    dir = await mkdtemp(join(ROOT, ".cache", "cli-bin-test-"));
    execFileSync(
      resolve(ROOT, "node_modules/.bin/tsdown"),
      [
        "--no-config",
        "src/cli/main.ts",
        "-d",
        dir,
        "--format",
        "esm",
        "--platform",
        "node",
        "--target",
        "node20",
        "--no-dts",
      ],
      { cwd: ROOT, stdio: "ignore" },
    );
    bin = join(dir, "main.mjs");
    agent = await startExampleAgent();
  }, 120_000);
  afterAll(async () => {
    await agent?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("is one executable ESM file with a shebang", async () => {
    expect((await readFile(bin, "utf8")).startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect((await stat(bin)).mode & 0o100).toBe(0o100);
  });

  it("prints the package version and sends a message", async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect((await cliProcess(["--version"], { bin })).stdout.trim()).toBe(pkg.version);
    const run = await cliProcess(["send", agent.url, "from the bin", "--skill", "echo"], { bin });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain("You said: from the bin");
  });

  it("package.json's bins are novaos-a2a → dist/cli.js and novaos-platform → dist/novaos-platform.js, built by the tsdown config", async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
    expect(pkg.bin).toEqual({ "novaos-a2a": "./dist/cli.js", "novaos-platform": "./dist/novaos-platform.js" });
    const config = await readFile(join(ROOT, "tsdown.config.ts"), "utf8");
    expect(config).toContain('entry: { cli: "src/cli/main.ts" }');
    expect(config).toContain('entry: { "novaos-platform": "src/local-platform/bin.ts" }');
  });
});

describe("the SDK's import graph", () => {
  it("nothing under src/ but src/cli/ imports the CLI's libraries", async () => {
    const cliLibraries = /from "(commander|picocolors|log-update|cli-spinners|@clack\/prompts)"/;
    const files = (await readdir(join(ROOT, "src"), { recursive: true })).filter(
      (f) => f.endsWith(".ts") && !f.startsWith("cli/"),
    );
    const importers = [];
    for (const file of files)
      if (cliLibraries.test(await readFile(join(ROOT, "src", file), "utf8"))) importers.push(file);
    expect(importers).toEqual([]);
    expect(files.length).toBeGreaterThan(50);
  });
});
