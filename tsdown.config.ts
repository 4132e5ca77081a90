import { readFileSync } from "node:fs";
import { defineConfig, type UserConfig } from "tsdown";

/**
 * The package's entries, from package.json `exports`: `./<name>` is built
 * from `src/<name>/index.ts` into `dist/<name>.js`, the root from
 * `src/index.ts` (test/package/entries.test.ts holds the two lists together).
 */
const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  exports: Record<string, unknown>;
};
const entries = Object.fromEntries(
  Object.keys(pkg.exports)
    .filter((subpath) => subpath !== "./package.json")
    .map((subpath) =>
      subpath === "." ? ["index", "src/index.ts"] : [subpath.slice(2), `src/${subpath.slice(2)}/index.ts`],
    ),
);

const common: UserConfig = {
  // ESM only: every Node the `engines` field allows loads it from `require()` too (require(esm), decision PK350),
  // so the entries share their chunks and each module exists once (one AsyncLocalStorage, one error class).
  format: ["esm"],
  platform: "node",
  target: "es2022",
  sourcemap: true,
  // `make build` empties dist/ first; the builds below must not empty it under each other.
  clean: false,
  fixedExtension: false,
};

export default defineConfig([
  {
    ...common,
    entry: entries,
    // `@internal` members stay out of the published types.
    dts: { compilerOptions: { stripInternal: true } },
    // The fleet schema ships as plain SQL beside the bundles; migrate() reads it from there.
    copy: [{ from: "src/fleet/migrations/*.sql", to: "dist/migrations" }],
  },
  {
    ...common,
    entry: entries,
    // What browser and Workers bundlers load (the `browser` condition of every entry): one file per source module,
    // as connect-es and protobuf-es ship, so an application's bundler splits it by file and a page using the
    // universal `Client` never loads protobuf-es's reflection up front. Node keeps the build above, whose shared
    // chunks load in half the files (decision PK360).
    outDir: "dist/browser",
    unbundle: true,
    dts: false,
  },
  {
    ...common,
    // The novaos-platform bin: one executable file (the shebang comes from src/local-platform/bin.ts).
    entry: { "novaos-platform": "src/local-platform/bin.ts" },
    dts: false,
  },
  {
    ...common,
    // The novaos-a2a bin: one executable file (the shebang comes from src/cli/main.ts); its terminal
    // libraries stay dependencies, loaded by the bin only.
    entry: { cli: "src/cli/main.ts" },
    dts: false,
  },
]);
