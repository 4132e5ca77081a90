/**
 * ListTasks latency at 10,000, 100,000 and 1,000,000 stored tasks, ours vs
 * @a2a-js/sdk (its DefaultRequestHandler over its in-memory store), both over
 * JSON-RPC on node:http / Express, each server in its own process with its
 * store filled before it listens (bench/servers/ours-list.ts,
 * bench/servers/a2a-js-list.ts). One call at a time, the default request (no
 * filter, 50 per page, no artifacts) and one filtered by context, in
 * interleaved rounds (ours, a2a-js, ours, …); each row is the median over
 * rounds of each round's p99, with the range of rounds, the server CPU per
 * call and the load average in its note. The first call on each server is
 * timed on its own (it pays for compiling the path) and left out of the
 * rounds.
 *
 * Targets: ours at most 5 ms p99 at 100,000 tasks and 10 ms at 1,000,000,
 * and never slower than a2a-js at any size (decision S450).
 *
 * `make bench` runs it (bench/scenarios/index.ts); `npx tsx
 * bench/scenarios/list-tasks.ts [sizes…]` runs it alone and prints the rows.
 */
import { loadavg } from "node:os";
import type { BenchRow, BenchScenario } from "../scenario.js";
import { type ChildServer, startServer } from "../support/child-server.js";

const ROUNDS = 5;
const HEAP = ["--max-old-space-size=8192"];
/** The p99 target of ours by size (none at 10,000). */
const TARGET_MS: Readonly<Record<number, number>> = { 100000: 5, 1000000: 10 };

interface Sample {
  readonly p99: number;
  readonly p50: number;
  /** Server CPU per call, ms. */
  readonly cpu: number;
}

const listRequest = (params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params });
const headers = { "content-type": "application/json", "A2A-Version": "1.0" };

async function call(url: string, body: string): Promise<{ totalSize: number; tasks: unknown[] }> {
  const reply = (await (await fetch(url, { method: "POST", headers, body })).json()) as {
    result?: { totalSize: number; tasks: unknown[] };
  };
  if (!reply.result) throw new Error(`ListTasks failed at ${url}: ${JSON.stringify(reply).slice(0, 300)}`);
  return reply.result;
}

/** `calls` sequential calls; latency percentiles and server CPU per call. */
async function measure(server: ChildServer, body: string, calls: number): Promise<Sample> {
  const latencies: number[] = [];
  const before = await server.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await call(server.url, body);
    latencies.push(performance.now() - started);
  }
  const after = await server.cpuUsage();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] as number;
  const cpu = (after.user + after.system - before.user - before.system) / 1000 / calls;
  return { p99: at(0.99), p50: at(0.5), cpu };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
const span = (values: readonly number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

async function sizeRows(size: number): Promise<BenchRow[]> {
  process.env.BENCH_LIST_TASKS = String(size);
  const ours = await startServer("ours-list", { probe: true, execArgv: HEAP });
  const peer = await startServer("a2a-js-list", { probe: true, execArgv: HEAP });
  try {
    const queries = [
      { label: "ListTasks", params: {} },
      { label: "ListTasks by context", params: { contextId: `context-${Math.floor(size / 20)}` } },
    ];
    const rows: BenchRow[] = [];
    for (const { label, params } of queries) {
      const body = listRequest(params);
      const first: number[] = [];
      const totals: number[] = [];
      for (const server of [ours, peer]) {
        const started = performance.now();
        totals.push((await call(server.url, body)).totalSize);
        first.push(performance.now() - started);
      }
      if (totals[0] !== totals[1]) throw new Error(`${label} at ${size}: totals differ (${totals.join(" vs ")})`);
      // a2a-js sorts the whole store per call: fewer calls where each takes seconds.
      const peerCalls = size >= 1_000_000 ? 5 : size >= 100_000 ? 30 : 100;
      const samples: { ours: Sample[]; peer: Sample[] } = { ours: [], peer: [] };
      await measure(ours, body, 20);
      await measure(peer, body, 2);
      for (let round = 0; round < ROUNDS; round++) {
        samples.ours.push(await measure(ours, body, 200));
        samples.peer.push(await measure(peer, body, peerCalls));
      }
      const p99 = (s: Sample[]) => s.map((x) => x.p99);
      const cpu = (s: Sample[]) => s.map((x) => x.cpu);
      const target = label === "ListTasks" ? TARGET_MS[size] : undefined;
      rows.push({
        name: `${label} p99 at ${size.toLocaleString("en")} tasks (ms, lower is better)`,
        unit: "ms",
        ours: median(p99(samples.ours)),
        peer: median(p99(samples.peer)),
        targets: target ? { maximum: target, maxVsPeer: 1 } : { maxVsPeer: 1 },
        note:
          `total ${totals[0]}; first call ours ${first[0]?.toFixed(1)} ms, a2a-js ${first[1]?.toFixed(1)} ms; p99 per round ours ${span(p99(samples.ours))} ms (200 calls), ` +
          `a2a-js ${span(p99(samples.peer))} ms (${peerCalls} calls); p50 ours ${median(samples.ours.map((x) => x.p50)).toFixed(2)} ms, ` +
          `a2a-js ${median(samples.peer.map((x) => x.p50)).toFixed(2)} ms; server CPU per call ours ${span(cpu(samples.ours))} ms, ` +
          `a2a-js ${span(cpu(samples.peer))} ms; load average ${loadavg()
            .map((l) => l.toFixed(1))
            .join(" ")}`,
      });
    }
    return rows;
  } finally {
    await ours.stop();
    await peer.stop();
  }
}

export function listTasksAt(sizes: readonly number[]): BenchScenario {
  return {
    name: "ListTasks",
    async run() {
      const rows: BenchRow[] = [];
      for (const size of sizes) rows.push(...(await sizeRows(size)));
      return rows;
    },
  };
}

export const listTasks = listTasksAt([10_000, 100_000, 1_000_000]);

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number);
  const rows = await (sizes.length > 0 ? listTasksAt(sizes) : listTasks).run();
  for (const row of rows) {
    const verdict = row.targets?.maximum === undefined ? "" : row.ours <= row.targets.maximum ? " ✓" : " ✗";
    console.log(
      `${row.name}: ours ${row.ours.toFixed(2)}, a2a-js ${row.peer?.toFixed(2)}${verdict}` +
        `${row.peer !== undefined && row.ours <= row.peer ? " (not slower than a2a-js)" : " (SLOWER than a2a-js)"}\n  ${row.note}`,
    );
  }
}
