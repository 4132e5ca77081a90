/**
 * `npx tsx bench/fleet-drivers.ts`: the two PostgreSQL drivers for Node, `pg`
 * (node-postgres) and `postgres` (porsager), on the fleet store's own
 * workload, statements and row codec: save a typical task (insert, then
 * versioned updates), get one by id, and a default ListTasks page (50 tasks
 * and the total) among 100,000 rows. Both with prepared statements and a pool
 * of 10 connections; latency one call at a time, throughput with 32 calls in
 * flight; three interleaved rounds, medians. Also the row codec itself:
 * ProtoJSON (the generated codecs) against binary protobuf.
 *
 * Starts its own throwaway cluster (as the tests do), or uses
 * NOVAOS_BENCH_POSTGRES_URL (a database it may fill and drop tables in).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import pg from "pg";
import postgres from "postgres";
import { ArtifactSchema, MessageSchema, Role, type Task, TaskSchema, TaskState } from "../gen/a2a_pb.js";
import { migrate } from "../src/fleet/migrate.js";
import type { Statement } from "../src/fleet/postgres-pool.js";
import { taskFromRow, taskRowValues } from "../src/fleet/task-rows.js";
import { GET_TASK, listTasksStatement, SAVE_TASK } from "../src/fleet/task-sql.js";
import { findPostgresBin, startPostgresCluster } from "../test/fleet/support/postgres-cluster.js";

const ROWS = 100_000;
const IN_FLIGHT = 32;
const POOL = 10;
const ROUNDS = 3;

type Exec = (statement: Statement, values: unknown[]) => Promise<Record<string, unknown>[]>;

interface Driver {
  readonly name: string;
  readonly exec: Exec;
  end(): Promise<void>;
}

function pgDriver(url: string): Driver {
  const pool = new pg.Pool({ connectionString: url, max: POOL });
  return {
    name: "pg 8.23.1",
    exec: async (statement, values) => (await pool.query({ name: statement.name, text: statement.text, values })).rows,
    end: () => pool.end(),
  };
}

function postgresDriver(url: string): Driver {
  const sql = postgres(url, { max: POOL, onnotice: () => undefined });
  return {
    name: "postgres 3.4.9",
    exec: async (statement, values) =>
      (await sql.unsafe(statement.text, values as postgres.ParameterOrJSON<never>[], { prepare: true })) as Record<
        string,
        unknown
      >[],
    end: () => sql.end(),
  };
}

const text = (t: string) => ({ content: { case: "text" as const, value: t } });
const words = "the quick brown fox jumps over the lazy dog ".repeat(6);

/** An echo task as the harness stores it when done: two messages, one artifact, metadata. */
function typicalTask(id: string, ms: number): Task {
  const message = (role: Role, t: string) =>
    create(MessageSchema, { messageId: crypto.randomUUID(), role, taskId: id, contextId: "ctx-1", parts: [text(t)] });
  const reply = message(Role.AGENT, words);
  return create(TaskSchema, {
    id,
    contextId: "ctx-1",
    status: { state: TaskState.COMPLETED, timestamp: timestampFromMs(ms), message: reply },
    history: [message(Role.USER, words), reply],
    artifacts: [create(ArtifactSchema, { artifactId: "output", name: "output", parts: [text(words)] })],
    metadata: { skillId: "echo", trace: { spans: [1, 2, 3], sampled: true } },
  });
}

async function setUp(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      "DROP TABLE IF EXISTS a2a_tasks, a2a_task_counts, a2a_push_configs, a2a_task_events, a2a_task_leases," +
        " a2a_schema_migrations; DROP FUNCTION IF EXISTS a2a_count_tasks, a2a_count_task_changes",
    );
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await migrate(pool).finally(() => pool.end());
    const [contextId, , , , taskText, artifacts] = taskRowValues(typicalTask("TEMPLATE-ID", 0));
    await client.query(
      `INSERT INTO a2a_tasks (scope, id, owner, context_id, state, sort_seconds, sort_nanos, version, task, artifacts)
       SELECT 'bench', 'bench-' || i, '', $1 || (i % 100), CASE WHEN i % 3 = 0 THEN 3 ELSE 4 END,
              -(1700000000 + i), 0, 1, replace($2, 'TEMPLATE-ID', 'bench-' || i), $3
       FROM generate_series(1, ${ROWS}) AS i`,
      [contextId, taskText, artifacts],
    );
    await client.query("VACUUM ANALYZE a2a_tasks");
  } finally {
    await client.end();
  }
}

interface Workload {
  readonly name: string;
  /** Calls measured one at a time, then with 32 in flight. */
  readonly calls: readonly [number, number];
  /** One call; `i` numbers the calls of a run. */
  call(exec: Exec, i: number): Promise<void>;
}

let runId = 0;
const versions = new Map<string, number>();

