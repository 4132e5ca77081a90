/**
 * ListTasks (spec §3.1.4) between the wire and the task store: the request's
 * checks, the page token as the codec of a store cursor, the live tasks a
 * store dropped, and the response fields the proto requires. The filters,
 * order and paging themselves are the store's (`TaskStore.list`). See
 * docs/decisions.md (S7) for the values chosen here.
 */
import { create } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { type ListTasksRequest, type ListTasksResponse, ListTasksResponseSchema, type Task } from "../../gen/a2a_pb.js";
import { invalidParams } from "../a2a/protojson.js";
import { type LiveTasks, snapshotTask } from "./live-task.js";
import { compareTasks, matchesQuery, sortsAfter, statusTime } from "./task-order.js";
import type { StoredTask, TaskCursor, TaskPage, TaskQuery, TaskStore } from "./task-store.js";
import { checkHistoryLength, taskView } from "./task-view.js";

export const DEFAULT_LIST_PAGE_SIZE = 50;
export const MAX_LIST_PAGE_SIZE = 100;

const TOKEN_PREFIX = "t1.";

/** An opaque token naming the last task of a page: `t1.` + base64url of `[seconds, nanos, id]`. */
export function encodePageToken(task: Task): string {
  const t = statusTime(task);
  return TOKEN_PREFIX + Buffer.from(JSON.stringify([t.seconds.toString(), t.nanos, task.id])).toString("base64url");
}

function decodePageToken(token: string): TaskCursor {
  const bad = () => invalidParams([{ field: "pageToken", description: "pageToken is not a token this agent issued" }]);
  if (!token.startsWith(TOKEN_PREFIX)) throw bad();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token.slice(TOKEN_PREFIX.length), "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (!Array.isArray(value) || value.length !== 3) throw bad();
  const [seconds, nanos, id] = value as unknown[];
  if (typeof seconds !== "string" || !/^-?\d{1,20}$/.test(seconds) || !Number.isInteger(nanos)) throw bad();
  if (typeof id !== "string") throw bad();
  const time: Timestamp = { $typeName: "google.protobuf.Timestamp", seconds: BigInt(seconds), nanos: nanos as number };
  return { statusTime: time, taskId: id };
}

/** The effective page size: default when unset, -32602 outside 1–100 (spec §6.5). */
function pageSizeOf(request: ListTasksRequest): number {
  const { pageSize } = request;
  if (pageSize === undefined) return DEFAULT_LIST_PAGE_SIZE;
  if (pageSize < 1 || pageSize > MAX_LIST_PAGE_SIZE) {
    throw invalidParams([
      {
        field: "pageSize",
        description: `pageSize must be between 1 and ${MAX_LIST_PAGE_SIZE} inclusive, got ${pageSize}`,
      },
    ]);
  }
  return pageSize;
}

/**
 * The store query for a request listing `owner`'s tasks (undefined: every
 * owner's); throws -32602 for a bad page size, history length or token.
 */
export function taskQueryOf(request: ListTasksRequest, owner: string | undefined): TaskQuery {
  const pageSize = pageSizeOf(request);
  checkHistoryLength(request.historyLength);
  return {
    owner,
    contextId: request.contextId ?? "",
    status: request.status,
    statusTimestampAfter: request.statusTimestampAfter,
    after: request.pageToken ? decodePageToken(request.pageToken) : undefined,
    pageSize,
    includeArtifacts: request.includeArtifacts ?? false,
  };
}

/** The response for a store page: views of the tasks, the next token, the page size and the total. */
export function listTasksResponse(page: TaskPage, query: TaskQuery, request: ListTasksRequest): ListTasksResponse {
  const view = { historyLength: request.historyLength, includeArtifacts: query.includeArtifacts };
  const last = page.tasks[page.tasks.length - 1];
  return create(ListTasksResponseSchema, {
    tasks: page.tasks.map((stored) => snapshotTask(taskView(stored.task, view))),
    nextPageToken: page.more && last ? encodePageToken(last.task) : "",
    pageSize: query.pageSize,
    totalSize: page.totalSize,
  });
}

/**
 * One ListTasks page of `scope`, `owner`'s tasks (undefined: every owner's).
 * When the store may drop tasks on its own, the tasks live on this replica
 * that it no longer holds are merged in, at their place in the order, and
 * counted (decision S4).
 */
export async function listTasks(
  store: TaskStore,
  liveTasks: LiveTasks,
  scope: string,
  owner: string | undefined,
  request: ListTasksRequest,
): Promise<ListTasksResponse> {
  const query = taskQueryOf(request, owner);
  const page = await store.list(scope, query);
  return listTasksResponse(
    store.evicts ? await withDroppedLiveTasks(page, store, liveTasks, scope, query) : page,
    query,
    request,
  );
}

async function withDroppedLiveTasks(
  page: TaskPage,
  store: TaskStore,
  liveTasks: LiveTasks,
  scope: string,
  query: TaskQuery,
): Promise<TaskPage> {
  const dropped: StoredTask[] = [];
  for (const live of liveTasks.inScope(scope)) {
    if (matchesQuery(live, query) && !(await store.get(live.task.id, scope))) dropped.push(live);
  }
  if (dropped.length === 0) return page;
  const after = query.after;
  const merged = [...page.tasks, ...dropped.filter((stored) => !after || sortsAfter(stored.task, after))];
  merged.sort((a, b) => compareTasks(a.task, b.task));
  return {
    tasks: merged.slice(0, query.pageSize),
    more: page.more || merged.length > query.pageSize,
    totalSize: page.totalSize + dropped.length,
  };
}
