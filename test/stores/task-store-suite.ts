/**
 * The behaviour every TaskStore must have, run against each implementation
 * (test/stores/in-memory-stores.test.ts, test/fleet/pg-stores.test.ts):
 * versions and conflicts, scopes and owners, lossless round trips, and
 * ListTasks pages — filters, the one order, keyset cursors that neither
 * overlap nor skip when tasks change between pages, and exact totals.
 * `historyLength` does not reach a store: history is part of the stored task
 * and the harness trims it (test/server/list-tasks.test.ts).
 */
import { create, equals, fromJson } from "@bufbuild/protobuf";
import { type Timestamp, timestampFromMs, ValueSchema } from "@bufbuild/protobuf/wkt";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ArtifactSchema,
  MessageSchema,
  PartSchema,
  Role,
  type Task,
  TaskSchema,
  TaskState,
  TaskStatusSchema,
} from "../../gen/a2a_pb.js";
import { TaskVersionConflictError } from "../../src/server/store-errors.js";
import type { StoredTask, TaskCursor, TaskQuery, TaskStore } from "../../src/server/task-store.js";

export interface TaskStoreFixture {
  /** A store over empty storage. */
  readonly store: TaskStore;
}

/** Saves over whatever version is stored (for arranging, not for testing versions). */
export async function put(store: TaskStore, task: Task, scope = "s", owner = ""): Promise<void> {
  const stored = await store.get(task.id, scope);
  await store.save(task, scope, { owner: stored?.owner ?? owner, version: stored?.version ?? 0 });
}

export function taskAt(
  id: string,
  ms: number | Timestamp | undefined,
  options: { state?: TaskState; contextId?: string } = {},
): Task {
  const timestamp = typeof ms === "number" ? timestampFromMs(ms) : ms;
  return create(TaskSchema, {
    id,
    contextId: options.contextId ?? "c",
    status: create(TaskStatusSchema, { state: options.state ?? TaskState.COMPLETED, timestamp }),
    artifacts: [create(ArtifactSchema, { artifactId: "a", parts: [{ content: { case: "text", value: id } }] })],
    history: [create(MessageSchema, { messageId: `${id}-m`, role: Role.USER })],
  });
}

export const query = (init: Partial<TaskQuery> = {}): TaskQuery => ({
  owner: "",
  contextId: "",
  status: TaskState.UNSPECIFIED,
  statusTimestampAfter: undefined,
  after: undefined,
  pageSize: 100,
  includeArtifacts: true,
  ...init,
});

const ids = (tasks: readonly StoredTask[]) => tasks.map((t) => t.task.id);
const cursorAt = (task: Task): TaskCursor => ({ statusTime: task.status?.timestamp ?? ts(0n, 0), taskId: task.id });
const ts = (seconds: bigint, nanos: number): Timestamp => ({ $typeName: "google.protobuf.Timestamp", seconds, nanos });

/** Every value a task can carry that a careless encoding loses. */
function richTask(id: string): Task {
  const metadata = {
    big: "12345678901234567890",
    negative: -0.5,
    exponent: 1e300,
    nested: { list: [1, "two", true, null, { deeper: { deepest: ["x"] } }], empty: {} },
    unicode: "héllo — 日本語 — עברית — 🧪🚀 — \u0000 nul — \u2028 line separator",
  };
  const parts = [
    create(PartSchema, { content: { case: "text", value: 'tëxt 🧪\n\t"quoted"\\' }, mediaType: "text/plain" }),
    create(PartSchema, {
      content: { case: "raw", value: new Uint8Array([0, 1, 2, 127, 128, 254, 255]) },
      filename: "bytes.bin",
      mediaType: "application/octet-stream",
    }),
    create(PartSchema, { content: { case: "url", value: "https://files.example/a?b=c&d=é" }, filename: "remote" }),
    create(PartSchema, {
      content: { case: "data", value: fromJson(ValueSchema, metadata) },
      metadata: { kind: "data" },
    }),
  ];
  const message = create(MessageSchema, {
    messageId: `${id}-m1`,
    role: Role.AGENT,
    taskId: id,
    contextId: "ctx-ü",
    parts,
    metadata,
    extensions: ["https://ext.example/a"],
    referenceTaskIds: ["other"],
  });
  return create(TaskSchema, {
    id,
    contextId: "ctx-ü",
    status: create(TaskStatusSchema, {
      state: TaskState.INPUT_REQUIRED,
      timestamp: ts(1_700_000_000n, 123_456_789),
      message,
    }),
    history: [create(MessageSchema, { messageId: `${id}-m0`, role: Role.USER, parts: [parts[0]!] }), message],
    artifacts: [
      create(ArtifactSchema, { artifactId: "out", name: "output", description: "déscription", parts, metadata }),
      create(ArtifactSchema, { artifactId: "second", parts: [parts[1]!], extensions: ["https://ext.example/b"] }),
    ],
    metadata,
  });
}

