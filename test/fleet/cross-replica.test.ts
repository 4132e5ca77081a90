/**
 * Tasks that span replicas: two and three real replica processes
 * (support/replica.ts: AgentBuilder + PgTaskFleet) on one database, driven by
 * our Client over JSON-RPC, HTTP+JSON and gRPC. A task running on one
 * replica is streamed, canceled and superseded through another (over each
 * binding); a replica killed with SIGKILL leaves tasks another replica fails
 * once their lease expires; a dropped notification connection, or a
 * PostgreSQL restart under the replicas, loses no event.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Message, type StreamResponse, type Task, TaskState } from "../../gen/a2a_pb.js";
import { Client } from "../../src/client/client.js";
import { migrate } from "../../src/fleet/migrate.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { useFleetDatabase } from "./support/fleet-database.js";
import { postgresUrl } from "./support/postgres.js";
import { type PostgresCluster, startOwnCluster } from "./support/postgres-cluster.js";
import { BIG_CHUNK, CHUNKS, type ReplicaProcess, startReplica } from "./support/replica-process.js";

const BINDINGS = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;
type Binding = (typeof BINDINGS)[number];

function clientOf(replica: ReplicaProcess, binding: Binding): Client {
  const baseUrl = binding === "GRPC" ? replica.grpc : replica.url;
  return new Client({ transports: [grpcTransport()], baseUrl, binding, timeoutMs: 60_000 });
}

function asTask(result: Task | Message): Task {
  expect(result.$typeName).toBe("lf.a2a.v1.Task");
  return result as Task;
}

/** The text of an artifact update's parts. */
function chunkText(frame: StreamResponse): string {
  if (frame.payload.case !== "artifactUpdate") return "";
  return (frame.payload.value.artifact?.parts ?? [])
    .map((p) => (p.content.case === "text" ? p.content.value : ""))
    .join("");
}

function stateOf(frame: StreamResponse | undefined): TaskState | undefined {
  if (frame?.payload.case === "statusUpdate") return frame.payload.value.status?.state;
  if (frame?.payload.case === "task") return frame.payload.value.status?.state;
  return undefined;
}

/** Starts `skillId` on `runner` (answering at once), waits until the skill started, and follows the task through `watcher`, past its snapshot. */
async function runAndWatch(runner: ReplicaProcess, onRunner: Client, watcher: Client, skillId: string) {
  const task = asTask(await onRunner.sendMessage("go", { skillId, returnImmediately: true }));
  await runner.saw("started", task.id);
  const stream = watcher.subscribeToTask(task.id)[Symbol.asyncIterator]();
  expect((await stream.next()).value?.payload.case).toBe("task");
  return { task, stream };
}

/** The skill `chunks`'s numbered chunks, then one far above NOTIFY's 8,000-byte payload limit, each once and in order, then COMPLETED. */
function expectEveryChunkThenCompleted(frames: StreamResponse[]): void {
  const chunks = frames.filter(
    (f) => f.payload.case === "artifactUpdate" && f.payload.value.artifact?.artifactId === "out",
  );
  expect(chunks.map(chunkText)).toEqual([
    ...Array.from({ length: CHUNKS }, (_, i) => String(i)),
    "x".repeat(BIG_CHUNK),
  ]);
  expect(stateOf(frames.at(-1))).toBe(TaskState.COMPLETED);
}

/** Every frame of a stream after its first (which it answers at once), read to the end. */
async function rest(stream: AsyncIterator<StreamResponse>): Promise<StreamResponse[]> {
  const frames: StreamResponse[] = [];
  for (let r = await stream.next(); !r.done; r = await stream.next()) frames.push(r.value);
  return frames;
}

