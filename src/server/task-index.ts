/**
 * The in-memory task store's indexes for ListTasks: per partition (one scope
 * and one owner) every task in the ListTasks order, and the same per context
 * and per state, each an `OrderIndex` kept up to date by every save that
 * moves a task (O(log n) each). A page is read from the one index that
 * serves the query:
 *
 * - no filter, or only `statusTimestampAfter`: the partition's index; the
 *   instant bounds a prefix of the order, so the page and the total are
 *   a rank and a walk (O(log n + page));
 * - `contextId` (with or without a time): the context's index, likewise;
 * - `status` (with or without a time): the state's index, likewise;
 * - `contextId` and `status` together: the context's index, walked and
 *   filtered by state (O(tasks of the context)).
 *
 * A query for every owner of a scope (`owner` undefined) reads each owner's
 * partition and merges the pages (O(owners × (log n + page))).
 * See docs/decisions.md (S450).
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { type Task, TaskState } from "../../gen/a2a_pb.js";
import { compareKeys, OrderIndex, type OrderKey } from "./order-index.js";
import type { StoredTask, TaskQuery } from "./task-store.js";

/** A stored task with what it is indexed by, as of its last indexing (not as the task reads now). */
export interface IndexedTask extends StoredTask, OrderKey {
  readonly taskId: string;
  contextId: string;
  state: TaskState;
  seconds: number;
  nanos: number;
}

/** Whether the task's status time, state or context differ from what `entry` is indexed by. */
export function indexMoved(entry: IndexedTask, task: Task): boolean {
  const status = task.status;
  const timestamp = status?.timestamp;
  return (
    entry.state !== (status?.state ?? TaskState.UNSPECIFIED) ||
    entry.nanos !== (timestamp?.nanos ?? 0) ||
    entry.seconds !== Number(timestamp?.seconds ?? 0n) ||
    entry.contextId !== task.contextId
  );
}

/**
 * Copies the task's status time, state and context into the entry's index
 * fields (while it is out of every index). The nanos, an int32, are kept as
 * one (`| 0`): a timestamp whose nanos were computed (decoded, or made by a
 * skill from a date) may hold them as a float, and a float field costs every
 * entry a boxed number of its own.
 */
export function setIndexFields(entry: IndexedTask, task: Task): void {
  const status = task.status;
  entry.state = status?.state ?? TaskState.UNSPECIFIED;
  entry.seconds = Number(status?.timestamp?.seconds ?? 0n);
  entry.nanos = (status?.timestamp?.nanos ?? 0) | 0;
  entry.contextId = task.contextId;
}

function keyAt(time: Timestamp, taskId: string | null): OrderKey {
  return { seconds: Number(time.seconds), nanos: time.nanos, taskId };
}

/** Up to `pageSize + 1` matches after the cursor, and the number of matches in all. */
export interface PartitionPage<E> {
  readonly tasks: E[];
  readonly totalSize: number;
}

/** The tasks of one scope and owner, indexed. */
export class TaskPartition<E extends IndexedTask> {
  readonly all = new OrderIndex<E>();
  /**
   * By context: the one task of a context that has one (most have one: a new
   * context per conversation), an index once it has more. A context index
   * per task cost three allocations and two tree operations per new task.
   */
  readonly #contexts = new Map<string, E | OrderIndex<E>>();
  readonly #states = new Map<TaskState, OrderIndex<E>>();

  get size(): number {
    return this.all.size;
  }

  add(entry: E): void {
    this.all.insert(entry);
    this.#addToContext(entry);
    this.#stateIndex(entry.state).insert(entry);
  }

  remove(entry: E): void {
    this.all.delete(entry);
    this.#removeFromContext(entry);
    this.#stateIndex(entry.state).delete(entry);
  }

