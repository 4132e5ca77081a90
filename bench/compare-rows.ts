/**
 * What one echo server's bindings cost beside each other:
 * `npx tsx bench/compare-rows.ts [checkout] [--rounds N]` runs the "ours"
 * echo server of this tree (or of another checkout with its node_modules, as
 * for compare.ts) once, and loads it with the JSON-RPC and the HTTP+JSON echo
 * rows in interleaved rounds (32 connections, 2.5 s windows, the order
 * swapped every round), so both bindings are measured on the same process,
 * the same store and the same background load. Prints each row's rate and
 * server CPU per call, and the HTTP+JSON minus JSON-RPC CPU per call, round
 * by round.
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { httpJsonEchoTargets } from "./scenarios/http-json-echo.js";
import { jsonRpcEchoTargets } from "./scenarios/jsonrpc-echo.js";
import { startServer } from "./support/child-server.js";
import { measuredWindow, rateAndCpu, warmUp } from "./support/echo-targets.js";
import { spread } from "./support/stats.js";

const CONNECTIONS = 32;
const ROWS = ["jsonrpc", "http-json"] as const;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: "string" } } });
const root = positionals[0] ?? fileURLToPath(new URL("..", import.meta.url));
const rounds = Number(values.rounds ?? 6);
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write("usage: bench/compare-rows.ts [checkout] [--rounds N]\n");
  process.exit(2);
}

const OURS = { jsonrpc: jsonRpcEchoTargets.ours, "http-json": httpJsonEchoTargets.ours };
const server = await startServer("ours", { root });
try {
  for (const row of ROWS) await warmUp(OURS[row], server, CONNECTIONS);
  const rates = { jsonrpc: [] as number[], "http-json": [] as number[] };
  const cpus = { jsonrpc: [] as number[], "http-json": [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (const row of round % 2 === 0 ? ROWS : [...ROWS].reverse()) {
      const { result, cpu } = await measuredWindow(OURS[row], server, CONNECTIONS);
      rates[row].push(result.rate);
      cpus[row].push(cpu);
    }
  }
  for (const row of ROWS) process.stdout.write(`${row}: ${rateAndCpu(rates[row], cpus[row])}\n`);
  const gap = spread(cpus["http-json"].map((c, r) => c - (cpus.jsonrpc[r] as number)));
  process.stdout.write(
    `HTTP+JSON minus JSON-RPC, per round: ${gap.median.toFixed(1)} µs per call (${gap.min.toFixed(1)}–${gap.max.toFixed(1)})\n`,
  );
} finally {
  await server.stop();
}
