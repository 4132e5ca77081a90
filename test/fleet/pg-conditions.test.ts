/**
 * The PostgreSQL stores under bad conditions and at size: typed errors for a
 * statement timeout, an exhausted pool and an unreachable server; damaged
 * rows that fail a `get` but never a listing; totals that stay exact under
 * concurrent writers; and the plan of a ListTasks page (an index range scan,
 * no sort of the scope, no OFFSET).
 */
import { Writable } from "node:stream";
import { create } from "@bufbuild/protobuf";
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { TaskPushNotificationConfigSchema, TaskState } from "../../gen/a2a_pb.js";
import { PgPushNotificationConfigStore } from "../../src/fleet/pg-push-config-store.js";
import { PgTaskStore } from "../../src/fleet/pg-task-store.js";
import { listTasksStatement } from "../../src/fleet/task-sql.js";
import { createLogger } from "../../src/runtime/logger.js";
import {
  CorruptRecordError,
  StoreTimeoutError,
  StoreUnavailableError,
  TaskVersionConflictError,
} from "../../src/server/store-errors.js";
import type { TaskCursor } from "../../src/server/task-store.js";
import { put, query, taskAt } from "../stores/task-store-suite.js";
import { useFleetDatabase } from "./support/fleet-database.js";
import { postgresUrl } from "./support/postgres.js";

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: createLogger({ level: "error", destination }), lines };
}