const workloads: Workload[] = [
  {
    name: "save (insert a new task)",
    calls: [300, 2000],
    async call(exec, i) {
      const id = `new-${runId}-${i}`;
      const task = typicalTask(id, Date.now());
      const rows = await exec(SAVE_TASK, ["bench", id, "", ...taskRowValues(task), 0]);
      versions.set(id, Number(rows[0]?.version));
    },
  },
  {
    name: "save (update, version checked)",
    calls: [300, 2000],
    async call(exec, i) {
      const id = `bench-${(i % 5000) + 1}`;
      const version = versions.get(id) ?? 1;
      const rows = await exec(SAVE_TASK, ["bench", id, "", ...taskRowValues(typicalTask(id, Date.now())), version]);
      if (rows.length !== 1) throw new Error(`conflict on ${id}`);
      versions.set(id, version + 1);
    },
  },
  {
    name: "get by id",
    calls: [300, 2000],
    async call(exec, i) {
      const id = `bench-${((i * 7919) % ROWS) + 1}`;
      const row = (await exec(GET_TASK, ["bench", id]))[0] as { task: string; artifacts: string };
      taskFromRow(id, row.task, row.artifacts);
    },
  },
  {
    name: "ListTasks page (50 of 100k, with total)",
    calls: [100, 300],
    async call(exec) {
      const { statement, values } = listTasksStatement("bench", {
        owner: "",
        contextId: "",
        status: TaskState.UNSPECIFIED,
        statusTimestampAfter: undefined,
        after: undefined,
        pageSize: 50,
        includeArtifacts: false,
      });
      const rows = (await exec(statement, values)) as { id: string; task: string; artifacts: string | null }[];
      for (const row of rows.slice(0, 50)) taskFromRow(row.id, row.task, row.artifacts);
    },
  },
];

async function latency(exec: Exec, workload: Workload, calls: number): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await workload.call(exec, i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(calls * 0.5)] as number, p99: times[Math.floor(calls * 0.99)] as number };
}

async function throughput(exec: Exec, workload: Workload, calls: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < calls) await workload.call(exec, 100_000 + next++);
    }),
  );
  return (calls / (performance.now() - t0)) * 1000;
}

function codecRow(): string[] {
  const task = typicalTask(crypto.randomUUID(), Date.now());
  const time = (f: () => unknown) => {
    for (let i = 0; i < 2000; i++) f();
    const n = 20_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) f();
    return ((performance.now() - t0) / n) * 1000;
  };
  const values = taskRowValues(task);
  const binary = toBinary(TaskSchema, task);
  return [
    `ProtoJSON (generated codecs): ${(values[4].length + values[5].length).toLocaleString("en")} bytes, ` +
      `encode ${time(() => taskRowValues(task)).toFixed(1)} µs, decode ${time(() => taskFromRow(task.id, values[4], values[5])).toFixed(1)} µs`,
    `binary protobuf (protobuf-es): ${binary.length.toLocaleString("en")} bytes, ` +
      `encode ${time(() => toBinary(TaskSchema, task)).toFixed(1)} µs, decode ${time(() => fromBinary(TaskSchema, binary)).toFixed(1)} µs`,
  ];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  let url = process.env.NOVAOS_BENCH_POSTGRES_URL;
  let stop: () => Promise<void> = async () => undefined;
  if (!url) {
    const bin = findPostgresBin();
    if (!bin) throw new Error("No PostgreSQL binaries found: install PostgreSQL or set NOVAOS_BENCH_POSTGRES_URL");
    const cluster = await startPostgresCluster(bin);
    process.once("exit", () => cluster.stopNow());
    process.once("SIGINT", () => process.exit(130));
    process.once("SIGTERM", () => process.exit(143));
    url = cluster.url;
    stop = () => cluster.stop();
  }
  try {
    process.stderr.write(`loading ${ROWS.toLocaleString("en")} tasks…\n`);
    await setUp(url);
    const results = new Map<string, { p50: number[]; p99: number[]; rate: number[] }>();
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [pgDriver, postgresDriver] : [postgresDriver, pgDriver];
      for (const make of order) {
        const driver = make(url);
        for (const workload of workloads) {
          runId++;
          process.stderr.write(`round ${round + 1}: ${driver.name}, ${workload.name}\n`);
          const lat = await latency(driver.exec, workload, workload.calls[0]);
          const rate = await throughput(driver.exec, workload, workload.calls[1]);
          const key = `${workload.name}\u0000${driver.name}`;
          const r = results.get(key) ?? { p50: [], p99: [], rate: [] };
          r.p50.push(lat.p50);
          r.p99.push(lat.p99);
          r.rate.push(rate);
          results.set(key, r);
        }
        await driver.end();
      }
    }
    const lines = [
      "workload | driver | p50 ms (1 in flight) | p99 ms | calls/s (32 in flight)",
      "--- | --- | --- | --- | ---",
    ];
    for (const [key, r] of results) {
      const [workload, driver] = key.split("\u0000");
      lines.push(
        `${workload} | ${driver} | ${median(r.p50).toFixed(3)} | ${median(r.p99).toFixed(3)} | ${Math.round(median(r.rate)).toLocaleString("en")}`,
      );
    }
    process.stdout.write(`\n${lines.join("\n")}\n\nrow codec, one typical task:\n- ${codecRow().join("\n- ")}\n`);
  } finally {
    await stop();
  }
}

await main();
