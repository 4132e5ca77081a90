/**
 * The live tasks of an agent: found by scope and task id, released one by
 * one, counted and listed per scope; a live task's lists as they grow.
 */
import { describe, expect, it } from "vitest";
import type { Part } from "../../gen/a2a_pb.js";
import { LiveTasks } from "../../src/server/live-task.js";
import { agentMessage, artifact, newTask, textPart } from "../../src/server/message-literals.js";
import { InMemoryTaskStore, scopedKey } from "../../src/server/task-store.js";

const store = new InMemoryTaskStore();
const open = (tasks: LiveTasks, id: string, scope: string) =>
  tasks.open(newTask(id, "c"), scope, store, { owner: "o", version: 0 });

describe("LiveTasks", () => {
  it("keeps one task id in two scopes as two live tasks, and releases each on its own", () => {
    const tasks = new LiveTasks();
    const a = open(tasks, "t-1", "0:a");
    const b = open(tasks, "t-1", "0:b");
    expect(a).not.toBe(b);
    expect(tasks.size).toBe(2);
    expect(open(tasks, "t-1", "0:a")).toBe(a);
    expect(tasks.get("t-1", "0:a")).toBe(a);
    expect(tasks.get("t-1", "0:b")).toBe(b);
    expect([...tasks.inScope("0:b")]).toEqual([b]);

    tasks.release(a);
    expect(tasks.get("t-1", "0:a")).toBeUndefined();
    expect(tasks.get("t-1", "0:b")).toBe(b);
    expect(tasks.size).toBe(1);
    expect([...tasks.inScope("0:a")]).toEqual([]);
    // A released copy released again changes nothing, and a task opened since in its place stays.
    const again = open(tasks, "t-1", "0:a");
    tasks.release(a);
    expect(tasks.get("t-1", "0:a")).toBe(again);
    expect(tasks.size).toBe(2);
  });

  it("releases one tenant's quick tasks without deleting a map entry each, and finds every task through the rebuilds (S718)", () => {
    const tasks = new LiveTasks();
    const long = open(tasks, "long", "0:a");
    const deletes = { count: 0 };
    const realDelete = Map.prototype.delete;
    Map.prototype.delete = function (this: Map<unknown, unknown>, key: unknown) {
      deletes.count++;
      return realDelete.call(this, key);
    };
    try {
      for (let i = 0; i < 1_000; i++) {
        const quick = open(tasks, `quick-${i}`, "0:a");
        expect(tasks.get(`quick-${i}`, "0:a")).toBe(quick);
        tasks.release(quick);
        expect(tasks.get(`quick-${i}`, "0:a")).toBeUndefined();
      }
    } finally {
      Map.prototype.delete = realDelete;
    }
    expect(deletes.count).toBe(0);
    expect(tasks.get("long", "0:a")).toBe(long);
    expect(tasks.size).toBe(1);
    expect([...tasks.inScope("0:a")]).toEqual([long]);
    // The only scope stays when it empties; a second one is dropped when it does, and the first with it.
    tasks.release(long);
    expect(tasks.size).toBe(0);
    const other = open(tasks, "t", "0:b");
    const back = open(tasks, "quick-3", "0:a");
    expect(tasks.get("quick-3", "0:a")).toBe(back);
    tasks.release(other);
    tasks.release(back);
    expect(tasks.size).toBe(0);
    expect([...tasks.inScope("0:a")]).toEqual([]);
    expect([...tasks.inScope("0:b")]).toEqual([]);
  });

  it("gives a live task the store's scoped key", () => {
    const live = open(new LiveTasks(), "t-2", "3:abc");
    expect(live.key).toBe(scopedKey("t-2", "3:abc"));
  });
});

describe("LiveTask lists", () => {
  it("keeps every message, artifact and appended part in order, and snapshots unchanged, as the lists grow long", () => {
    const live = open(new LiveTasks(), "t-3", "0:a");
    const message = (i: number) => agentMessage(`m-${i}`, "t-3", "c", [textPart(`${i}`)]);
    const snapshots = [];
    for (let i = 0; i < 20; i++) {
      live.appendHistory(message(i));
      live.writeArtifact({ artifact: artifact(`a-${i}`, "", [textPart(`${i}`)]) });
      live.writeArtifact({ artifact: artifact("a-0", "", [textPart(`+${i}`)]), append: true });
      snapshots.push(live.snapshot());
    }
    // Replaced by id past the scanned artifacts: found where it was.
    live.writeArtifact({ artifact: artifact("a-12", "", [textPart("new")]) });
    const texts = (parts: Part[]) => parts.map((p) => p.content.value);
    const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
    expect(live.task.history.map((m) => m.messageId)).toEqual(range(20, (i) => `m-${i}`));
    expect(live.task.artifacts.map((a) => a.artifactId)).toEqual(range(20, (i) => `a-${i}`));
    expect(texts(live.task.artifacts[0]?.parts ?? [])).toEqual(["0", ...range(20, (i) => `+${i}`)]);
    expect(texts(live.task.artifacts[12]?.parts ?? [])).toEqual(["new"]);
    for (const [i, snapshot] of snapshots.entries()) {
      expect(snapshot.history).toHaveLength(i + 1);
      expect(snapshot.artifacts).toHaveLength(i + 1);
      expect(texts(snapshot.artifacts[0]?.parts ?? [])).toEqual(["0", ...range(i + 1, (j) => `+${j}`)]);
    }
  });
});
