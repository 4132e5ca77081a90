/**
 * The one order ListTasks pages through (spec §3.1.4, decision S7): status
 * timestamp, most recent first, then task id ascending, so the order is total
 * and a cursor naming the last task of a page is a stable place to resume.
 * A task without a status timestamp sorts as the epoch. Every store returns
 * tasks in this order; these functions are it for stores that sort in
 * process, and for the harness when it merges tasks into a page.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { type Task, TaskState } from "../../gen/a2a_pb.js";
import { compareTimestamps } from "../a2a/timestamps.js";
import type { StoredTask, TaskCursor, TaskQuery } from "./task-store.js";

const EPOCH: Timestamp = { $typeName: "google.protobuf.Timestamp", seconds: 0n, nanos: 0 };

/** The instant a task sorts by. */
export function statusTime(task: Task): Timestamp {
  return task.status?.timestamp ?? EPOCH;
}

/** Negative when `a` comes first: most recent first, equal instants by task id. */
export function compareTasks(a: Task, b: Task): number {
  return compareTimestamps(statusTime(b), statusTime(a)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** True when `task` comes after the cursor's position. */
export function sortsAfter(task: Task, cursor: TaskCursor): boolean {
  const byTime = compareTimestamps(cursor.statusTime, statusTime(task));
  return byTime > 0 || (byTime === 0 && task.id > cursor.taskId);
}

/** Whether a stored task passes the query's owner and filters (the cursor and page size aside). */
export function matchesQuery(stored: StoredTask, query: TaskQuery): boolean {
  const task = stored.task;
  return (
    (query.owner === undefined || stored.owner === query.owner) &&
    (!query.contextId || task.contextId === query.contextId) &&
    (query.status === TaskState.UNSPECIFIED || task.status?.state === query.status) &&
    (!query.statusTimestampAfter || compareTimestamps(statusTime(task), query.statusTimestampAfter) >= 0)
  );
}
