/**
 * The universal entries stay universal: following every static import from
 * `src/index.ts` (the root entry) and `src/server/index.ts` reaches no Node
 * built-in and no package beyond the ones listed here, so the root runs in a
 * browser or a worker and the server on any Fetch runtime. Dynamic imports
 * are not followed (they load on the paths that need them), and neither is a
 * type-only import. The other entries may load what they need; the heavy
 * packages are held to the entries listed for them.
 */
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The packages (and Node built-ins) the static imports of `entry` reach, with one importer each. */
async function reached(entry: string): Promise<Map<string, string>> {
  const result = await build({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    write: false,
    platform: "neutral",
    format: "esm",
    packages: "external",
    external: ["node:*"],
    metafile: true,
    logLevel: "silent",
    absWorkingDir: ROOT,
  });
  // esbuild bundles what a dynamic import reaches too: walk the static edges from the entry only.
  const { inputs } = result.metafile;
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of inputs[file]?.imports ?? []) {
      if (imported.kind === "dynamic-import") continue;
      if (!imported.external) {
        queue.push(imported.path);
        continue;
      }
      const name = imported.path.startsWith("node:")
        ? imported.path
        : (/^(@[^/]+\/[^/]+|[^/]+)/.exec(imported.path)?.[1] ?? imported.path);
      if (!found.has(name)) found.set(name, file);
    }
  }
  return found;
}

/** What each universal entry may reach. */
const UNIVERSAL: Record<string, readonly string[]> = {
  "src/index.ts": ["@bufbuild/protobuf", "eventsource-parser"],
  // AsyncLocalStorage carries a skill's context (harness rule 6): Node, Bun, Deno and workerd all provide it.
  // pino's package has a browser build, which bundlers for Fetch runtimes pick.
  // The platform tools (`ctx.tools`, built for every run) bring their pure-JS helpers: the retry and breaker policy
  // (cockatiel), the service clients (openapi-fetch), schema validation (ajv, re2js, canonicalize, and
  // @cfworker/json-schema where the runtime refuses Ajv's generated code).
  "src/server/index.ts": [
    "@bufbuild/protobuf",
    "eventsource-parser",
    "node:async_hooks",
    "pino",
    "cockatiel",
    "openapi-fetch",
    "ajv",
    "canonicalize",
    "re2js",
    "@cfworker/json-schema",
  ],
};

/** The entries that may load each heavy package at import time; every other entry must not. */
const HEAVY: Record<string, readonly string[]> = {
  undici: ["src/node/index.ts", "src/discovery/index.ts", "src/platform/index.ts"],
  "@connectrpc/connect-node": ["src/grpc/index.ts"],
  "@noble/curves": ["src/security/index.ts"],
  "@noble/ciphers": ["src/security/index.ts"],
  // Discovery verifies card signatures.
  jose: ["src/security/index.ts", "src/discovery/index.ts"],
  "@opentelemetry/api": [],
};

const ENTRIES = [
  "src/index.ts",
  "src/server/index.ts",
  "src/node/index.ts",
  "src/grpc/index.ts",
  "src/discovery/index.ts",
  "src/platform/index.ts",
  "src/security/index.ts",
  "src/protocol/index.ts",
  "src/fleet/index.ts",
];

describe("universal entries", () => {
  it.each(Object.entries(UNIVERSAL))("%s reaches only runtime-neutral imports", async (entry, allowed) => {
    const found = await reached(entry);
    const extra = [...found].filter(([name]) => !allowed.includes(name)).map(([name, by]) => `${name} (from ${by})`);
    expect(extra).toEqual([]);
  });

  it("heavy packages load only with the entries that need them", async () => {
    const problems: string[] = [];
    for (const entry of ENTRIES) {
      const found = await reached(entry);
      for (const [pkg, entries] of Object.entries(HEAVY)) {
        const by = found.get(pkg);
        if (by !== undefined && !entries.includes(entry)) problems.push(`${entry} loads ${pkg} (from ${by})`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
