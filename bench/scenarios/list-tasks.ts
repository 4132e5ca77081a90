/**
 * ListTasks over JSON-RPC (no filter, the default page of 50) against a store
 * holding N echo tasks, ours vs @a2a-js/sdk, one call at a time: p50 and p99
 * of the call's latency at the client. Targets: p99 under 5 ms at 100,000
 * stored tasks and under 10 ms at 1,000,000 (`make bench-long`), and never
 * slower than @a2a-js/sdk.
 */
import type { BenchTargets, OpenScenario, RoundsScenario, RowSpec, Sample, Side } from "../scenario.js";
import type { ChildServer } from "../support/child-server.js";
import { quantile } from "../support/stats.js";
import { startStoredServer } from "../support/stored-servers.js";

/** A side's window at one size: calls until both limits are passed. */
const WINDOW = { seconds: 0.75, calls: 5 };
const HEADERS = { "content-type": "application/json", "A2A-Version": "1.0" };
const BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} });
const SIDES: readonly Side[] = ["ours", "peer"];

/** p99 limits by store size. */
const P99_LIMIT_MS: Readonly<Record<number, number>> = { 100000: 5, 1000000: 10 };

async function check(server: ChildServer, stored: number): Promise<void> {
  const response = await fetch(server.url, { method: "POST", headers: HEADERS, body: BODY });
  // biome-ignore lint/suspicious/noExplicitAny: the answer is checked loosely.
  const answer: any = await response.json();
  const total = Number(answer?.result?.totalSize);
  if (answer?.result?.tasks?.length !== 50 || total !== stored) {
    throw new Error(`ListTasks over ${stored} tasks: ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

/** Latencies (ms) of ListTasks calls made one after another. */
async function latencies(server: ChildServer): Promise<number[]> {
  const out: number[] = [];
  const until = performance.now() + WINDOW.seconds * 1000;
  while (out.length < WINDOW.calls || performance.now() < until) {
    const sent = performance.now();
    const response = await fetch(server.url, { method: "POST", headers: HEADERS, body: BODY });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`ListTasks answered ${response.status}`);
    out.push(performance.now() - sent);
  }
  return out.sort((a, b) => a - b);
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
      const key = (side: Side, size: number) => `${side}@${size}`;
      try {
        for (const size of sizes) {
          for (const side of SIDES) {
            const { server } = await startStoredServer(side, size);
            servers.set(key(side, size), server);
            await check(server, size);
            await latencies(server);
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
            const sorted = await latencies(servers.get(key(side, size)) as ChildServer);
            sample[`p50@${size}`] = quantile(sorted, 0.5);
            sample[`p99@${size}`] = quantile(sorted, 0.99);
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
