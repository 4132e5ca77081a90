/**
 * Where an echo server spends its time: `npx tsx bench/profile.ts <row>
 * [ours|peer|ceiling] [--cpu-prof]` loads one server of an echo row
 * (`jsonrpc`, `http-json`, `grpc`) as `make bench` does and prints its rate,
 * the server's CPU time per call and how busy the server process was (CPU
 * time / wall time; 1.0 is one core). `--cpu-prof` also writes a V8 CPU
 * profile of the server to .cache/profiles/ (open it in Chrome DevTools).
 */
import { fileURLToPath } from "node:url";
import { grpcEchoTargets } from "./scenarios/grpc-echo.js";
import { httpJsonEchoTargets } from "./scenarios/http-json-echo.js";
import { jsonRpcEchoTargets } from "./scenarios/jsonrpc-echo.js";
import type { EchoTargets } from "./support/echo-targets.js";
import { measureEcho } from "./support/echo-targets.js";

const ROWS: Record<string, EchoTargets> = {
  jsonrpc: jsonRpcEchoTargets,
  "http-json": httpJsonEchoTargets,
  grpc: grpcEchoTargets,
};
const PROFILES = fileURLToPath(new URL("../.cache/profiles", import.meta.url));
const SECONDS = 5;

const args = process.argv.slice(2);
const cpuProf = args.includes("--cpu-prof");
const [rowName = "", which = "ours"] = args.filter((a) => !a.startsWith("--"));
const row = ROWS[rowName];
const target = row?.[which as keyof EchoTargets];
if (!target) {
  process.stderr.write(`usage: bench/profile.ts <${Object.keys(ROWS).join("|")}> [ours|peer|ceiling] [--cpu-prof]\n`);
  process.exit(2);
}

let cpuAtStart: NodeJS.CpuUsage = { user: 0, system: 0 };
let wallAtStart = 0;
let cpu: NodeJS.CpuUsage = { user: 0, system: 0 };
let wall = 0;
const rate = await measureEcho(
  target,
  { probe: true, execArgv: cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${PROFILES}`] : [] },
  (running) => ({
    async before() {
      cpuAtStart = await running.cpuUsage();
      wallAtStart = performance.now();
    },
    async after() {
      const end = await running.cpuUsage();
      cpu = { user: end.user - cpuAtStart.user, system: end.system - cpuAtStart.system };
      wall = (performance.now() - wallAtStart) * 1000;
    },
  }),
);
const calls = rate * SECONDS;
const total = cpu.user + cpu.system;
process.stdout.write(
  `${rowName} ${which} (${target.server}): ${Math.round(rate).toLocaleString("en")} calls/s, ` +
    `${(total / calls).toFixed(1)} µs server CPU per call (user ${(cpu.user / calls).toFixed(1)}, ` +
    `system ${(cpu.system / calls).toFixed(1)}), server busy ${(total / wall).toFixed(2)} cores\n`,
);
if (cpuProf) process.stdout.write(`profile written to ${PROFILES}\n`);
