import { defineConfig } from "tsdown";

export default defineConfig([
  {
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    platform: "node",
    target: "node20",
    dts: true,
    sourcemap: true,
    clean: true,
    fixedExtension: false,
    // canonicalize ships ESM only (an "import"-only exports map): inline it so the CJS build can load.
    deps: { alwaysBundle: ["canonicalize"] },
  },
  {
    // The novaos-a2a bin: one executable ESM file (the shebang comes from src/cli/main.ts); its terminal
    // libraries stay dependencies, loaded by the bin only.
    entry: { cli: "src/cli/main.ts" },
    format: ["esm"],
    platform: "node",
    target: "node20",
    dts: false,
    sourcemap: true,
    clean: false,
    fixedExtension: false,
    deps: { alwaysBundle: ["canonicalize"] },
  },
]);