describe.skipIf(!postgresUrl)("tasks that span replicas", () => {
  const db = useFleetDatabase();
  let a: ReplicaProcess;
  let b: ReplicaProcess;

  beforeAll(async () => {
    [a, b] = await Promise.all([startReplica(db.current.url, "a"), startReplica(db.current.url, "b")]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  describe.each(BINDINGS)("over %s", (binding) => {
    it("streams to a subscriber on B the live events of a task running on A, from its snapshot, in order, once each", async () => {
      await using onA = clientOf(a, binding);
      await using onB = clientOf(b, binding);
      const task = asTask(await onA.sendMessage("go", { skillId: "chunks", returnImmediately: true }));
      await a.saw("started", task.id);

      const stream = onB.subscribeToTask(task.id)[Symbol.asyncIterator]();
      const snapshot = (await stream.next()).value as StreamResponse;
      a.release(task.id);
      const frames = await rest(stream);

      expect(snapshot.payload.case).toBe("task");
      const first = snapshot.payload.value as Task;
      expect(first.status?.state).toBe(TaskState.WORKING);
      expect(first.artifacts[0]?.parts.map((p) => p.content.value)).toEqual(["first"]);
      expectEveryChunkThenCompleted(frames);
      expect(frames.filter((f) => stateOf(f) === TaskState.COMPLETED)).toHaveLength(1);
    });

    it("cancels on B a skill running on A: B answers CANCELED, A's skill is preempted and its late write changes nothing", async () => {
      await using onA = clientOf(a, binding);
      await using onB = clientOf(b, binding);
      const task = asTask(await onA.sendMessage("go", { skillId: "hold", returnImmediately: true }));
      await a.saw("started", task.id);
      // A subscriber on the running replica sees the cancel written on the other one.
      const watching = onA.subscribeToTask(task.id)[Symbol.asyncIterator]();
      expect((await watching.next()).value?.payload.case).toBe("task");

      const canceled = await onB.cancelTask(task.id);
      expect(canceled.status?.state).toBe(TaskState.CANCELED);
      expect((await a.saw("preempted", task.id)).reason).toBe("cancel-task");
      await a.saw("gave-up", task.id);

      expect(stateOf((await rest(watching)).at(-1))).toBe(TaskState.CANCELED);
      for (const client of [onA, onB]) {
        const stored = await client.getTask(task.id);
        expect(stored.status?.state).toBe(TaskState.CANCELED);
        expect(stored.artifacts.map((x) => x.name)).not.toContain("output");
      }
      // Canceling again answers the canceled task, on either replica.
      expect((await onA.cancelTask(task.id)).status?.state).toBe(TaskState.CANCELED);
    });

    it("supersedes on B a run on A: A's skill is preempted as superseded and B's run owns the task", async () => {
      await using onA = clientOf(a, binding);
      await using onB = clientOf(b, binding);
      const task = asTask(await onA.sendMessage("go", { skillId: "hold", returnImmediately: true }));
      await a.saw("started", task.id);

      const resent = asTask(await onB.sendMessage("again", { taskId: task.id, returnImmediately: true }));
      expect(resent.id).toBe(task.id);
      await b.saw("started", task.id);
      expect((await a.saw("preempted", task.id)).reason).toBe("superseded");
      await a.saw("gave-up", task.id);

      const watching = onA.subscribeToTask(task.id)[Symbol.asyncIterator]();
      expect((await watching.next()).value?.payload.case).toBe("task");
      b.release(task.id);
      expect(stateOf((await rest(watching)).at(-1))).toBe(TaskState.COMPLETED);
      const done = await onA.getTask(task.id);
      expect(done.status?.state).toBe(TaskState.COMPLETED);
      expect(done.status?.message?.parts[0]?.content.value).toBe("released on b");
    });
  });

  it("loses no event when a replica's notification connection is dropped mid-stream", async () => {
    await using onA = clientOf(a, "HTTP+JSON");
    await using onB = clientOf(b, "HTTP+JSON");
    const { task, stream } = await runAndWatch(a, onA, onB, "chunks");

    const admin = new pg.Client({ connectionString: db.current.url });
    await admin.connect();
    try {
      const dropped = await admin.query(
        "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      );
      expect(dropped.rows.length).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.end();
    }
    a.release(task.id);
    const frames = await rest(stream);
    const chunks = frames.filter(
      (f) => f.payload.case === "artifactUpdate" && f.payload.value.artifact?.artifactId === "out",
    );
    expect(chunks).toHaveLength(CHUNKS + 1);
    expect(stateOf(frames.at(-1))).toBe(TaskState.COMPLETED);
  });
});

describe.skipIf(!postgresUrl)("a replica that dies", () => {
  const db = useFleetDatabase();
  const short = { FLEET_LEASE_MS: "1500", FLEET_RENEW_MS: "250" };
  let replicas: ReplicaProcess[] = [];

  beforeAll(async () => {
    replicas = await Promise.all(["a", "b", "c"].map((id) => startReplica(db.current.url, id, short)));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
  });

  it("leaves its running tasks to a live replica, which fails them once their lease expires; subscribers elsewhere see it", async () => {
    const [a, b, c] = replicas as [ReplicaProcess, ReplicaProcess, ReplicaProcess];
    await using onA = clientOf(a, "GRPC");
    await using onB = clientOf(b, "JSONRPC");
    await using onC = clientOf(c, "JSONRPC");
    const { task, stream: watching } = await runAndWatch(c, onC, onB, "hold");

    await c.kill();
    const frames = await rest(watching);
    const last = frames.at(-1);
    expect(stateOf(last)).toBe(TaskState.FAILED);
    const reason =
      last?.payload.case === "statusUpdate" ? last.payload.value.status?.message?.parts[0]?.content.value : "";
    expect(reason).toContain("The replica c running this task stopped");
    expect((await onA.getTask(task.id)).status?.state).toBe(TaskState.FAILED);
  });
});

describe.skipIf(!postgresUrl)("replicas while PostgreSQL restarts", () => {
  let cluster: PostgresCluster;
  let replicas: ReplicaProcess[] = [];

  beforeAll(async () => {
    // The shared test server is not restarted under other files: these replicas use a server of their own.
    cluster = await startOwnCluster();
    const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
    await migrate(pool);
    await pool.end();
    replicas = await Promise.all(["a", "b"].map((id) => startReplica(cluster.url, id)));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await cluster?.stop();
  });

  /** Calls GetTask until it answers: the replica has connections to the server again. */
  async function reconnected(client: Client, taskId: string): Promise<void> {
    for (;;) {
      try {
        await client.getTask(taskId);
        return;
      } catch {
        // A connection that died with the server fails one call; the pool makes a new one.
      }
    }
  }

  it("streams on B every event A saves after the server restarted under both, from the version B held", async () => {
    const [a, b] = replicas as [ReplicaProcess, ReplicaProcess];
    await using onA = clientOf(a, "JSONRPC");
    await using onB = clientOf(b, "GRPC");
    const { task, stream } = await runAndWatch(a, onA, onB, "chunks");

    await cluster.restart();
    await Promise.all([reconnected(onA, task.id), reconnected(onB, task.id)]);
    a.release(task.id);
    expectEveryChunkThenCompleted(await rest(stream));
  });
});
