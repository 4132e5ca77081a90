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
import { DEFAULT_LIST_PAGE_SIZE, listTasksPage } from "../../src/server/list-tasks.js";

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

describe("listTasksPage", () => {
  const tasks = [task("b", 2000), task("a", 2000), task("c", 3000), task("d", 1000, TaskState.WORKING, "other")];

  it("orders by status timestamp, most recent first, then by id", () => {
    expect(listTasksPage(tasks, request()).tasks.map((t) => t.id)).toEqual(["c", "a", "b", "d"]);
  });

  it("pages with an opaque cursor, totalSize before paging and nextPageToken always present", () => {
    const first = listTasksPage(tasks, request({ pageSize: 2 }));
    expect(first.tasks.map((t) => t.id)).toEqual(["c", "a"]);
    expect(first).toMatchObject({ pageSize: 2, totalSize: 4 });
    const second = listTasksPage(tasks, request({ pageSize: 2, pageToken: first.nextPageToken }));
    expect(second.tasks.map((t) => t.id)).toEqual(["b", "d"]);
    expect(second.nextPageToken).toBe("");
    expect(encodeMessage(ListTasksResponseSchema, listTasksPage([], request()))).toEqual({
      tasks: [],
      nextPageToken: "",
      pageSize: DEFAULT_LIST_PAGE_SIZE,
      totalSize: 0,
    });
  });

  it("keeps its place when a task changes between pages", () => {
    const first = listTasksPage(tasks, request({ pageSize: 2 }));
    const moved = [...tasks, task("e", 5000)];
    expect(
      listTasksPage(moved, request({ pageSize: 2, pageToken: first.nextPageToken })).tasks.map((t) => t.id),
    ).toEqual(["b", "d"]);
  });

  it("filters by context, by status (UNSPECIFIED is no filter) and by statusTimestampAfter, inclusive", () => {
    expect(listTasksPage(tasks, request({ contextId: "other" })).tasks.map((t) => t.id)).toEqual(["d"]);
    expect(listTasksPage(tasks, request({ status: TaskState.WORKING })).tasks.map((t) => t.id)).toEqual(["d"]);
    expect(listTasksPage(tasks, request({ status: TaskState.UNSPECIFIED })).totalSize).toBe(4);
    const after = parseTimestamp(new Date(2000).toISOString());
    const recent = listTasksPage(tasks, request({ statusTimestampAfter: after }));
    expect(recent.tasks.map((t) => t.id)).toEqual(["c", "a", "b"]);
    expect(recent.totalSize).toBe(3);
  });

  it("omits artifacts unless asked, and applies historyLength", () => {
    const json = encodeMessage(ListTasksResponseSchema, listTasksPage(tasks, request({ historyLength: 1 }))) as {
      tasks: Record<string, unknown>[];
    };
    expect(json.tasks[0]).not.toHaveProperty("artifacts");
    expect(json.tasks[0]?.history).toHaveLength(1);
    const withArtifacts = listTasksPage(tasks, request({ includeArtifacts: true, historyLength: 0 }));
    expect(withArtifacts.tasks[0]?.artifacts).toHaveLength(1);
    expect(withArtifacts.tasks[0]?.history).toHaveLength(0);
  });

  it("caps the page size at 100 and refuses sizes below 1 and foreign tokens", () => {
    expect(listTasksPage(tasks, request({ pageSize: 500 })).pageSize).toBe(100);
    expect(() => listTasksPage(tasks, request({ pageSize: 0 }))).toThrow(InvalidParamsError);
    expect(() => listTasksPage(tasks, request({ pageToken: "t1.bm90IGpzb24" }))).toThrow(InvalidParamsError);
    expect(() => listTasksPage(tasks, request({ pageToken: "abc" }))).toThrow(InvalidParamsError);
  });

  it("hands out copies: changing a listed task leaves the stored one alone", () => {
    const page = listTasksPage(tasks, request({ includeArtifacts: true }));
    page.tasks[0]?.history.push(create(MessageSchema, { messageId: "x" }));
    expect(tasks[2]?.history).toHaveLength(2);
  });
});
