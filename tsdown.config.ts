import { defineConfig } from "tsdown";

export default defineConfig({
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
});
