/**
 * The in-memory store's ListTasks indexes (per partition, context and state):
 * a task moves in every index when its status changes, leaves every index when
 * evicted or deleted, equal instants order by id, pages neither repeat nor skip
 * across updates, and every page and total equals what filtering and sorting
 * the whole scope gives, through random saves, evictions and queries.
 */
import { type Timestamp, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { type Task, TaskState } from "../../gen/a2a_pb.js";
import { compareTasks, matchesQuery, sortsAfter } from "../../src/server/task-order.js";
import { InMemoryTaskStore, type StoredTask, type TaskCursor, type TaskQuery } from "../../src/server/task-store.js";
import { put, query, taskAt } from "../stores/task-store-suite.js";

const ids = (tasks: readonly StoredTask[]) => tasks.map((t) => t.task.id);
const cursorAt = (task: Task): TaskCursor => ({
  statusTime: task.status?.timestamp ?? timestampFromMs(0),
  taskId: task.id,
});
const { WORKING, COMPLETED, INPUT_REQUIRED } = TaskState;

async function listIds(store: InMemoryTaskStore, init: Partial<TaskQuery>, scope = "s"): Promise<string[]> {
  return ids((await store.list(scope, query(init))).tasks);
}

/** A small deterministic generator (a linear congruential one), so a failure replays. */
function seeded(start: number) {
  let seed = start;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

describe("ListTasks indexes", () => {
  it("move a task in every index it is in when its status changes, and out of its old state's", async () => {
    const store = new InMemoryTaskStore();
    await put(store, taskAt("a", 1000, { state: WORKING, contextId: "x" }));
    await put(store, taskAt("b", 2000, { state: WORKING, contextId: "x" }));
    await put(store, taskAt("c", 3000, { state: COMPLETED, contextId: "y" }));
    expect(await listIds(store, {})).toEqual(["c", "b", "a"]);
    // "a" completes last: first everywhere it is, gone from WORKING.
    await put(store, taskAt("a", 4000, { state: COMPLETED, contextId: "x" }));
    expect(await listIds(store, {})).toEqual(["a", "c", "b"]);
    expect(await listIds(store, { contextId: "x" })).toEqual(["a", "b"]);
    expect(await listIds(store, { status: COMPLETED })).toEqual(["a", "c"]);
    expect(await listIds(store, { status: WORKING })).toEqual(["b"]);
    expect(await listIds(store, { contextId: "x", status: WORKING })).toEqual(["b"]);
    // A state change within the same instant moves it between state indexes only.
    await put(store, taskAt("b", 2000, { state: INPUT_REQUIRED, contextId: "x" }));
    expect(await listIds(store, { status: WORKING })).toEqual([]);
    expect(await listIds(store, { status: INPUT_REQUIRED })).toEqual(["b"]);
    expect(await listIds(store, {})).toEqual(["a", "c", "b"]);
    // A task moved to another context leaves the first.
    await put(store, taskAt("c", 3000, { state: COMPLETED, contextId: "x" }));
    expect(await listIds(store, { contextId: "y" })).toEqual([]);
    expect(await listIds(store, { contextId: "x" })).toEqual(["a", "c", "b"]);
  });

  it("drop an evicted or deleted task from every index and every total", async () => {
    const store = new InMemoryTaskStore({ maxTasks: 3 });
    await put(store, taskAt("old", 5000, { state: WORKING, contextId: "x" }));
    await put(store, taskAt("b", 1000, { contextId: "x" }));
    await put(store, taskAt("c", 2000, { contextId: "y" }));
    await put(store, taskAt("d", 3000, { contextId: "x" }));
    for (const filter of [
      {},
      { contextId: "x" },
      { status: WORKING },
      { statusTimestampAfter: timestampFromMs(4000) },
    ]) {
      expect(await listIds(store, filter)).not.toContain("old");
    }
    expect((await store.list("s", query({ contextId: "x" }))).totalSize).toBe(2);
    expect((await store.list("s", query({ status: WORKING }))).totalSize).toBe(0);
    await store.delete("d", "s");
    expect(await listIds(store, { contextId: "x" })).toEqual(["b"]);
    expect((await store.list("s", query({ status: COMPLETED }))).totalSize).toBe(2);
  });

  it("order equal status times by id in every index, and page through the ties", async () => {
    const store = new InMemoryTaskStore();
    for (const id of ["m", "c", "x", "a", "k"]) await put(store, taskAt(id, 1000, { contextId: "one" }));
    await put(store, taskAt("later", 2000, { contextId: "one" }));
    expect(await listIds(store, {})).toEqual(["later", "a", "c", "k", "m", "x"]);
    expect(await listIds(store, { contextId: "one", status: COMPLETED })).toEqual(["later", "a", "c", "k", "m", "x"]);
    const first = await store.list("s", query({ contextId: "one", pageSize: 2 }));
    expect(ids(first.tasks)).toEqual(["later", "a"]);
    const next = await store.list("s", query({ contextId: "one", pageSize: 2, after: cursorAt(taskAt("a", 1000)) }));
    expect(ids(next.tasks)).toEqual(["c", "k"]);
    expect(next).toMatchObject({ more: true, totalSize: 6 });
  });

  it("order status times to the nanosecond, float nanos as Date.now() makes them among them, and move on a nanos change", async () => {
    const store = new InMemoryTaskStore();
    const at = (nanos: number): Timestamp => ({
      $typeName: "google.protobuf.Timestamp",
      seconds: 1_800_000_000n,
      nanos,
    });
    // 0.123 s in nanoseconds, computed from milliseconds as a float.
    const fromMs = (1_800_000_000_123 % 1000) * 1_000_000;
    await put(store, taskAt("float", at(fromMs)));
    await put(store, taskAt("below", at(123_000_000 - 1)));
    await put(store, taskAt("above", at(123_000_000 + 1)));
    await put(store, taskAt("tie", at(123_000_000)));
    expect(await listIds(store, {})).toEqual(["above", "float", "tie", "below"]);
    await put(store, taskAt("below", at(999_999_999), { state: WORKING }));
    expect(await listIds(store, {})).toEqual(["below", "above", "float", "tie"]);
    expect(await listIds(store, { status: COMPLETED, statusTimestampAfter: at(123_000_000) })).toEqual([
      "above",
      "float",
      "tie",
    ]);
  });

  it("neither repeat nor skip a task updated between pages of a context or a state", async () => {
    const store = new InMemoryTaskStore();
    for (let i = 0; i < 6; i++) await put(store, taskAt(`t${i}`, 1000 * (6 - i), { state: WORKING, contextId: "x" }));
    for (const filter of [{ contextId: "x" }, { status: WORKING }]) {
      const first = await store.list("s", query({ ...filter, pageSize: 2 }));
      expect(ids(first.tasks)).toEqual(["t0", "t1"]);
      // Listed and not yet listed tasks are updated (same state, later time): they move before the cursor.
      await put(store, taskAt("t0", 9000, { state: WORKING, contextId: "x" }));
      await put(store, taskAt("t3", 9500, { state: WORKING, contextId: "x" }));
      const rest = await store.list("s", query({ ...filter, after: cursorAt(first.tasks[1]!.task) }));
      expect(ids(rest.tasks)).toEqual(["t2", "t4", "t5"]);
      expect(rest.totalSize).toBe(6);
      // Put them back for the next filter.
      await put(store, taskAt("t0", 6000, { state: WORKING, contextId: "x" }));
      await put(store, taskAt("t3", 3000, { state: WORKING, contextId: "x" }));
    }
  });

  it("stay right through saves before and between listings, and after the scope emptied", async () => {
    const store = new InMemoryTaskStore();
    await put(store, taskAt("a", 1000, { state: WORKING, contextId: "x" }));
    await put(store, taskAt("b", 2000, { contextId: "y" }));
    await put(store, taskAt("a", 3000, { contextId: "x" }));
    expect(await listIds(store, {})).toEqual(["a", "b"]);
    await put(store, taskAt("c", 2500, { state: WORKING, contextId: "x" }));
    await put(store, taskAt("b", 4000, { contextId: "y" }));
    expect(await listIds(store, {})).toEqual(["b", "a", "c"]);
    expect(await listIds(store, { contextId: "x" })).toEqual(["a", "c"]);
    expect(await listIds(store, { status: WORKING })).toEqual(["c"]);
    for (const id of ["a", "b", "c"]) await store.delete(id, "s");
    expect(await listIds(store, {})).toEqual([]);
    await put(store, taskAt("d", 500, { contextId: "x" }));
    await put(store, taskAt("e", 700, { contextId: "x" }));
    await put(store, taskAt("d", 900, { contextId: "x" }));
    expect(await listIds(store, { contextId: "x" })).toEqual(["d", "e"]);
    expect((await store.list("s", query({ status: WORKING }))).totalSize).toBe(0);
  });

  it("answer the first page filtered by a context or a state after many unfiltered saves and evictions, and every page after", async () => {
    // The indexes by context and by state are built by the first page that asks for one: each scope here is
    // filled (new tasks, quick WORKING -> COMPLETED runs, later re-saves, moves between contexts, evictions)
    // before any filtered page, then checked, then changed again and checked again.
    const contexts = ["c0", "c1", "c2", "c3"];
    const states = [WORKING, COMPLETED, INPUT_REQUIRED];
    for (const first of [{ contextId: "c2" }, { status: COMPLETED }, { contextId: "c1", status: WORKING }]) {
      const store = new InMemoryTaskStore({ maxTasks: 120 });
      let step = 0;
      const saveMany = async (count: number) => {
        for (const end = step + count; step < end; step++) {
          const id = `t${(step * 7) % 200}`;
          const contextId = contexts[(step * 5) % 4] as string;
          const ms = step % 9 === 0 ? 50 * (step % 13) : 1000 + step;
          await put(store, taskAt(id, ms, { state: WORKING, contextId }));
          if (step % 3 !== 0) await put(store, taskAt(id, ms, { state: states[step % 3] as TaskState, contextId }));
        }
      };
      const expectAsScope = async () => {
        const all: StoredTask[] = [];
        for (let i = 0; i < 200; i++) {
          const t = await store.get(`t${i}`, "s");
          if (t) all.push(t);
        }
        const filters: Partial<TaskQuery>[] = [first, {}, { statusTimestampAfter: timestampFromMs(1200) }];
        for (const contextId of contexts) filters.push({ contextId }, { contextId, status: WORKING });
        for (const status of states) filters.push({ status }, { status, statusTimestampAfter: timestampFromMs(300) });
        for (const [at, filter] of filters.entries()) {
          const asked = query({ ...filter, pageSize: 100 });
          const matching = all.filter((t) => matchesQuery(t, asked)).sort((a, b) => compareTasks(a.task, b.task));
          const page = await store.list("s", asked);
          expect(ids(page.tasks), `filter ${at}`).toEqual(ids(matching.slice(0, 100)));
          expect(page.totalSize).toBe(matching.length);
        }
      };
      await saveMany(1_000);
      expect(store.size).toBe(120);
      await expectAsScope();
      await saveMany(500);
      for (let i = 0; i < 200; i += 11) await store.delete(`t${i}`, "s");
      await expectAsScope();
    }
  });

  it("build a scope's indexes on its first list from every save, move, eviction and owner before it, and keep them after", async () => {
    // A scope's indexes are built by its first list from the tasks it holds: here two scopes take many saves
    // (three owners, tasks re-saved later, earlier and in other states and contexts, evictions, deletes) before
    // either is listed; "s" is then listed and changed again, while "t" stays unlisted until the end; then "s"
    // empties and fills again. Every page, cursor and total must equal filtering and sorting the scope.
    const { next, pick } = seeded(11);
    const store = new InMemoryTaskStore({ maxTasks: 300 });
    const states = [WORKING, COMPLETED, INPUT_REQUIRED];
    const owners = ["", "alice", "bob"];
    const contexts = ["c1", "c2", "c3"];
    let clock = 10_000;
    const saveMany = async (scope: string, count: number) => {
      for (let step = 0; step < count; step++) {
        const id = `id-${Math.floor(next() * 500)}`;
        const stored = await store.get(id, scope);
        // Mostly forward in time (a new status), sometimes the same instant or earlier (a clock stepped back).
        const roll = next();
        clock += roll < 0.6 ? 1 : roll < 0.8 ? 0 : -Math.floor(next() * 3_000);
        await store.save(
          taskAt(id, clock, {
            state: pick(states),
            contextId: stored && next() < 0.8 ? stored.task.contextId : pick(contexts),
          }),
          scope,
          { owner: stored?.owner ?? pick(owners), version: stored?.version ?? 0 },
        );
        if (next() < 0.03) await store.delete(`id-${Math.floor(next() * 500)}`, scope);
      }
    };
    const expectAsScope = async (scope: string) => {
      const all: StoredTask[] = [];
      for (let i = 0; i < 500; i++) {
        const t = await store.get(`id-${i}`, scope);
        if (t) all.push(t);
      }
      const filters: Partial<TaskQuery>[] = [{}, { statusTimestampAfter: timestampFromMs(clock - 500) }];
      for (const contextId of contexts) filters.push({ contextId }, { contextId, status: WORKING });
      for (const status of states) filters.push({ status });
      for (const filter of filters) {
        for (const owner of [undefined, ...owners]) {
          const cursorTask = all.length > 0 ? pick(all).task : undefined;
          for (const after of [undefined, cursorTask ? cursorAt(cursorTask) : undefined]) {
            const asked = query({ ...filter, owner, after, pageSize: 7 });
            const matching = all.filter((t) => matchesQuery(t, asked)).sort((a, b) => compareTasks(a.task, b.task));
            const rest = matching.filter((t) => !after || sortsAfter(t.task, after));
            const page = await store.list(scope, asked);
            expect(ids(page.tasks)).toEqual(ids(rest.slice(0, 7)));
            expect(page.more).toBe(rest.length > 7);
            expect(page.totalSize).toBe(matching.length);
          }
        }
      }
    };
    await saveMany("s", 1_500);
    await saveMany("t", 1_500);
    await saveMany("s", 500);
    expect(store.size).toBe(300);
    await expectAsScope("s");
    await saveMany("s", 400);
    await saveMany("t", 400);
    await expectAsScope("s");
    await expectAsScope("t");
    await saveMany("s", 300);
    await expectAsScope("t");
    await expectAsScope("s");
    for (let i = 0; i < 500; i++) await store.delete(`id-${i}`, "s");
    await expectAsScope("s");
    await saveMany("s", 200);
    await expectAsScope("s");
  });

  it("answer every page and total as filtering and sorting the scope would, through random saves and evictions", async () => {
    const { next, pick } = seeded(3);
    const store = new InMemoryTaskStore({ maxTasks: 150 });
    const states = [WORKING, COMPLETED, INPUT_REQUIRED, TaskState.FAILED];
    const owners = ["", "alice", "bob"];
    const scopes = ["s", "t"];
    for (let step = 0; step < 3_000; step++) {
      const scope = pick(scopes);
      const id = `id-${Math.floor(next() * 400)}`;
      const stored = await store.get(id, scope);
      await store.save(
        taskAt(id, Math.floor(next() * 60) * 100, {
          state: pick(states),
          contextId: stored?.task.contextId ?? pick(["c1", "c2", "c3", "c4"]),
        }),
        scope,
        { owner: stored?.owner ?? pick(owners), version: stored?.version ?? 0 },
      );
      if (step % 50 !== 0) continue;
      for (let q = 0; q < 10; q++) {
        const all: StoredTask[] = [];
        for (const s of scopes)
          if (s === scope)
            for (let i = 0; i < 400; i++) {
              const t = await store.get(`id-${i}`, s);
              if (t) all.push(t);
            }
        const owner = next() < 0.2 ? undefined : pick(owners);
        const cursorTask = next() < 0.5 && all.length > 0 ? pick(all).task : undefined;
        const asked = query({
          owner,
          contextId: next() < 0.4 ? pick(["c1", "c2", "c3", "c4"]) : "",
          status: next() < 0.4 ? pick(states) : TaskState.UNSPECIFIED,
          statusTimestampAfter: next() < 0.3 ? timestampFromMs(Math.floor(next() * 60) * 100) : undefined,
          after: cursorTask ? cursorAt(cursorTask) : undefined,
          pageSize: 1 + Math.floor(next() * 20),
        });
        const matching = all.filter((t) => matchesQuery(t, asked)).sort((a, b) => compareTasks(a.task, b.task));
        const rest = matching.filter((t) => !asked.after || sortsAfter(t.task, asked.after));
        const page = await store.list(scope, asked);
        expect(ids(page.tasks)).toEqual(ids(rest.slice(0, asked.pageSize)));
        expect(page.more).toBe(rest.length > asked.pageSize);
        expect(page.totalSize).toBe(matching.length);
      }
    }
    expect(store.size).toBe(150);
  });
});
