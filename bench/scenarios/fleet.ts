/**
 * Fleet mode on PostgreSQL (docs/fleet.md), bench/servers/fleet-replica.ts
 * on a throwaway cluster:
 *
 * - SendMessage echo over JSON-RPC at 32 connections, one replica on
 *   PgTaskFleet (the "ours" column) against the same agent on the in-memory
 *   store (the "ceiling" column): target ours / ceiling ≥ 0.5.
 * - Cross-replica subscribe: a skill on replica A writes a chunk every 2 ms,
 *   each carrying the wall-clock time just before the write; a SubscribeToTask
 *   stream on replica B (our Client, JSON-RPC) takes the time each frame
 *   arrives: p50 and p99 of the difference (same machine, same clock). Target
 *   p99 < 50 ms.
 * - `make bench-long`: ListTasks (the default page of 50) on a replica over
 *   1,000,000 stored tasks, one call at a time: p50 and p99. Target p99 < 20 ms.
 */
import type { Task } from "../../gen/a2a_pb.js";
import { TaskNotFoundError } from "../../src/a2a/errors.js";
import { Client } from "../../src/client/client.js";
import type { OpenScenario, RoundsScenario, Sample, Side } from "../scenario.js";
import { type BenchDatabase, benchDatabase } from "../support/bench-postgres.js";
import { type ChildServer, startServer } from "../support/child-server.js";
import { ECHO_MESSAGE } from "../support/echo-message.js";
import { httpLoad } from "../support/load.js";
import { quantile } from "../support/stats.js";

const ECHO_BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: ECHO_MESSAGE } });
const HEADERS = { "A2A-Version": "1.0" };
const TICKS = 200;

// biome-ignore lint/suspicious/noExplicitAny: the answer is checked loosely.
const completed = (body: any) => body?.result?.task?.status?.state === "TASK_STATE_COMPLETED";

/** ms from each tick's write on A to its frame on B. */
async function subscribeLatencies(a: ChildServer, b: ChildServer): Promise<number[]> {
  await using onA = new Client({ baseUrl: a.url, binding: "JSONRPC" });
  await using onB = new Client({ baseUrl: b.url, binding: "JSONRPC" });
  const task = (await onA.sendMessage(String(TICKS), { skillId: "ticks", returnImmediately: true })) as Task;
  // returnImmediately answers before the task's first save commits: B finds it a moment later.
  for (let found = false; !found; ) {
    found = await onB.getTask(task.id).then(
      () => true,
      (error: unknown) => {
        if (error instanceof TaskNotFoundError) return false;
        throw error;
      },
    );
  }
  const out: number[] = [];
  for await (const frame of onB.subscribeToTask(task.id)) {
    const arrived = performance.timeOrigin + performance.now();
    if (frame.payload.case !== "artifactUpdate") continue;
    for (const part of frame.payload.value.artifact?.parts ?? []) {
      if (part.content.case === "text") out.push(arrived - Number(part.content.value));
    }
  }
  if (out.length < TICKS / 2) throw new Error(`only ${out.length} of ${TICKS} ticks reached replica B`);
  return out.sort((x, y) => x - y);
}

