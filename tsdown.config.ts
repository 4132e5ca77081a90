import { defineConfig, type UserConfig } from "tsdown";

const common: UserConfig = {
  format: ["esm", "cjs"],
  platform: "node",
  target: "node20",
  dts: true,
  sourcemap: true,
  // `make build` empties dist/ first; the builds below must not empty it under each other.
  clean: false,
  fixedExtension: false,
  // canonicalize ships ESM only (an "import"-only exports map): inline it so the CJS build can load.
  deps: { alwaysBundle: ["canonicalize"] },
};

export default defineConfig([
  { ...common, entry: { index: "src/index.ts" } },
  {
    ...common,
    // Its own build: CJS chunks shared between two entries require each other in a cycle and fail to load.
    entry: { fleet: "src/fleet/index.ts" },
    // The fleet schema ships as plain SQL beside the bundles; migrate() reads it from there.
    copy: [{ from: "src/fleet/migrations/*.sql", to: "dist/migrations" }],
  },
  {
    ...common,
    // Its own build, like the fleet's: nothing of the local platform lands in a client or agent bundle.
    entry: { "local-platform": "src/local-platform/index.ts" },
  },
  {
    ...common,
    // The novaos-platform bin: one executable ESM file (the shebang comes from src/local-platform/bin.ts).
    entry: { "novaos-platform": "src/local-platform/bin.ts" },
    format: ["esm"],
    dts: false,
  },
  {
    ...common,
    // The novaos-a2a bin: one executable ESM file (the shebang comes from src/cli/main.ts); its terminal
    // libraries stay dependencies, loaded by the bin only.
    entry: { cli: "src/cli/main.ts" },
    format: ["esm"],
    dts: false,
  },
]);
