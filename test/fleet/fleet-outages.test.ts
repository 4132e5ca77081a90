/**
 * The fleet's own statements when PostgreSQL is slow or away: a save, an
 * event catch-up and a lease sweep that outlast the statement timeout fail
 * with StoreTimeoutError and lose nothing acknowledged; the lease sweeper
 * keeps running through an outage and fails the leases that expired once
 * the server is back. Slowness is made with a lock another session holds,
 * so nothing here depends on timing.
 */

import pg from "pg";
import type { DestinationStream } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type StreamResponse, TaskState } from "../../gen/a2a_pb.js";
import { migrate } from "../../src/fleet/migrate.js";
import { PgTaskFleet } from "../../src/fleet/pg-task-fleet.js";
import { PgTaskStore } from "../../src/fleet/pg-task-store.js";
import type { PostgresPool } from "../../src/fleet/postgres-pool.js";
import { readEvents } from "../../src/fleet/task-events.js";
import { createLogger } from "../../src/runtime/logger.js";
import { statusUpdate, streamResponse, taskStatus } from "../../src/server/message-literals.js";
import { StoreTimeoutError } from "../../src/server/store-errors.js";
import { taskAt } from "../stores/task-store-suite.js";
import { useFleetDatabase } from "./support/fleet-database.js";
import { postgresUrl } from "./support/postgres.js";
import { startOwnCluster } from "./support/postgres-cluster.js";

const silent = createLogger({ level: "silent" });

function working(id: string) {
  return taskAt(id, 1000, { state: TaskState.WORKING });
}

function statusFrame(id: string, state: TaskState): StreamResponse {
  return streamResponse({ case: "statusUpdate", value: statusUpdate(id, "c", taskStatus(state)) });
}

interface LogLine {
  readonly message?: string;
  readonly task_id?: string;
  readonly err?: { readonly type?: string };
}