export const fleet: RoundsScenario = {
  name: "Fleet mode (PostgreSQL)",
  rows: [
    {
      key: "echo",
      name: "SendMessage echo, PgTaskFleet (ours) vs in-memory store (ceiling), c=32",
      unit: "req/s",
      targets: { vsCeiling: 0.5 },
    },
    {
      key: "subscribeP50",
      name: "Cross-replica subscribe, skill write on A → frame on B, p50",
      unit: "ms",
      note: `${TICKS} chunks, one every 2 ms`,
    },
    {
      key: "subscribeP99",
      name: "Cross-replica subscribe, skill write on A → frame on B, p99",
      unit: "ms",
      targets: { maximum: 50 },
    },
  ],
  async open(): Promise<OpenScenario> {
    const db = await benchDatabase();
    const env = { BENCH_DATABASE_URL: db.url };
    const servers: ChildServer[] = [];
    try {
      const [a, b, memory] = [
        await startServer("fleet-replica", { env }),
        await startServer("fleet-replica", { env }),
        await startServer("fleet-replica"),
      ] as [ChildServer, ChildServer, ChildServer];
      servers.push(a, b, memory);
      return {
        sides: ["ours", "ceiling"] satisfies Side[],
        async measure(side): Promise<Sample> {
          const target = side === "ours" ? a : memory;
          const load = await httpLoad({ url: target.url, body: ECHO_BODY, headers: HEADERS, verify: completed });
          if (side !== "ours") return { echo: load.rate } satisfies Sample;
          const latencies = await subscribeLatencies(a, b);
          return {
            echo: load.rate,
            subscribeP50: quantile(latencies, 0.5),
            subscribeP99: quantile(latencies, 0.99),
          } satisfies Sample;
        },
        async close() {
          await Promise.all(servers.map((s) => s.stop()));
          await db.close();
        },
      };
    } catch (error) {
      await Promise.all(servers.map((s) => s.stop()));
      await db.close();
      throw error;
    }
  },
};

const STORED = 1_000_000;
const LIST_BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} });

/** Fills the anonymous caller's partition with `count` completed tasks in one statement (counted once, by its statement trigger). */
async function fillTasks(db: BenchDatabase, count: number): Promise<void> {
  await db.pool.query(
    `INSERT INTO a2a_tasks (scope, id, owner, context_id, state, sort_seconds, sort_nanos, version, task, artifacts)
SELECT '0:', 'task-' || i, '', 'ctx-' || (i % 1000), 3, -(1700000000 + i), 0, 1,
  '{"id":"task-' || i || '","contextId":"ctx-' || (i % 1000) || '","status":{"state":"TASK_STATE_COMPLETED","timestamp":"' ||
  to_char(to_timestamp(1700000000 + i) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '"}}', '[]'
FROM generate_series(1, $1::integer) AS i`,
    [count],
  );
  await db.pool.query("ANALYZE a2a_tasks");
}

/** Latencies (ms) of ListTasks calls one after another, at least 0.75 s and 20 calls. */
async function listLatencies(server: ChildServer): Promise<number[]> {
  const out: number[] = [];
  const until = performance.now() + 750;
  while (out.length < 20 || performance.now() < until) {
    const sent = performance.now();
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...HEADERS },
      body: LIST_BODY,
    });
    // biome-ignore lint/suspicious/noExplicitAny: the answer is checked loosely.
    const answer: any = await response.json();
    out.push(performance.now() - sent);
    if (answer?.result?.tasks?.length !== 50 || Number(answer.result.totalSize) !== STORED) {
      throw new Error(`ListTasks over ${STORED} tasks: ${JSON.stringify(answer).slice(0, 300)}`);
    }
  }
  return out.sort((x, y) => x - y);
}

export const fleetListTasksLong: RoundsScenario = {
  name: "Fleet mode ListTasks, 1M stored tasks (PostgreSQL)",
  long: true,
  rows: [
    { key: "p50", name: "ListTasks p50, 1,000,000 tasks in PostgreSQL, page of 50", unit: "ms" },
    {
      key: "p99",
      name: "ListTasks p99, 1,000,000 tasks in PostgreSQL, page of 50",
      unit: "ms",
      targets: { maximum: 20 },
    },
  ],
  async open(): Promise<OpenScenario> {
    const db = await benchDatabase();
    let server: ChildServer | undefined;
    try {
      await fillTasks(db, STORED);
      server = await startServer("fleet-replica", { env: { BENCH_DATABASE_URL: db.url } });
      await listLatencies(server);
    } catch (error) {
      await server?.stop();
      await db.close();
      throw error;
    }
    const replica = server;
    return {
      sides: ["ours"] satisfies Side[],
      async measure() {
        const sorted = await listLatencies(replica);
        return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) } satisfies Sample;
      },
      async close() {
        await replica.stop();
        await db.close();
      },
    };
  },
};
