/**
 * The cross-replica paths under bad conditions: a save that cannot reach
 * PostgreSQL keeps its events for the next one (nothing a subscriber was owed
 * is lost), a stored event that does not decode ends a stream with
 * CorruptRecordError, an exhausted pool refuses a subscription with
 * StoreUnavailableError, and a stream on a server that restarts catches up
 * from the version it holds once it listens again.
 */
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { type StreamResponse, TaskState } from "../../gen/a2a_pb.js";
import { migrate } from "../../src/fleet/migrate.js";
import { PgTaskFleet } from "../../src/fleet/pg-task-fleet.js";
import { PgTaskStore } from "../../src/fleet/pg-task-store.js";
import type { PostgresPool } from "../../src/fleet/postgres-pool.js";
import { readEvents, taskDigest } from "../../src/fleet/task-events.js";
import { createLogger } from "../../src/runtime/logger.js";
import { statusUpdate, streamResponse, taskStatus } from "../../src/server/message-literals.js";
import { CorruptRecordError, StoreUnavailableError } from "../../src/server/store-errors.js";
import { taskAt } from "../stores/task-store-suite.js";
import { useFleetDatabase } from "./support/fleet-database.js";
import { postgresUrl } from "./support/postgres.js";
import { findPostgresBin, startPostgresCluster } from "./support/postgres-cluster.js";

const silent = createLogger({ level: "silent" });

function working(id: string) {
  return taskAt(id, 1000, { state: TaskState.WORKING });
}

function statusFrame(id: string, state: TaskState): StreamResponse {
  return streamResponse({ case: "statusUpdate", value: statusUpdate(id, "c", taskStatus(state)) });
}

/** A pool whose next `failures` queries fail as an unreachable server does. */
function failingPool(pool: PostgresPool, failures: number): PostgresPool {
  let left = failures;
  return {
    query: (config) => {
      if (left-- > 0) return Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
      return pool.query(config);
    },
    connect: () => pool.connect(),
  };
}

describe.skipIf(!postgresUrl)("tasks that span replicas, under bad conditions", () => {
  const db = useFleetDatabase();
  beforeEach(async () => {
    await db.current.clear();
  });

  it("keeps a failed save's events for the next save, so subscribers elsewhere miss none", async () => {
    const pool = db.current.pool;
    const store = new PgTaskStore({ pool: failingPool(pool, 1), recordEvents: true, logger: silent });
    const writer = { owner: "", version: 0, events: [statusFrame("t", TaskState.WORKING)] };
    await expect(store.save(working("t"), "s", writer)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(writer.events).toHaveLength(1);
    writer.events.push(statusFrame("t", TaskState.INPUT_REQUIRED));
    await store.save(taskAt("t", 2000, { state: TaskState.INPUT_REQUIRED }), "s", writer);
    expect(writer.events).toEqual([]);
    const read = await readEvents(pool, "t", "s", 0);
    expect(read.version).toBe(1);
    expect(read.frames.map((f) => (f.payload.case === "statusUpdate" ? f.payload.value.status?.state : 0))).toEqual([
      TaskState.WORKING,
      TaskState.INPUT_REQUIRED,
    ]);
  });

  it("stores no events for a task first stored terminal, which no replica can subscribe to (S674)", async () => {
    const pool = db.current.pool;
    const store = new PgTaskStore({ pool, recordEvents: true, logger: silent });
    const events = [statusFrame("t", TaskState.WORKING), statusFrame("t", TaskState.COMPLETED)];
    const writer = { owner: "", version: 0, events };
    await store.save(taskAt("t", 2000), "s", writer);
    expect(writer).toMatchObject({ version: 1, events: [] });
    expect(await readEvents(pool, "t", "s", 0)).toEqual({ frames: [], version: 0 });
    // Once stored, every save's events are kept for the replicas following the task.
    await store.save(working("u"), "s", { owner: "", version: 0, events: [statusFrame("u", TaskState.WORKING)] });
    await store.save(taskAt("u", 2000), "s", {
      owner: "",
      version: 1,
      events: [statusFrame("u", TaskState.COMPLETED)],
    });
    expect((await readEvents(pool, "u", "s", 0)).frames).toHaveLength(2);
  });

  it("ends a stream with CorruptRecordError at a stored event that does not decode", async () => {
    const fleet = new PgTaskFleet({ pool: db.current.pool, logger: silent, retryMs: 50 });
    await fleet.start();
    try {
      const writer = { owner: "", version: 0, events: [] as StreamResponse[] };
      await fleet.taskStore.save(working("t"), "s", writer);
      const stream = fleet.subscribe("t", "s", new AbortController().signal);
      expect((await stream.next()).value?.[0]?.payload.case).toBe("task");
      await db.current.pool.query(
        "INSERT INTO a2a_task_events (scope, task_id, version, ordinal, event) VALUES ('s', 't', 2, 1, '{not json')",
      );
      await db.current.pool.query("SELECT pg_notify('a2a_task_events', $1)", [`${taskDigest("t", "s")}:2`]);
      await expect(stream.next()).rejects.toBeInstanceOf(CorruptRecordError);
    } finally {
      await fleet.close();
    }
  });

  it("refuses a subscription with StoreUnavailableError when no connection is to be had", async () => {
    const pool = new pg.Pool({ connectionString: db.current.url, max: 1, connectionTimeoutMillis: 100 });
    const holder = await pool.connect();
    const fleet = new PgTaskFleet({ pool, logger: silent, retryMs: 60_000 });
    try {
      const stream = fleet.subscribe("t", "s", new AbortController().signal);
      await expect(stream.next()).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      holder.release();
      await fleet.close();
      await pool.end();
    }
  });
});

describe.skipIf(!postgresUrl)("a stream while PostgreSQL restarts", () => {
  it("catches up after the server restarted under it: the events saved afterwards all reach the stream", async () => {
    const bin = findPostgresBin();
    // The shared test server is not restarted under other files: this test runs its own.
    if (!bin) throw new Error("No PostgreSQL binaries to start a cluster of this test's own (set POSTGRES_BIN)");
    const cluster = await startPostgresCluster(bin);
    const pool = new pg.Pool({ connectionString: cluster.url, max: 4, connectionTimeoutMillis: 2_000 });
    pool.on("error", () => undefined);
    const fleet = new PgTaskFleet({ pool, logger: silent, retryMs: 50 });
    try {
      await migrate(pool);
      await fleet.start();
      const writer = { owner: "", version: 0, events: [] as StreamResponse[] };
      await fleet.taskStore.save(working("t"), "s", writer);
      const stream = fleet.subscribe("t", "s", new AbortController().signal);
      expect((await stream.next()).value?.[0]?.payload.case).toBe("task");

      await cluster.restart();
      writer.events.push(statusFrame("t", TaskState.WORKING), statusFrame("t", TaskState.COMPLETED));
      // The pool's connections died with the server: a save fails typed until a new one is made.
      for (;;) {
        try {
          await fleet.taskStore.save(taskAt("t", 2000), "s", writer);
          break;
        } catch (error) {
          expect(error).toBeInstanceOf(StoreUnavailableError);
          expect(writer.events).toHaveLength(2);
        }
      }
      const frames: StreamResponse[] = [];
      for (let r = await stream.next(); !r.done; r = await stream.next()) frames.push(...(r.value ?? []));
      expect(frames.map((f) => (f.payload.case === "statusUpdate" ? f.payload.value.status?.state : 0))).toEqual([
        TaskState.WORKING,
        TaskState.COMPLETED,
      ]);
    } finally {
      await fleet.close();
      await pool.end();
      await cluster.stop();
    }
  }, 120_000);
});