  /**
   * Re-indexes an entry whose task's status time, state or context changed
   * (`indexMoved`), in the indexes where its place changed: a state change
   * within the same instant (a quick skill) leaves the partition's index
   * alone, and a context's only task has no place to change.
   */
  move(entry: E, task: Task): void {
    const time = task.status?.timestamp;
    const timeMoved = Number(time?.seconds ?? 0n) !== entry.seconds || (time?.nanos ?? 0) !== entry.nanos;
    const stateMoved = timeMoved || (task.status?.state ?? TaskState.UNSPECIFIED) !== entry.state;
    const contextMoved =
      task.contextId !== entry.contextId || (timeMoved && this.#contexts.get(entry.contextId) !== entry);
    if (timeMoved) this.all.delete(entry);
    if (contextMoved) this.#removeFromContext(entry);
    if (stateMoved) this.#stateIndex(entry.state).delete(entry);
    setIndexFields(entry, task);
    if (timeMoved) this.all.insert(entry);
    if (contextMoved) this.#addToContext(entry);
    if (stateMoved) this.#stateIndex(entry.state).insert(entry);
  }

  /** A state's index; kept when it empties (there are few states, and a task passes through WORKING each run). */
  #stateIndex(state: TaskState): OrderIndex<E> {
    let index = this.#states.get(state);
    if (!index) {
      index = new OrderIndex<E>();
      this.#states.set(state, index);
    }
    return index;
  }

  #addToContext(entry: E): void {
    const context = this.#contexts.get(entry.contextId);
    if (context === undefined) this.#contexts.set(entry.contextId, entry);
    else if (context instanceof OrderIndex) context.insert(entry);
    else {
      const index = new OrderIndex<E>();
      index.insert(context);
      index.insert(entry);
      this.#contexts.set(entry.contextId, index);
    }
  }

  #removeFromContext(entry: E): void {
    const context = this.#contexts.get(entry.contextId);
    if (context === entry) this.#contexts.delete(entry.contextId);
    else if (context instanceof OrderIndex) {
      context.delete(entry);
      if (context.size === 1) this.#contexts.set(entry.contextId, context.slice(0, 1)[0] as E);
    }
  }

  #contextIndex(contextId: string): OrderIndex<E> | undefined {
    const context = this.#contexts.get(contextId);
    if (context === undefined || context instanceof OrderIndex) return context;
    const one = new OrderIndex<E>();
    one.insert(context);
    return one;
  }

  page(query: TaskQuery): PartitionPage<E> {
    const filtered = query.status !== TaskState.UNSPECIFIED;
    const index = query.contextId
      ? this.#contextIndex(query.contextId)
      : filtered
        ? this.#states.get(query.status)
        : this.all;
    if (!index) return { tasks: [], totalSize: 0 };
    const end = query.statusTimestampAfter
      ? index.countBefore(keyAt(query.statusTimestampAfter, null), false)
      : index.size;
    const start = query.after ? index.countBefore(keyAt(query.after.statusTime, query.after.taskId), true) : 0;
    const wanted = query.pageSize + 1;
    if (!(query.contextId && filtered)) {
      return { tasks: index.slice(start, Math.min(end, start + wanted)), totalSize: end };
    }
    // Context and state together: the context's tasks, filtered.
    const tasks: E[] = [];
    let totalSize = 0;
    let position = 0;
    index.walk(0, (entry) => {
      if (position++ >= end) return false;
      if (entry.state !== query.status) return true;
      totalSize++;
      if (position > start && tasks.length < wanted) tasks.push(entry);
      return true;
    });
    return { tasks, totalSize };
  }
}

/** Pages of several partitions as one: merged in order, cut to `pageSize + 1`, totals summed. */
export function mergePages<E extends IndexedTask>(
  pages: readonly PartitionPage<E>[],
  pageSize: number,
): PartitionPage<E> {
  if (pages.length === 1) return pages[0] as PartitionPage<E>;
  const tasks = pages.flatMap((page) => page.tasks).sort(compareKeys);
  let totalSize = 0;
  for (const page of pages) totalSize += page.totalSize;
  return { tasks: tasks.slice(0, pageSize + 1), totalSize };
}