/** A logger whose lines a test awaits: `next(match)` resolves with the first line from now on that matches. */
function watchedLogger() {
  let waiters: { match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];
  const destination: DestinationStream = {
    write(text: string) {
      const line = JSON.parse(text) as LogLine;
      const matched = waiters.filter((w) => w.match(line));
      waiters = waiters.filter((w) => !matched.includes(w));
      for (const w of matched) w.resolve(line);
    },
  };
  return {
    logger: createLogger({ level: "info", destination, mask: false }),
    next(match: (line: LogLine) => boolean): Promise<LogLine> {
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

const SWEEP_FAILED = "lease sweep failed; trying again next period";
const LEASE_FAILED_TASK = "task failed: its replica's lease expired";

/** Another session holding `lock` (a statement taking locks) until released. */
async function holding(url: string, lock: string): Promise<{ client: pg.Client; release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("BEGIN");
  await client.query(lock);
  return {
    client,
    async release() {
      await client.query("COMMIT");
      await client.end();
    },
  };
}

/** A lease of a replica that is gone, for a WORKING task; it expires when `expire` says so. */
async function deadReplicaLease(pool: PostgresPool, taskId: string): Promise<void> {
  const store = new PgTaskStore({ pool, recordEvents: true, logger: silent });
  await store.save(working(taskId), "s", { owner: "", version: 0, events: [] });
  await pool.query({
    text: "INSERT INTO a2a_task_leases VALUES ('s', $1, 'gone', 'run-1', now() + interval '1 hour')",
    values: [taskId],
  });
}

const EXPIRE = "UPDATE a2a_task_leases SET expires_at = now() - interval '1 minute' WHERE replica_id = 'gone'";

async function expectFailedByLease(pool: PostgresPool, taskId: string): Promise<void> {
  const stored = await new PgTaskStore({ pool, logger: silent }).get(taskId, "s");
  expect(stored?.task.status?.state).toBe(TaskState.FAILED);
  expect(stored?.task.status?.message?.parts[0]?.content.value).toContain("The replica gone running this task stopped");
}

describe.skipIf(!postgresUrl)("the fleet's statements past the statement timeout", () => {
  const db = useFleetDatabase();
  let pool: pg.Pool;
  beforeEach(async () => {
    await db.current.clear();
    // Long enough for any statement on a loaded machine; only a statement waiting on a held lock reaches it.
    pool = new pg.Pool({ connectionString: db.current.url, max: 4, statement_timeout: 2_000 });
  });
  afterEach(async () => {
    await pool.end();
  });

  it("fails a save with events and NOTIFY with StoreTimeoutError, keeping its events for the next save", async () => {
    const store = new PgTaskStore({ pool, recordEvents: true, logger: silent });
    const writer = { owner: "", version: 0, events: [statusFrame("t", TaskState.WORKING)] };
    await store.save(working("t"), "s", writer);
    const lock = await holding(db.current.url, "SELECT 1 FROM a2a_tasks WHERE scope = 's' AND id = 't' FOR UPDATE");

    writer.events.push(statusFrame("t", TaskState.COMPLETED));
    await expect(store.save(taskAt("t", 2000), "s", writer)).rejects.toBeInstanceOf(StoreTimeoutError);
    expect(writer.version).toBe(1);
    expect(writer.events).toHaveLength(1);
    expect((await store.get("t", "s"))?.task.status?.state).toBe(TaskState.WORKING);

    await lock.release();
    await store.save(taskAt("t", 2000), "s", writer);
    const read = await readEvents(pool, "t", "s", 1);
    expect(read.version).toBe(2);
    expect(read.frames.map((f) => (f.payload.case === "statusUpdate" ? f.payload.value.status?.state : 0))).toEqual([
      TaskState.COMPLETED,
    ]);
  });

  it("fails an event catch-up with StoreTimeoutError, and reads every event once the table is free", async () => {
    const store = new PgTaskStore({ pool, recordEvents: true, logger: silent });
    const writer = { owner: "", version: 0, events: [statusFrame("t", TaskState.WORKING)] };
    await store.save(working("t"), "s", writer);
    writer.events.push(statusFrame("t", TaskState.COMPLETED));
    await store.save(taskAt("t", 2000), "s", writer);
    const lock = await holding(db.current.url, "LOCK TABLE a2a_task_events IN ACCESS EXCLUSIVE MODE");

    await expect(readEvents(pool, "t", "s", 0)).rejects.toBeInstanceOf(StoreTimeoutError);
    await lock.release();
    const read = await readEvents(pool, "t", "s", 0);
    expect(read.version).toBe(2);
    expect(read.frames).toHaveLength(2);
  });

  it("logs a lease sweep that times out and sweeps again: a lease that expired meanwhile fails its task", async () => {
    const logs = watchedLogger();
    await deadReplicaLease(pool, "t");
    const fleet = new PgTaskFleet({ pool, logger: logs.logger, leaseMs: 3_000, renewMs: 100 });
    const lock = await holding(db.current.url, "LOCK TABLE a2a_task_leases IN ACCESS EXCLUSIVE MODE");
    try {
      const timedOut = logs.next((line) => line.message === SWEEP_FAILED);
      await fleet.start();
      expect((await timedOut).err?.type).toBe("StoreTimeoutError");

      // The dead replica's lease runs out while the sweeps wait.
      await lock.client.query(EXPIRE);
      const failed = logs.next((line) => line.message === LEASE_FAILED_TASK && line.task_id === "t");
      await lock.release();
      await failed;
      await expectFailedByLease(pool, "t");
    } finally {
      await fleet.close();
    }
  });
});

describe.skipIf(!postgresUrl)("the lease sweeper through a PostgreSQL outage", () => {
  it("keeps sweeping while the server is away, without crashing, and fails the expired leases once it is back", async () => {
    // The shared test server is not stopped under other files: this test runs its own.
    const cluster = await startOwnCluster();
    const pool = new pg.Pool({ connectionString: cluster.url, max: 4, connectionTimeoutMillis: 2_000 });
    pool.on("error", () => undefined);
    const logs = watchedLogger();
    const fleet = new PgTaskFleet({ pool, logger: logs.logger, leaseMs: 3_000, renewMs: 100, retryMs: 50 });
    try {
      await migrate(pool);
      await deadReplicaLease(pool, "t");
      await fleet.start();

      const away = (line: LogLine) => line.message === SWEEP_FAILED && line.err?.type === "StoreUnavailableError";
      const first = logs.next(away);
      await cluster.pause();
      await first;
      // A second failed sweep: the sweeper is still running after the first.
      await logs.next(away);

      const failed = logs.next((line) => line.message === LEASE_FAILED_TASK && line.task_id === "t");
      await cluster.resume();
      // The dead replica's lease ran out during the outage.
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      await admin.query(EXPIRE);
      await admin.end();
      await failed;
      await expectFailedByLease(pool, "t");
    } finally {
      await fleet.close();
      await pool.end();
      await cluster.stop();
    }
  });
});
