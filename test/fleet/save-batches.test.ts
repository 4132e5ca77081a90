/**
 * Group commit (task-save-batches.ts): the saves of one event-loop turn go
 * to PostgreSQL as one statement, each task keeping its own version check
 * and answer; a new task's lease is taken in the statement of its first
 * save, or not at all when that save stores it terminal.
 */
import { create, fromJson, type JsonObject } from "@bufbuild/protobuf";
import { beforeEach, describe, expect, it } from "vitest";
import { MessageSchema, SendMessageRequestSchema, TaskState } from "../../gen/a2a_pb.js";
import { PgTaskFleet } from "../../src/fleet/pg-task-fleet.js";
import { PgTaskStore } from "../../src/fleet/pg-task-store.js";
import type { PostgresClient, PostgresPool } from "../../src/fleet/postgres-pool.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import type { ServerCallContext } from "../../src/server/call-context.js";
import { textPart } from "../../src/server/message-literals.js";
import { StoreError, TaskVersionConflictError } from "../../src/server/store-errors.js";
import { deferred, userMessage, V1 } from "../server/support/agent-server.js";
import { taskAt } from "../stores/task-store-suite.js";
import { useFleetDatabase } from "./support/fleet-database.js";
import { postgresUrl } from "./support/postgres.js";

const silent = createLogger({ level: "silent" });

/** The pool, recording the name of every statement run on it. */
function recording(pool: PostgresPool): { pool: PostgresPool; names: string[] } {
  const names: string[] = [];
  return {
    names,
    pool: {
      query: (config) => {
        names.push(config.name ?? config.text.slice(0, 20));
        return pool.query(config);
      },
      connect: () => pool.connect(),
    },
  };
}

/** The elements of a one-dimensional binary `text[]` parameter (src/fleet/text-array.ts). */
function textArrayElements(array: Buffer): string[] {
  const out: string[] = [];
  if (array.readInt32BE(0) === 0) return out;
  let at = 20;
  for (let i = 0; i < array.readInt32BE(12); i++) {
    const length = array.readInt32BE(at);
    out.push(array.toString("utf8", at + 4, at + 4 + length));
    at += 4 + length;
  }
  return out;
}

function context(): ServerCallContext {
  return {
    binding: "JSONRPC",
    headers: new Headers(V1),
    signal: new AbortController().signal,
    responseHeaders: new Headers(),
  };
}

function sendRequest(skillId: string) {
  return create(SendMessageRequestSchema, {
    message: fromJson(MessageSchema, userMessage("hi", { metadata: { skillId } }) as JsonObject),
  });
}

