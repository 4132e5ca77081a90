/**
 * What loading the package costs a process: the CPU time (user + system) and
 * wall time of one `import()` of the built root entry in a fresh Node (the
 * median of five processes per round), beside the @a2a-js/sdk client entry.
 * `open()` builds dist/ first, so the row measures this tree. The target is
 * decision PK353's: at most 200 ms of CPU.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { OpenScenario, RoundsScenario, Side } from "../scenario.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SAMPLES_PER_ROUND = 5;

const SPECIFIERS: Partial<Record<Side, string>> = {
  ours: `${ROOT}dist/index.js`,
  peer: "@a2a-js/sdk/client",
};

/** CPU and wall milliseconds of `import(specifier)` in a fresh Node. */
function importOnce(specifier: string): { cpu: number; wall: number } {
  const code =
    `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(specifier)});` +
    "const u = process.cpuUsage(c); console.log((u.user + u.system) / 1000, performance.now() - t);";
  const [cpu, wall] = execFileSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .trim()
    .split(" ")
    .map(Number) as [number, number];
  return { cpu, wall };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export const importCost: RoundsScenario = {
  name: "root entry import",
  rows: [
    { key: "cpu", name: "import of the root entry, CPU", unit: "ms", targets: { maximum: 200 } },
    { key: "wall", name: "import of the root entry, wall", unit: "ms" },
  ],
  async open(): Promise<OpenScenario> {
    execFileSync(`${ROOT}node_modules/.bin/tsdown`, [], { cwd: ROOT, stdio: "ignore" });
    return {
      sides: ["ours", "peer"] satisfies Side[],
      async measure(side) {
        const samples = Array.from({ length: SAMPLES_PER_ROUND }, () => importOnce(SPECIFIERS[side] as string));
        return { cpu: median(samples.map((s) => s.cpu)), wall: median(samples.map((s) => s.wall)) };
      },
      close: async () => undefined,
    };
  },
};
