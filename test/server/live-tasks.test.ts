/** The live tasks of an agent: found by scope and task id, released one by one, counted and listed per scope. */
import { describe, expect, it } from "vitest";
import { LiveTasks } from "../../src/server/live-task.js";
import { newTask } from "../../src/server/message-literals.js";
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

  it("gives a live task the store's scoped key", () => {
    const live = open(new LiveTasks(), "t-2", "3:abc");
    expect(live.key).toBe(scopedKey("t-2", "3:abc"));
  });
});
