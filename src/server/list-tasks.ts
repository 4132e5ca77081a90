/**
 * ListTasks over a scope's tasks (spec §3.1.4): filters, ordering by status
 * timestamp (most recent first, task id ascending between equal timestamps),
 * cursor pagination, and the response fields the proto requires. See
 * docs/decisions.md for the values chosen here.
 */
import { create } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import {
  type ListTasksRequest,
  type ListTasksResponse,
  ListTasksResponseSchema,
  type Task,
  TaskState,
} from "../../gen/a2a_pb.js";
import { invalidParams } from "../a2a/protojson.js";
import { compareTimestamps } from "../a2a/timestamps.js";
import { snapshotTask } from "./live-task.js";
import { checkHistoryLength, taskView } from "./task-view.js";

export const DEFAULT_LIST_PAGE_SIZE = 50;
export const MAX_LIST_PAGE_SIZE = 100;

const EPOCH: Timestamp = { $typeName: "google.protobuf.Timestamp", seconds: 0n, nanos: 0 };

function statusTime(task: Task): Timestamp {
  return task.status?.timestamp ?? EPOCH;
}

/** Most recent first; equal instants by task id, so the order is total and pages never overlap. */
function compareTasks(a: Task, b: Task): number {
  return compareTimestamps(statusTime(b), statusTime(a)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

interface Cursor {
  readonly seconds: bigint;
  readonly nanos: number;
  readonly id: string;
}

const TOKEN_PREFIX = "t1.";

/** An opaque token naming the last task of a page: `t1.` + base64url of `[seconds, nanos, id]`. */
export function encodePageToken(task: Task): string {
  const t = statusTime(task);
  return TOKEN_PREFIX + Buffer.from(JSON.stringify([t.seconds.toString(), t.nanos, task.id])).toString("base64url");
}

function decodePageToken(token: string): Cursor {
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
  return { seconds: BigInt(seconds), nanos: nanos as number, id };
}

/** True when `task` sorts after the cursor's task. */
function isAfter(task: Task, cursor: Cursor): boolean {
  const t = statusTime(task);
  const byTime = compareTimestamps({ ...EPOCH, seconds: cursor.seconds, nanos: cursor.nanos }, t);
  return byTime > 0 || (byTime === 0 && task.id > cursor.id);
}

/** The effective page size: default when unset, -32602 below 1, capped at the maximum. */
function pageSizeOf(request: ListTasksRequest): number {
  if (request.pageSize === undefined) return DEFAULT_LIST_PAGE_SIZE;
  if (request.pageSize < 1) {
    throw invalidParams([{ field: "pageSize", description: `pageSize must be between 1 and ${MAX_LIST_PAGE_SIZE}` }]);
  }
  return Math.min(request.pageSize, MAX_LIST_PAGE_SIZE);
}

/** One page of `tasks` (every task of the caller's scope) for the request. */
export function listTasksPage(tasks: readonly Task[], request: ListTasksRequest): ListTasksResponse {
  const pageSize = pageSizeOf(request);
  checkHistoryLength(request.historyLength);
  const cursor = request.pageToken ? decodePageToken(request.pageToken) : undefined;
  const after = request.statusTimestampAfter;
  const matching = tasks.filter(
    (task) =>
      (!request.contextId || task.contextId === request.contextId) &&
      (request.status === TaskState.UNSPECIFIED || task.status?.state === request.status) &&
      (!after || compareTimestamps(statusTime(task), after) >= 0),
  );
  matching.sort(compareTasks);
  const start = cursor ? matching.findIndex((task) => isAfter(task, cursor)) : 0;
  const from = start < 0 ? matching.length : start;
  const page = matching.slice(from, from + pageSize);
  const more = from + page.length < matching.length;
  const view = { historyLength: request.historyLength, includeArtifacts: request.includeArtifacts ?? false };
  return create(ListTasksResponseSchema, {
    tasks: page.map((task) => snapshotTask(taskView(task, view))),
    nextPageToken: more && page.length > 0 ? encodePageToken(page[page.length - 1] as Task) : "",
    pageSize,
    totalSize: matching.length,
  });
}
