/**
 * Weight budgets of the built package, measured in this run:
 *
 * - importing the root entry costs at most IMPORT_CPU_BUDGET_MS of CPU time
 *   (user + system, read by the child process around its `import()`: CPU
 *   time, unlike wall time, does not grow with other processes' load); the
 *   wall time against a bare `node` start is reported beside it;
 * - a minified browser bundle of `Client` alone stays within
 *   CLIENT_BUNDLE_BUDGET_BYTES and needs no Node built-in; its size against
 *   the @a2a-js/sdk client's is reported.
 *
 * docs/performance.md records the figures and how they compare.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { DIST, ROOT } from "./support/package.js";

/** Decision PK353. */
const IMPORT_CPU_BUDGET_MS = 200;
/** Decision PK353: the target is 150 KB; see docs/performance.md for what stands between. */
const CLIENT_BUNDLE_BUDGET_BYTES = 260 * 1024;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** CPU and wall milliseconds of one `import(specifier)` in a fresh Node, and the wall time of the whole process. */
function importCost(specifier: string | undefined): { cpu: number; wall: number; process: number } {
  const code =
    specifier === undefined
      ? "console.log('0 0')"
      : `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(specifier)});` +
        "const u = process.cpuUsage(c); console.log(`${(u.user + u.system) / 1000} ${performance.now() - t}`);";
  const started = performance.now();
  const [cpu, wall] = execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" })
    .trim()
    .split(" ")
    .map(Number) as [number, number];
  return { cpu, wall, process: performance.now() - started };
}

async function bundleSize(specifier: string, name: string): Promise<number> {
  const result = await build({
    stdin: { contents: `export { ${name} } from ${JSON.stringify(specifier)};`, resolveDir: ROOT },
    bundle: true,
    minify: true,
    write: false,
    platform: "browser",
    format: "esm",
    logLevel: "silent",
  });
  return result.outputFiles[0]?.contents.length ?? 0;
}

describe("weight budgets", () => {
  it(`importing the root entry costs at most ${IMPORT_CPU_BUDGET_MS} ms of CPU`, () => {
    const root = path.join(DIST, "index.js");
    const runs = Array.from({ length: 5 }, () => ({ bare: importCost(undefined), sdk: importCost(root) }));
    const cpu = median(runs.map((r) => r.sdk.cpu));
    const bare = median(runs.map((r) => r.bare.process));
    const withSdk = median(runs.map((r) => r.sdk.process));
    console.log(
      `root entry import: ${cpu.toFixed(0)} ms CPU, ${median(runs.map((r) => r.sdk.wall)).toFixed(0)} ms wall; ` +
        `node with it ${withSdk.toFixed(0)} ms, bare node ${bare.toFixed(0)} ms (×${(withSdk / bare).toFixed(2)})`,
    );
    expect(cpu).toBeLessThanOrEqual(IMPORT_CPU_BUDGET_MS);
  }, 120_000);

  it(`a browser bundle of Client alone is at most ${CLIENT_BUNDLE_BUDGET_BYTES / 1024} KB minified`, async () => {
    const ours = await bundleSize(path.join(DIST, "index.js"), "Client");
    const theirs = await bundleSize("@a2a-js/sdk/client", "ClientFactory");
    console.log(
      `Client bundle: ${(ours / 1024).toFixed(1)} KB; @a2a-js/sdk ClientFactory ${(theirs / 1024).toFixed(1)} KB ` +
        `(×${(ours / theirs).toFixed(2)})`,
    );
    expect(ours).toBeLessThanOrEqual(CLIENT_BUNDLE_BUDGET_BYTES);
  }, 60_000);
});
