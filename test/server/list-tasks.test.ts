/** ListTasks (spec §3.1.4): filters, order, cursor pages, totals and the fields the proto requires. */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  ArtifactSchema,
  ListTasksRequestSchema,
  ListTasksResponseSchema,
  MessageSchema,
  type Task,
  TaskSchema,
  TaskState,
  TaskStatusSchema,
} from "../../gen/a2a_pb.js";
import { InvalidParamsError } from "../../src/a2a/errors.js";
import { encodeMessage } from "../../src/a2a/protojson.js";
import { parseTimestamp } from "../../src/a2a/timestamps.js";
import { DEFAULT_LIST_PAGE_SIZE, listTasks } from "../../src/server/list-tasks.js";
import { LiveTasks } from "../../src/server/live-task.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";

function task(id: string, ms: number, state = TaskState.COMPLETED, contextId = "c"): Task {
  return create(TaskSchema, {
    id,
    contextId,
    status: create(TaskStatusSchema, { state, timestamp: timestampFromMs(ms) }),
    artifacts: [create(ArtifactSchema, { artifactId: "a", parts: [] })],
    history: [create(MessageSchema, { messageId: "1" }), create(MessageSchema, { messageId: "2" })],
  });
}

const request = (init: Parameters<typeof create<typeof ListTasksRequestSchema>>[1] = {}) =>
  create(ListTasksRequestSchema, init);

/** One page of `tasks` (stored in a fresh in-memory store) for the request, as the handler answers it. */
async function listTasksPage(tasks: readonly Task[], req: ReturnType<typeof request>) {
  const store = new InMemoryTaskStore();
  for (const t of tasks) await store.save(t, "", { owner: "", version: 0 });
  return listTasks(store, new LiveTasks(), "", "", req);
}

describe("ListTasks pages", () => {
  const tasks = [task("b", 2000), task("a", 2000), task("c", 3000), task("d", 1000, TaskState.WORKING, "other")];

  it("orders by status timestamp, most recent first, then by id", async () => {
    expect((await listTasksPage(tasks, request())).tasks.map((t) => t.id)).toEqual(["c", "a", "b", "d"]);
  });

  it("pages with an opaque cursor, totalSize before paging and nextPageToken always present", async () => {
    const first = await listTasksPage(tasks, request({ pageSize: 2 }));
    expect(first.tasks.map((t) => t.id)).toEqual(["c", "a"]);
    expect(first).toMatchObject({ pageSize: 2, totalSize: 4 });
    const second = await listTasksPage(tasks, request({ pageSize: 2, pageToken: first.nextPageToken }));
    expect(second.tasks.map((t) => t.id)).toEqual(["b", "d"]);
    expect(second.nextPageToken).toBe("");
    expect(encodeMessage(ListTasksResponseSchema, await listTasksPage([], request()))).toEqual({
      tasks: [],
      nextPageToken: "",
      pageSize: DEFAULT_LIST_PAGE_SIZE,
      totalSize: 0,
    });
  });

  it("keeps its place when a task changes between pages", async () => {
    const first = await listTasksPage(tasks, request({ pageSize: 2 }));
    const moved = [...tasks, task("e", 5000)];
    expect(
      (await listTasksPage(moved, request({ pageSize: 2, pageToken: first.nextPageToken }))).tasks.map((t) => t.id),
    ).toEqual(["b", "d"]);
  });

  it("filters by context, by status (UNSPECIFIED is no filter) and by statusTimestampAfter, inclusive", async () => {
    expect((await listTasksPage(tasks, request({ contextId: "other" }))).tasks.map((t) => t.id)).toEqual(["d"]);
    expect((await listTasksPage(tasks, request({ status: TaskState.WORKING }))).tasks.map((t) => t.id)).toEqual(["d"]);
    expect((await listTasksPage(tasks, request({ status: TaskState.UNSPECIFIED }))).totalSize).toBe(4);
    const after = parseTimestamp(new Date(2000).toISOString());
    const recent = await listTasksPage(tasks, request({ statusTimestampAfter: after }));
    expect(recent.tasks.map((t) => t.id)).toEqual(["c", "a", "b"]);
    expect(recent.totalSize).toBe(3);
  });

  it("omits artifacts unless asked, and applies historyLength", async () => {
    const json = encodeMessage(ListTasksResponseSchema, await listTasksPage(tasks, request({ historyLength: 1 }))) as {
      tasks: Record<string, unknown>[];
    };
    expect(json.tasks[0]).not.toHaveProperty("artifacts");
    expect(json.tasks[0]?.history).toHaveLength(1);
    const withArtifacts = await listTasksPage(tasks, request({ includeArtifacts: true, historyLength: 0 }));
    expect(withArtifacts.tasks[0]?.artifacts).toHaveLength(1);
    expect(withArtifacts.tasks[0]?.history).toHaveLength(0);
  });

  it("refuses page sizes outside 1–100 and foreign tokens", async () => {
    expect((await listTasksPage(tasks, request({ pageSize: 100 }))).pageSize).toBe(100);
    await expect(listTasksPage(tasks, request({ pageSize: 101 }))).rejects.toThrow(
      "pageSize must be between 1 and 100 inclusive, got 101",
    );
    await expect(listTasksPage(tasks, request({ pageSize: 0 }))).rejects.toThrow(InvalidParamsError);
    await expect(listTasksPage(tasks, request({ pageToken: "t1.bm90IGpzb24" }))).rejects.toThrow(InvalidParamsError);
    await expect(listTasksPage(tasks, request({ pageToken: "abc" }))).rejects.toThrow(InvalidParamsError);
  });

  it("hands out copies: changing a listed task leaves the stored one alone", async () => {
    const page = await listTasksPage(tasks, request({ includeArtifacts: true }));
    page.tasks[0]?.history.push(create(MessageSchema, { messageId: "x" }));
    expect(tasks[2]?.history).toHaveLength(2);
  });
});