describe.skipIf(!postgresUrl)("group commit of task saves", () => {
  const db = useFleetDatabase();
  beforeEach(async () => {
    await db.current.clear();
  });

  it("stores the saves of one turn in one statement, each with its own version check and answer", async () => {
    const base = new PgTaskStore({ pool: db.current.pool, recordEvents: true, logger: silent });
    await base.save(taskAt("old", 1000), "s", { owner: "", version: 0, events: [] });
    const { pool, names } = recording(db.current.pool);
    const store = new PgTaskStore({ pool, recordEvents: true, logger: silent });

    const writers = [0, 0, 7].map((version) => ({ owner: "", version, events: [] }));
    const saves = ["a", "b", "old"].map((id, i) => store.save(taskAt(id, 2000), "s", writers[i] as never));
    const outcomes = await Promise.allSettled(saves);

    expect(names).toEqual(["a2a_save_tasks_with_events"]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(TaskVersionConflictError);
    expect(writers.map((w) => w.version)).toEqual([1, 1, 7]);
    expect((await base.get("old", "s"))?.version).toBe(1);
  });

  it("sends a batch of saves alone as binary text[] columns, and one with events or a lease as the full statement (S691)", async () => {
    const base = new PgTaskStore({ pool: db.current.pool, recordEvents: true, logger: silent });
    await base.save(taskAt("old", 1000), "s", { owner: "", version: 0, events: [] });
    const sent: { name: string | undefined; values: unknown[] }[] = [];
    const pool: PostgresPool = {
      query: (config) => {
        sent.push({ name: config.name, values: config.values ?? [] });
        return db.current.pool.query(config);
      },
      connect: () => db.current.pool.connect(),
    };
    const store = new PgTaskStore({ pool, recordEvents: true, logger: silent });
    const unusual = 'héllo — 日本語 — 🧪 — \u2028 — "quoted" \\ back';
    const task = taskAt("new", 2000, { contextId: unusual });
    const writers = [0, 0].map((version) => ({ owner: "o-é", version, events: [] }));
    await Promise.all([
      store.save(task, "s", writers[0] as never),
      store.save(taskAt("n2", 2000), "s", writers[1] as never),
    ]);
    // A save of a stored task carries its events and a notification: the full statement.
    await store.save(taskAt("old", 3000), "s", { owner: "", version: 1, events: [] });

    expect(sent.map((s) => s.name)).toEqual(["a2a_save_tasks_plain", "a2a_save_tasks_with_events"]);
    expect(sent[0]?.values.every((value) => Buffer.isBuffer(value))).toBe(true);
    expect(textArrayElements(sent[0]?.values[1] as Buffer)).toEqual(["new", "n2"]);
    expect(writers.map((w) => w.version)).toEqual([1, 1]);
    const stored = await base.get("new", "s");
    expect(stored).toMatchObject({ owner: "o-é", version: 1 });
    expect(stored?.task).toEqual(task);
    const { rows } = await db.current.pool.query(
      "SELECT context_id, state, sort_seconds FROM a2a_tasks WHERE id = 'new'",
    );
    expect(rows).toEqual([{ context_id: unusual, state: TaskState.COMPLETED, sort_seconds: "-2" }]);
  });

  it("refuses with StoreError, writing nothing, a save whose ids hold NUL or an unpaired surrogate; the rest of its batch is stored", async () => {
    const store = new PgTaskStore({ pool: db.current.pool, recordEvents: true, logger: silent });
    const outcomes = await Promise.allSettled([
      store.save(taskAt("bad", 2000, { contextId: "ctx-\ud800" }), "s", { owner: "", version: 0, events: [] }),
      store.save(taskAt("good", 2000), "s", { owner: "", version: 0, events: [] }),
      store.save(taskAt("nul\u0000", 2000), "s", { owner: "", version: 0, events: [] }),
    ]);
    expect(outcomes[0]).toMatchObject({ status: "rejected", reason: expect.any(StoreError) });
    expect(outcomes[1]?.status).toBe("fulfilled");
    expect(outcomes[2]).toMatchObject({ status: "rejected", reason: expect.any(StoreError) });
    const { rows } = await db.current.pool.query("SELECT id FROM a2a_tasks ORDER BY id");
    expect(rows.map((row) => row.id)).toEqual(["good"]);
  });

  it("sends one batch at a time: the saves asked for while it commits go together in the next statement", async () => {
    const gate = deferred<void>();
    const sent: unknown[][] = [];
    const pool: PostgresPool = {
      query: async (config) => {
        sent.push(config.values ?? []);
        if (sent.length === 1) await gate.promise;
        return db.current.pool.query(config);
      },
      connect: () => db.current.pool.connect(),
    };
    const store = new PgTaskStore({ pool, recordEvents: true, logger: silent });
    const save = (id: string) => store.save(taskAt(id, 2000), "s", { owner: "", version: 0, events: [] });
    const first = save("a");
    while (sent.length === 0) await new Promise((resolve) => setImmediate(resolve));
    // Two more turns, each asking for a save, while the first batch is held.
    const later = [save("b")];
    await new Promise((resolve) => setImmediate(resolve));
    later.push(save("c"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(1);
    gate.resolve();
    await Promise.all([first, ...later]);
    // Saves alone: the task ids are the second parameter, a binary text[].
    expect(sent.map((values) => textArrayElements(values[1] as Buffer))).toEqual([["a"], ["b", "c"]]);
  });

  it("takes no lease for a new task whose first save is terminal, and one with the first save of a running task", async () => {
    const { pool, names } = recording(db.current.pool);
    const fleet = new PgTaskFleet({ pool, logger: silent });
    await fleet.start();
    const agent = new AgentBuilder({
      name: "batches",
      auth: "none",
      taskStore: fleet.taskStore,
      coordinator: fleet,
      logger: silent,
    });
    const hold = deferred();
    const started = deferred<string>();
    agent.skill("echo", async (_ctx, text) => ({ output: text }));
    agent.skill("hold", async (ctx) => {
      await ctx.taskUpdater.addArtifact([textPart("first")]);
      started.resolve(ctx.taskId);
      await hold.promise;
      return { output: "done" };
    });
    const handler = agent.requestHandler();
    try {
      const echoed = await handler.sendMessage(sendRequest("echo"), context());
      expect(echoed.payload.case === "task" && echoed.payload.value.status?.state).toBe(TaskState.COMPLETED);
      await handler.whenIdle();
      await fleet.taskStore.flushed();
      expect(names.filter((n) => n.startsWith("a2a_save_tasks"))).toHaveLength(1);
      expect((await db.current.pool.query("SELECT count(*)::int AS n FROM a2a_task_leases")).rows[0].n).toBe(0);

      void handler.sendMessage(sendRequest("hold"), context());
      const taskId = await started.promise;
      // The first save (WORKING and the artifact) is stored: the lease with it.
      const leases = await db.current.pool.query("SELECT task_id, replica_id FROM a2a_task_leases");
      expect(leases.rows).toEqual([{ task_id: taskId, replica_id: fleet.replicaId }]);
      hold.resolve();
      await handler.whenIdle();
      await fleet.close(); // after the lease's release is answered
      expect((await db.current.pool.query("SELECT count(*)::int AS n FROM a2a_task_leases")).rows[0].n).toBe(0);
    } finally {
      await fleet.close();
    }
  });
  it("follows a new task from its first save's statement on: a supersede elsewhere before that save's answer stops the run", async () => {
    // Replica A: its first save is answered only once the test says so, and the test sees its LISTEN connection.
    const gate = deferred<void>();
    const holding = deferred<void>();
    const listening: PostgresClient[] = [];
    let held = false;
    const pool: PostgresPool = {
      query: async (config) => {
        const result = await db.current.pool.query(config);
        if (!held && config.name === "a2a_save_tasks_with_events") {
          held = true;
          holding.resolve();
          await gate.promise;
        }
        return result;
      },
      connect: async () => {
        const client = await db.current.pool.connect();
        listening.push(client);
        return client;
      },
    };
    const a = new PgTaskFleet({ pool, logger: silent });
    const b = new PgTaskFleet({ pool: db.current.pool, logger: silent });
    await Promise.all([a.start(), b.start()]);
    const onA = new AgentBuilder({ name: "a", auth: "none", taskStore: a.taskStore, coordinator: a, logger: silent });
    const onB = new AgentBuilder({ name: "b", auth: "none", taskStore: b.taskStore, coordinator: b, logger: silent });
    const started = deferred<string>();
    const stopped = deferred<unknown>();
    onA.skill("hold", async (ctx) => {
      started.resolve(ctx.taskId);
      await ctx.taskUpdater.addArtifact([textPart("first")]);
      if (!ctx.signal.aborted) await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      stopped.resolve(ctx.signal.reason);
      return { output: "late" };
    });
    onB.skill("hold", async () => ({ output: "from B" }));
    try {
      void onA.requestHandler().sendMessage(sendRequest("hold"), context());
      const taskId = await started.promise;
      await holding.promise; // A's first save (WORKING, its artifact, its lease) is committed, its answer held
      // B's lease take (`<digest>:0:<run>`) and B's save of the task's version 2 (`<digest>:2`).
      const seen = new Set<string>();
      const notified = new Promise<void>((resolve) => {
        for (const client of listening) {
          (client as unknown as { on(event: string, listener: (m: { payload?: string }) => void): void }).on(
            "notification",
            (message) => {
              const [, version, run] = (message.payload ?? "").split(":");
              seen.add(run ? "take" : `v${version}`);
              if (seen.has("take") && seen.has("v2")) resolve();
            },
          );
        }
      });
      const resend = sendRequest("hold");
      (resend.message as { taskId: string }).taskId = taskId;
      await onB.requestHandler().sendMessage(resend, context());
      // A's listener has routed both (A's own listener runs before the test's): only now is A's save answered.
      await notified;
      gate.resolve();
      expect(await stopped.promise).toMatchObject({ name: "CancelledError" });
      await onA.requestHandler().whenIdle();
      const stored = await db.current.pool.query("SELECT artifacts FROM a2a_tasks WHERE id = $1", [taskId]);
      expect(stored.rows[0].artifacts).toContain("from B");
      expect(stored.rows[0].artifacts).not.toContain("late");
    } finally {
      gate.resolve();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
