/**
 * Weight budgets of the built package, measured in this run:
 *
 * - the JavaScript that importing the root entry evaluates (its static module
 *   graph, dependencies included, bundled and minified by esbuild) stays within
 *   ROOT_IMPORT_BUDGET_BYTES: a size, which does not move with the machine's
 *   load as a time would; the import's CPU time is a `make bench` row
 *   (bench/scenarios/import-cost.ts);
 * - a minified browser bundle of `Client` alone stays within
 *   CLIENT_BUNDLE_BUDGET_BYTES and needs no Node built-in; its size against
 *   the @a2a-js/sdk client's is reported.
 *
 * docs/performance.md "Package weight" records the figures and how they compare.
 */
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { DIST, ROOT } from "./support/package.js";

/** Decision PK353: about 300 KB today (protobuf-es and the generated codecs are most of it). */
const ROOT_IMPORT_BUDGET_BYTES = 320 * 1024;
/** Decision PK353: the target is 150 KB; see docs/performance.md for what stands between. */
const CLIENT_BUNDLE_BUDGET_BYTES = 260 * 1024;

/**
 * Minified bytes of what `import(entry)` evaluates on Node: the bundle's
 * entry chunk and the chunks it imports statically (a lazy `import()` becomes
 * its own chunk, loaded only when called, so it is not counted).
 */
async function importWeight(entry: string): Promise<number> {
  const { metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    minify: true,
    write: false,
    outdir: path.join(ROOT, ".cache/import-weight"),
    platform: "node",
    format: "esm",
    metafile: true,
    logLevel: "silent",
  });
  const outputs = metafile.outputs;
  const first = Object.keys(outputs).find((name) => outputs[name]?.entryPoint !== undefined);
  const loaded = new Set<string>();
  const pending = first === undefined ? [] : [first];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (loaded.has(name)) continue;
    loaded.add(name);
    for (const i of outputs[name]?.imports ?? [])
      if (i.kind === "import-statement" && !i.external) pending.push(i.path);
  }
  return [...loaded].reduce((sum, name) => sum + (outputs[name]?.bytes ?? 0), 0);
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
  it(`importing the root entry evaluates at most ${ROOT_IMPORT_BUDGET_BYTES / 1024} KB of minified JavaScript`, async () => {
    const ours = await importWeight(path.join(DIST, "index.js"));
    console.log(`root entry import: ${(ours / 1024).toFixed(1)} KB of minified JavaScript evaluated`);
    expect(ours).toBeLessThanOrEqual(ROOT_IMPORT_BUDGET_BYTES);
  }, 60_000);

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
