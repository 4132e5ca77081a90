/**
 * Where an echo server spends its time: `npx tsx bench/profile.ts <row>
 * [ours|peer|ceiling] [--cpu-prof]` loads one server of an echo row
 * (`jsonrpc`, `http-json`, `grpc`) as a `make bench` round does (32
 * connections, 5 s) and prints its rate, the server's CPU time per call and
 * how busy the server process was (CPU time / wall time; 1.0 is one core).
 * `--cpu-prof` also writes a V8 CPU profile of the server to .cache/profiles/
 * (open it in Chrome DevTools) and prints its top functions by self time.
 * `--gc` traces the server's garbage collections and prints, per call, what
 * it allocated, what survived to be copied and what the young collections
 * cost on the main thread and on V8's helper threads (bench/support/gc-trace.ts).
 */
import { fileURLToPath } from "node:url";
import { ECHO_ROWS as ROWS } from "./scenarios/echo-rows.js";
import { summariseProfile } from "./support/cpu-profile.js";
import type { EchoTargets } from "./support/echo-targets.js";
import { measureEcho } from "./support/echo-targets.js";

const PROFILES = fileURLToPath(new URL("../.cache/profiles", import.meta.url));
const SECONDS = 5;
const TOP_FRAMES = 25;

const args = process.argv.slice(2);
const cpuProf = args.includes("--cpu-prof");
const traceGc = args.includes("--gc");
const [rowName = "", which = "ours"] = args.filter((a) => !a.startsWith("--"));
const row = ROWS[rowName];
const target = row?.[which as keyof EchoTargets];
if (!target) {
  process.stderr.write(
    `usage: bench/profile.ts <${Object.keys(ROWS).join("|")}> [ours|peer|ceiling] [--cpu-prof] [--gc]\n`,
  );
  process.exit(2);
}

const profileName = `${rowName}-${which}-${Date.now()}.cpuprofile`;
const result = await measureEcho(
  target,
  { connections: 32, durationSeconds: SECONDS, warmupSeconds: 1 },
  {
    execArgv: cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${PROFILES}`, `--cpu-prof-name=${profileName}`] : [],
    traceGc,
  },
);
const { user, system } = result.cpu;
const windowUs = (result.calls / result.rate) * 1e6;
process.stdout.write(
  `${rowName} ${which} (${target.server}): ${Math.round(result.rate).toLocaleString("en")} calls/s, ` +
    `${((user + system) / result.calls).toFixed(1)} µs server CPU per call (user ${(user / result.calls).toFixed(1)}, ` +
    `system ${(system / result.calls).toFixed(1)}), server busy ${((user + system) / windowUs).toFixed(2)} cores\n`,
);
if (result.gc) {
  const { scavenges, markCompacts, perCall: gc } = result.gc;
  process.stdout.write(
    `gc per call: ${(gc.allocatedBytes / 1024).toFixed(1)} KB allocated, ${Math.round(gc.survivedBytes)} B survived ` +
      `(${Math.round(gc.promotedBytes)} B promoted); young collections ${gc.scavengeMainUs.toFixed(2)} µs on the main ` +
      `thread + ${gc.scavengeHelpersUs.toFixed(2)} µs on helpers; full-collection pauses ${gc.markCompactPauseUs.toFixed(2)} µs ` +
      `(${scavenges} young, ${markCompacts} full collections in the window)\n`,
  );
}
if (cpuProf) {
  const file = `${PROFILES}/${profileName}`;
  const summary = await summariseProfile(file, TOP_FRAMES);
  process.stdout.write(`profile ${file} (main thread busy ${Math.round(summary.busyMs)} ms), self time:\n`);
  for (const { frame, share } of summary.top)
    process.stdout.write(`${(share * 100).toFixed(1).padStart(6)} %  ${frame}\n`);
}