describe.skipIf(!postgresUrl)("PostgreSQL stores under bad conditions", () => {
  const db = useFleetDatabase();
  beforeEach(async () => {
    await db.current.clear();
  });

  it("answers a statement the server cancels after its timeout with StoreTimeoutError, writing nothing", async () => {
    const store = new PgTaskStore({ pool: db.current.pool });
    await put(store, taskAt("t", 1000));
    const pool = new pg.Pool({ connectionString: db.current.url, max: 1, statement_timeout: 100 });
    const holder = await db.current.pool.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM a2a_tasks WHERE id = 't' FOR UPDATE");
      const blocked = new PgTaskStore({ pool }).save(taskAt("t", 2000), "s", { owner: "", version: 1 });
      await expect(blocked).rejects.toBeInstanceOf(StoreTimeoutError);
    } finally {
      await holder.query("ROLLBACK");
      holder.release();
      await pool.end();
    }
    expect((await store.get("t", "s"))?.version).toBe(1);
  });

  it("answers a call that finds no free connection in time with StoreUnavailableError, and recovers", async () => {
    const pool = new pg.Pool({ connectionString: db.current.url, max: 1, connectionTimeoutMillis: 100 });
    const store = new PgTaskStore({ pool });
    const held = await pool.connect();
    try {
      await expect(store.get("t", "s")).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      held.release();
    }
    expect(await store.get("t", "s")).toBeUndefined();
    await pool.end();
  });

  it("answers a server nobody listens on with StoreUnavailableError", async () => {
    const url = new URL(db.current.url);
    url.port = "1";
    const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
    await expect(new PgTaskStore({ pool }).list("s", query())).rejects.toBeInstanceOf(StoreUnavailableError);
    await pool.end();
  });

  it("fails a get of a damaged row with CorruptRecordError, and lists every readable task around damaged ones", async () => {
    const { logger, lines } = capturingLogger();
    const store = new PgTaskStore({ pool: db.current.pool, logger });
    for (let i = 0; i < 8; i++) await put(store, taskAt(`t${i}`, 10_000 - i * 1000));
    // t1, t2 and t3 (three in a row, more than a page) and t6 are damaged in three different ways.
    await db.current.pool.query("UPDATE a2a_tasks SET task = 'not json' WHERE id IN ('t1', 't2')");
    await db.current.pool.query(`UPDATE a2a_tasks SET task = replace(task, '"t3"', '"other"') WHERE id = 't3'`);
    await db.current.pool.query(`UPDATE a2a_tasks SET artifacts = '{"no": "array"}' WHERE id = 't6'`);

    await expect(store.get("t1", "s")).rejects.toBeInstanceOf(CorruptRecordError);
    await expect(store.get("t3", "s")).rejects.toMatchObject({ recordId: "t3" });

    const seen: string[] = [];
    let after: TaskCursor | undefined;
    for (;;) {
      const page = await store.list("s", query({ pageSize: 2, after }));
      expect(page.totalSize).toBe(8);
      seen.push(...page.tasks.map((t) => t.task.id));
      if (!page.more) break;
      const last = page.tasks[page.tasks.length - 1]?.task;
      after = { statusTime: last?.status?.timestamp as TaskCursor["statusTime"], taskId: last?.id as string };
    }
    expect(seen).toEqual(["t0", "t4", "t5", "t7"]);
    // Without artifacts, t6's damaged artifacts are not even read.
    expect((await store.list("s", query({ includeArtifacts: false }))).tasks.map((t) => t.task.id)).toContain("t6");
    const reported = lines.filter((l) => l.message === "stored task cannot be read; left out of ListTasks");
    expect(new Set(reported.map((l) => l.task_id))).toEqual(new Set(["t1", "t2", "t3", "t6"]));
  });

  it("fails a get of a damaged push config and lists the readable ones", async () => {
    const { logger, lines } = capturingLogger();
    const store = new PgPushNotificationConfigStore({ pool: db.current.pool, logger });
    for (const id of ["a", "b", "c", "d"]) {
      await store.save(
        create(TaskPushNotificationConfigSchema, { taskId: "t", id, url: "https://h.example/" }),
        "s",
        "",
      );
    }
    await db.current.pool.query("UPDATE a2a_push_configs SET config = '[' WHERE id IN ('b', 'c')");
    await expect(store.get("t", "b", "s")).rejects.toBeInstanceOf(CorruptRecordError);
    const first = await store.list("t", "s", { after: undefined, pageSize: 1 });
    expect(first.configs.map((c) => c.config.id)).toEqual(["a"]);
    const rest = await store.list("t", "s", { after: "a", pageSize: 1 });
    expect(rest.configs.map((c) => c.config.id)).toEqual(["d"]);
    expect(rest.more).toBe(false);
    expect(lines.map((l) => l.config_id).sort()).toEqual(["b", "c"]);
  });

  it("keeps totals exact under concurrent writers, state changes and deletes", async () => {
    const store = new PgTaskStore({ pool: db.current.pool });
    await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        store.save(taskAt(`t${i}`, 1000 + i, { state: TaskState.WORKING }), i % 2 ? "a" : "b", {
          owner: i % 3 ? "x" : "y",
          version: 0,
        }),
      ),
    );
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        store.save(taskAt(`t${i}`, 5000 + i, { state: TaskState.COMPLETED }), i % 2 ? "a" : "b", {
          owner: "ignored",
          version: 1,
        }),
      ),
    );
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.delete(`t${100 + i}`, i % 2 ? "a" : "b")));
    const counted = await db.current.pool.query(
      "SELECT scope, owner, state, sum(n)::int AS n FROM a2a_task_counts GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3",
    );
    const actual = await db.current.pool.query(
      "SELECT scope, owner, state, count(*)::int AS n FROM a2a_tasks GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
    );
    expect(counted.rows).toEqual(actual.rows);
    for (const owner of ["x", "y"]) {
      for (const status of [TaskState.UNSPECIFIED, TaskState.WORKING, TaskState.COMPLETED]) {
        const page = await store.list("a", query({ owner, status, pageSize: 100 }));
        expect(page.totalSize).toBe(page.tasks.length);
      }
    }
    await expect(store.save(taskAt("t0", 1), "b", { owner: "", version: 1 })).rejects.toBeInstanceOf(
      TaskVersionConflictError,
    );
  });

  it("counts tasks once per statement: bulk inserts, state changes and deletes keep exact totals (S675)", async () => {
    const pool = db.current.pool;
    const triggers = await pool.query(
      "SELECT tgname, tgtype & 1 AS per_row FROM pg_trigger WHERE tgrelid = 'a2a_tasks'::regclass AND NOT tgisinternal",
    );
    expect(triggers.rows.map((t) => t.per_row)).toEqual([0, 0, 0]);
    const totals = async () =>
      (
        await pool.query(
          "SELECT state, sum(n)::int AS n FROM a2a_task_counts WHERE scope = 'bulk' GROUP BY state HAVING sum(n) <> 0 ORDER BY state",
        )
      ).rows;
    await pool.query(
      `INSERT INTO a2a_tasks (scope, id, owner, context_id, state, sort_seconds, sort_nanos, version, task, artifacts)
       SELECT 'bulk', 'task-' || i, '', 'c', 2, -i, 0, 1, '{}', '[]' FROM generate_series(1, 5000) AS i`,
    );
    expect(await totals()).toEqual([{ state: 2, n: 5000 }]);
    // Versions move and 1,000 tasks complete, in one statement; then 500 of them go.
    await pool.query(
      "UPDATE a2a_tasks SET version = version + 1, state = CASE WHEN sort_seconds >= -1000 THEN 3 ELSE state END WHERE scope = 'bulk'",
    );
    await pool.query("DELETE FROM a2a_tasks WHERE scope = 'bulk' AND state = 3 AND sort_seconds >= -500");
    expect(await totals()).toEqual([
      { state: 2, n: 4000 },
      { state: 3, n: 500 },
    ]);
  });

  it("serves a ListTasks page of a large scope as an index range scan from the cursor, totals from the counters", async () => {
    const pool = db.current.pool;
    await pool.query(
      `INSERT INTO a2a_tasks (scope, id, owner, context_id, state, sort_seconds, sort_nanos, version, task, artifacts)
       SELECT 'big', 'task-' || i, '', 'ctx-' || (i % 50), 4, -(1700000000 + i), 0, 1, repeat('x', 500), '[]'
       FROM generate_series(1, 20000) AS i`,
    );
    await pool.query("ANALYZE a2a_tasks");
    const plan = async (init: Parameters<typeof query>[0]) => {
      const { statement, values } = listTasksStatement(
        "big",
        query({ pageSize: 50, includeArtifacts: false, ...init }),
      );
      const rows = (await pool.query(`EXPLAIN ${statement.text}`, values)).rows;
      return rows.map((r) => r["QUERY PLAN"] as string).join("\n");
    };
    const after: TaskCursor = {
      statusTime: { $typeName: "google.protobuf.Timestamp", seconds: 1700010000n, nanos: 0 },
      taskId: "x",
    };
    for (const shape of [{}, { after }]) {
      const text = await plan(shape);
      expect(text).toMatch(/Limit[\s\S]*Index (Only )?Scan using a2a_tasks_by_owner on a2a_tasks/);
      expect(text).toMatch(/a2a_task_counts/);
      expect(text).not.toMatch(/Seq Scan on a2a_tasks\b/);
      expect(text).not.toMatch(/OFFSET/i);
      // The only sort is of the page itself (51 rows), above the scan, never of the scope.
      expect(
        text.split("\n").filter((l) => /Sort/.test(l) && !/Sort Key|Sort Method/.test(l)).length,
      ).toBeLessThanOrEqual(1);
    }
    expect(await plan({ after })).toMatch(/Index Cond: .*ROW\(sort_seconds, sort_nanos, id\) > ROW/);
    expect(await plan({ contextId: "ctx-7" })).toMatch(/Index (Only )?Scan using a2a_tasks_by_context/);
  });
});