export function taskStoreSuite(name: string, fixture: () => Promise<TaskStoreFixture>): void {
  describe(`TaskStore: ${name}`, () => {
    let store: TaskStore;
    beforeEach(async () => {
      store = (await fixture()).store;
    });

    describe("versions", () => {
      it("stores a new task as version 1 and each save as the next, advancing the writer", async () => {
        const writer = { owner: "", version: 0 };
        await store.save(taskAt("t", 1000), "s", writer);
        expect(writer.version).toBe(1);
        expect((await store.get("t", "s"))?.version).toBe(1);
        await store.save(taskAt("t", 2000), "s", writer);
        expect(writer.version).toBe(2);
        expect(await store.get("t", "s")).toMatchObject({ version: 2, owner: "" });
      });

      it("refuses a save that expects another version, writes nothing and leaves the writer", async () => {
        const first = { owner: "", version: 0 };
        const second = { owner: "", version: 0 };
        await store.save(taskAt("t", 1000), "s", first);
        const late = store.save(taskAt("t", 9000, { state: TaskState.FAILED }), "s", second);
        await expect(late).rejects.toBeInstanceOf(TaskVersionConflictError);
        await expect(late).rejects.toMatchObject({ taskId: "t", expectedVersion: 0 });
        expect(second.version).toBe(0);
        await store.save(taskAt("t", 2000, { state: TaskState.CANCELED }), "s", first);
        await expect(store.save(taskAt("t", 9000), "s", { owner: "", version: 1 })).rejects.toBeInstanceOf(
          TaskVersionConflictError,
        );
        const stored = await store.get("t", "s");
        expect(stored?.version).toBe(2);
        expect(stored?.task.status?.state).toBe(TaskState.CANCELED);
      });

      it("lets exactly one of two concurrent writers of one version win", async () => {
        await store.save(taskAt("t", 1000), "s", { owner: "", version: 0 });
        const results = await Promise.allSettled([
          store.save(taskAt("t", 2000, { state: TaskState.COMPLETED }), "s", { owner: "", version: 1 }),
          store.save(taskAt("t", 2000, { state: TaskState.CANCELED }), "s", { owner: "", version: 1 }),
        ]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
        expect(lost.reason).toBeInstanceOf(TaskVersionConflictError);
        expect((await store.get("t", "s"))?.version).toBe(2);
      });

      it("inserts over nothing whatever version the writer holds (a task evicted or deleted meanwhile)", async () => {
        const writer = { owner: "", version: 7 };
        await store.save(taskAt("t", 1000), "s", writer);
        expect(writer.version).toBe(8);
        expect((await store.get("t", "s"))?.version).toBe(8);
      });
    });

    describe("scopes, owners and delete", () => {
      it("keeps scopes apart, even with ids that look like another scope's key", async () => {
        await put(store, taskAt("1:x", 1000), "a");
        await put(store, taskAt("x", 1000), "a1:");
        expect((await store.get("1:x", "a"))?.task.id).toBe("1:x");
        expect(await store.get("1:x", "a1:")).toBeUndefined();
        expect(await store.get("x", "a")).toBeUndefined();
        expect(ids((await store.list("a", query())).tasks)).toEqual(["1:x"]);
        expect((await store.list("other", query())).totalSize).toBe(0);
      });

      it("keeps the same task id in two scopes as two tasks", async () => {
        await put(store, taskAt("t", 1000, { contextId: "one" }), "a");
        await put(store, taskAt("t", 2000, { contextId: "two" }), "b");
        expect((await store.get("t", "a"))?.task.contextId).toBe("one");
        expect((await store.get("t", "b"))?.task.contextId).toBe("two");
      });

      it("records the owner on insert, never changes it, and lists one owner's tasks or every owner's", async () => {
        await put(store, taskAt("alice-1", 1000), "s", "alice");
        await put(store, taskAt("bob-1", 2000), "s", "bob");
        await store.save(taskAt("alice-1", 3000), "s", { owner: "bob", version: 1 });
        expect((await store.get("alice-1", "s"))?.owner).toBe("alice");
        const alice = await store.list("s", query({ owner: "alice" }));
        expect(ids(alice.tasks)).toEqual(["alice-1"]);
        expect(alice.totalSize).toBe(1);
        expect(ids((await store.list("s", query({ owner: "" }))).tasks)).toEqual([]);
        expect(ids((await store.list("s", query({ owner: undefined }))).tasks)).toEqual(["alice-1", "bob-1"]);
      });

      it("deletes a task (a missing id is no error) and a later save inserts it afresh", async () => {
        await put(store, taskAt("t", 1000));
        await store.delete("t", "s");
        await store.delete("missing", "s");
        await store.delete("t", "other");
        expect(await store.get("t", "s")).toBeUndefined();
        expect((await store.list("s", query())).totalSize).toBe(0);
        await store.save(taskAt("t", 2000), "s", { owner: "", version: 0 });
        expect((await store.get("t", "s"))?.version).toBe(1);
      });
    });

    describe("round trips", () => {
      it("stores every part kind, nested metadata, big ints as strings and any Unicode losslessly", async () => {
        const task = richTask("rich");
        await put(store, task);
        const got = await store.get("rich", "s");
        expect(equals(TaskSchema, got?.task as Task, richTask("rich"))).toBe(true);
        const listed = (await store.list("s", query({ includeArtifacts: true }))).tasks[0]?.task;
        expect(equals(TaskSchema, listed as Task, richTask("rich"))).toBe(true);
      });

      it("returns every artifact when asked, and at most the task without them otherwise", async () => {
        await put(store, richTask("rich"));
        const without = (await store.list("s", query({ includeArtifacts: false }))).tasks[0]?.task as Task;
        expect(equals(TaskSchema, { ...without, artifacts: [] }, { ...richTask("rich"), artifacts: [] })).toBe(true);
        expect([0, 2]).toContain(without.artifacts.length);
      });

      it("keeps a task without status or timestamp", async () => {
        await put(store, create(TaskSchema, { id: "bare", contextId: "c" }));
        expect(
          equals(
            TaskSchema,
            (await store.get("bare", "s"))?.task as Task,
            create(TaskSchema, { id: "bare", contextId: "c" }),
          ),
        ).toBe(true);
      });
    });

    describe("ListTasks pages", () => {
      beforeEach(async () => {
        await put(store, taskAt("b", 2000));
        await put(store, taskAt("a", 2000));
        await put(store, taskAt("c", 3000));
        await put(store, taskAt("d", 1000, { state: TaskState.WORKING, contextId: "other" }));
        await put(store, taskAt("e", ts(2n, 500)));
        await put(store, taskAt("f", ts(2n, 499)));
        await put(store, create(TaskSchema, { id: "g", contextId: "c" }));
      });

      it("orders by status timestamp, most recent first (to the nanosecond), then by id; no timestamp last", async () => {
        const page = await store.list("s", query());
        expect(ids(page.tasks)).toEqual(["c", "e", "f", "a", "b", "d", "g"]);
        expect(page).toMatchObject({ more: false, totalSize: 7 });
      });

      it("filters by context, by status (UNSPECIFIED is none) and by status time, inclusive; totals the matches", async () => {
        expect(ids((await store.list("s", query({ contextId: "other" }))).tasks)).toEqual(["d"]);
        expect(ids((await store.list("s", query({ status: TaskState.WORKING }))).tasks)).toEqual(["d"]);
        expect((await store.list("s", query({ status: TaskState.UNSPECIFIED }))).totalSize).toBe(7);
        const recent = await store.list("s", query({ statusTimestampAfter: timestampFromMs(2000) }));
        expect(ids(recent.tasks)).toEqual(["c", "e", "f", "a", "b"]);
        expect(recent.totalSize).toBe(5);
        const nanos = await store.list("s", query({ statusTimestampAfter: ts(2n, 500), contextId: "c" }));
        expect(ids(nanos.tasks)).toEqual(["c", "e"]);
        const combined = await store.list(
          "s",
          query({ contextId: "c", status: TaskState.COMPLETED, statusTimestampAfter: timestampFromMs(2500) }),
        );
        expect(ids(combined.tasks)).toEqual(["c"]);
        expect((await store.list("s", query({ contextId: "none" }))).totalSize).toBe(0);
      });

      it("pages from a cursor, exclusive, with `more` and the total of every page", async () => {
        const first = await store.list("s", query({ pageSize: 3 }));
        expect(ids(first.tasks)).toEqual(["c", "e", "f"]);
        expect(first).toMatchObject({ more: true, totalSize: 7 });
        const second = await store.list("s", query({ pageSize: 3, after: cursorAt(first.tasks[2]!.task) }));
        expect(ids(second.tasks)).toEqual(["a", "b", "d"]);
        expect(second).toMatchObject({ more: true, totalSize: 7 });
        const third = await store.list("s", query({ pageSize: 3, after: cursorAt(second.tasks[2]!.task) }));
        expect(ids(third.tasks)).toEqual(["g"]);
        expect(third).toMatchObject({ more: false, totalSize: 7 });
        const exact = await store.list("s", query({ pageSize: 1, after: cursorAt(third.tasks[0]!.task) }));
        expect(exact).toMatchObject({ tasks: [], more: false, totalSize: 7 });
      });

      it("applies the filters and the cursor together", async () => {
        const page = await store.list("s", query({ contextId: "c", pageSize: 2, after: cursorAt(taskAt("a", 2000)) }));
        expect(ids(page.tasks)).toEqual(["b", "g"]);
        expect(page).toMatchObject({ more: false, totalSize: 6 });
      });

      it("neither repeats nor skips a task when tasks change between pages", async () => {
        const first = await store.list("s", query({ pageSize: 2 }));
        expect(ids(first.tasks)).toEqual(["c", "e"]);
        // Between pages: "c" (listed) and "a" (not yet) are updated, which moves them to the top; a task is added.
        await put(store, taskAt("c", 9000));
        await put(store, taskAt("a", 9000));
        await put(store, taskAt("new", 8000));
        const rest = await store.list("s", query({ after: cursorAt(first.tasks[1]!.task) }));
        // Nothing is listed twice, and every task that did not change is listed (a walk sees an update on its next pass).
        expect(ids(rest.tasks)).toEqual(["f", "b", "d", "g"]);
      });

      it("walks a larger set in pages that cover it exactly once", async () => {
        for (let i = 0; i < 57; i++)
          await put(store, taskAt(`bulk-${String(i).padStart(2, "0")}`, 10_000 + (i % 9) * 1000));
        const seen: string[] = [];
        let after: TaskCursor | undefined;
        for (let pages = 0; ; pages++) {
          const page = await store.list("s", query({ pageSize: 10, after }));
          expect(page.totalSize).toBe(64);
          seen.push(...ids(page.tasks));
          if (!page.more) break;
          after = cursorAt(page.tasks[page.tasks.length - 1]!.task);
          expect(pages).toBeLessThan(10);
        }
        expect(new Set(seen).size).toBe(64);
        expect(seen).toEqual(ids((await store.list("s", query())).tasks));
      });
    });
  });
}
