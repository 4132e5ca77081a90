/**
 * ListTasks over JSON-RPC (no filter, the default page of 50) against a store
 * holding N echo tasks, ours vs @a2a-js/sdk, one call at a time: p50 and p99
 * of the call's latency at the client. Targets: p99 under 5 ms at 100,000
 * stored tasks and under 10 ms at 1,000,000 (`make bench-long`), and never
 * slower than @a2a-js/sdk. Before each side's window the other servers are
 * left to finish their own work (bench/support/idle-servers.ts).
 */
import type { BenchTargets, OpenScenario, RoundsScenario, RowSpec, Sample, Side } from "../scenario.js";
import type { ChildServer } from "../support/child-server.js";
import { waitUntilIdle } from "../support/idle-servers.js";
import { httpLoad, type LoadResult } from "../support/load.js";
import { startStoredServer } from "../support/stored-servers.js";

/**
 * A side's window at one size: one second of calls, or `calls` calls where
 * that many take longer (the peer's pages at 1M tasks take seconds each).
 */
const WINDOW = { seconds: 1, calls: 5 };
const BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} });
const SIDES: readonly Side[] = ["ours", "peer"];

/** p99 limits by store size. */
const P99_LIMIT_MS: Readonly<Record<number, number>> = { 100000: 5, 1000000: 10 };

/** A full page of 50 that counts every stored task. */
function fullPage(answer: unknown, stored: number): boolean {
  // biome-ignore lint/suspicious/noExplicitAny: the answer is checked loosely.
  const result = (answer as any)?.result;
  return result?.tasks?.length === 50 && Number(result?.totalSize) === stored;
}

/**
 * p50 and p99 of ListTasks calls made one after another, timed by
 * autocannon on one connection: the same lean client as the echo rows'
 * latencies, so a row reads the server and not the bench's own fetch, whose
 * allocations and GC made most of a 1 ms call's tail (decision S301).
 */
async function latencies(server: ChildServer, stored: number, callMs: number): Promise<LoadResult> {
  const window =
    callMs * WINDOW.calls > WINDOW.seconds * 1000 ? { calls: WINDOW.calls } : { durationSeconds: WINDOW.seconds };
  return httpLoad({
    url: server.url,
    body: BODY,
    headers: { "A2A-Version": "1.0" },
    verify: (answer) => fullPage(answer, stored),
    connections: 1,
    warmupSeconds: 0,
    ...window,
  });
}

/** One call's time, ms, with its answer checked. */
async function timedCall(server: ChildServer, stored: number): Promise<number> {
  const sent = performance.now();
  const response = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json", "A2A-Version": "1.0" },
    body: BODY,
  });
  const answer = await response.json();
  if (!fullPage(answer, stored))
    throw new Error(`ListTasks over ${stored} tasks: ${JSON.stringify(answer).slice(0, 300)}`);
  return performance.now() - sent;
}

const count = (n: number) => n.toLocaleString("en");

function listTasksScenario(name: string, sizes: readonly number[], long: boolean): RoundsScenario {
  const rows: RowSpec[] = sizes.flatMap((size) => {
    const p99Limit = P99_LIMIT_MS[size];
    const neverSlower: BenchTargets = { maxVsPeer: 1 };
    return [
      { key: `p50@${size}`, name: `ListTasks p50, ${count(size)} stored tasks`, unit: "ms", targets: neverSlower },
      {
        key: `p99@${size}`,
        name: `ListTasks p99, ${count(size)} stored tasks`,
        unit: "ms",
        targets: p99Limit === undefined ? neverSlower : { ...neverSlower, maximum: p99Limit },
      },
    ];
  });
  return {
    name,
    rows,
    ...(long ? { long: true } : {}),
    async open(): Promise<OpenScenario> {
      const servers = new Map<string, ChildServer>();
      const callMs = new Map<string, number>();
      const key = (side: Side, size: number) => `${side}@${size}`;
      try {
        for (const size of sizes) {
          for (const side of SIDES) {
            const { server } = await startStoredServer(side, size);
            servers.set(key(side, size), server);
            // The first call builds the store's ListTasks indexes (decision S450): the window's length is chosen
            // from the second, a call like the measured ones.
            await timedCall(server, size);
            callMs.set(key(side, size), await timedCall(server, size));
            await latencies(server, size, callMs.get(key(side, size)) as number);
          }
        }
      } catch (error) {
        await Promise.all([...servers.values()].map((s) => s.stop()));
        throw error;
      }
      return {
        sides: SIDES,
        async measure(side) {
          const sample: Record<string, number> = {};
          for (const size of sizes) {
            const at = key(side, size);
            await waitUntilIdle([...servers].filter(([k]) => k !== at).map(([, server]) => server));
            const { p50, p99 } = await latencies(servers.get(at) as ChildServer, size, callMs.get(at) as number);
            sample[`p50@${size}`] = p50 as number;
            sample[`p99@${size}`] = p99 as number;
          }
          return sample satisfies Sample;
        },
        async close() {
          await Promise.all([...servers.values()].map((s) => s.stop()));
        },
      };
    },
  };
}

export const listTasks = listTasksScenario("JSON-RPC ListTasks", [10_000, 100_000], false);
export const listTasksLong = listTasksScenario("JSON-RPC ListTasks, 1M stored tasks", [1_000_000], true);
