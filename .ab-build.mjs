import { build } from "tsdown";
const dir = process.argv[2];
await build({ entry: { ours: `${dir}/bench/servers/ours.ts` }, outDir: `${dir}/.cache/ab`, format: ["esm"], platform: "node", target: "node20", dts: false, sourcemap: false, clean: false, config: false, logLevel: "warn", deps: { neverBundle: [/^(?!\0|@oxc-project\/runtime\/)[^./]/] } });
