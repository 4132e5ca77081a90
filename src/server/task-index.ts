/**
 * The in-memory task store's indexes for ListTasks: per partition (one scope
 * and one owner) every task in the ListTasks order, and the same per context
 * and per state, each an `OrderIndex` kept up to date by every save that
 * moves a task (O(log n) each). A scope's partitions exist from its first
 * page on (the store builds them then from the scope's tasks: a sort, once),
 * and a partition's per-context and per-state indexes from the first page that
 * filters by a context or a state (built then, O(n) once). A page is read from
 * the one index that serves the query:
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
import type { TaskQuery } from "./task-store.js";

/** A stored task's record with what it is indexed by, as of its last indexing (not as the task reads now). */
export interface IndexedTask extends OrderKey {
  readonly taskId: string;
  contextId: string;
  state: TaskState;
  seconds: number;
  nanos: number;
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

/**
 * The tasks of one scope and owner, indexed. The partition's own index is
 * kept from the scope's first page (which fills it, `fill`); the per-context
 * and per-state indexes only from the first page that filters by a context
 * or by a state, which builds them with one walk of the partition's index
 * (O(n), appends in order): a save into a partition nobody lists by filter
 * then changes one tree, not four trees and a map.
 */
export class TaskPartition<E extends IndexedTask> {
  /** Every task of the partition in the ListTasks order. */
  #all = new OrderIndex<E>();
  /**
   * By context, once a page asked for one: the one task of a context that has
   * one (most have one: a new context per conversation), an index once it has
   * more. A context index per task cost three allocations and two tree
   * operations per new task.
   */
  #contexts: Map<string, E | OrderIndex<E>> | undefined = undefined;
  /** By state, once a page asked for one. */
  #states: Map<TaskState, OrderIndex<E>> | undefined = undefined;

  get size(): number {
    return this.#all.size;
  }

  /**
   * Fills an empty partition with these tasks, their index fields set, in one
   * sort and a bottom-up build (O(n log n), and O(n) for tasks already nearly
   * in order, as a scope's are when walked by write).
   */
  fill(tasks: E[]): void {
    this.#all = OrderIndex.fromSorted(tasks.sort(compareKeys));
  }

  add(entry: E): void {
    this.#all.insert(entry);
    if (this.#contexts) addToContext(this.#contexts, entry);
    if (this.#states) stateIndex(this.#states, entry.state).insert(entry);
  }

  remove(entry: E): void {
    this.#all.delete(entry);
    if (this.#contexts) removeFromContext(this.#contexts, entry);
    this.#states?.get(entry.state)?.delete(entry);
  }

  /**
   * Re-indexes an entry for its task's status time, state and context as they
   * read now, in the indexes where its place changed: a state change within
   * the same instant (a quick skill) leaves the partition's index alone, and a
   * context's only task has no place to change.
   */
  move(entry: E, task: Task): void {
    const status = task.status;
    const time = status?.timestamp;
    const timeMoved = Number(time?.seconds ?? 0n) !== entry.seconds || ((time?.nanos ?? 0) | 0) !== entry.nanos;
    const stateChanged = (status?.state ?? TaskState.UNSPECIFIED) !== entry.state;
    const contextChanged = task.contextId !== entry.contextId;
    if (!(timeMoved || stateChanged || contextChanged)) return;
    const contexts = this.#contexts;
    const states = this.#states;
    const stateMoved = states !== undefined && (timeMoved || stateChanged);
    const contextMoved =
      contexts !== undefined && (contextChanged || (timeMoved && contexts.get(entry.contextId) !== entry));
    if (timeMoved) this.#all.delete(entry);
    if (contextMoved) removeFromContext(contexts, entry);
    if (stateMoved) states.get(entry.state)?.delete(entry);
    setIndexFields(entry, task);
    if (timeMoved) this.#all.insert(entry);
    if (contextMoved) addToContext(contexts, entry);
    if (stateMoved) stateIndex(states, entry.state).insert(entry);
  }

  /** The contexts' indexes, built from the partition's on first use. */
  #contextsBuilt(): Map<string, E | OrderIndex<E>> {
    this.#contexts ??= indexEach(this.#all, new Map(), addToContext);
    return this.#contexts;
  }

  /** The states' indexes, built from the partition's on first use. */
  #statesBuilt(): Map<TaskState, OrderIndex<E>> {
    this.#states ??= indexEach(this.#all, new Map(), (states, entry) => stateIndex(states, entry.state).insert(entry));
    return this.#states;
  }

  #contextIndex(contextId: string): OrderIndex<E> | undefined {
    const context = this.#contextsBuilt().get(contextId);
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
        ? this.#statesBuilt().get(query.status)
        : this.#all;
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

/** `into` with every entry of `all` added, in order (one walk: the first build of a lazy index). */
function indexEach<E extends IndexedTask, M>(all: OrderIndex<E>, into: M, add: (into: M, entry: E) => void): M {
  all.walk(0, (entry) => {
    add(into, entry);
    return true;
  });
  return into;
}

/** A state's index; kept when it empties (there are few states, and a task passes through WORKING each run). */
function stateIndex<E extends IndexedTask>(states: Map<TaskState, OrderIndex<E>>, state: TaskState): OrderIndex<E> {
  let index = states.get(state);
  if (!index) {
    index = new OrderIndex<E>();
    states.set(state, index);
  }
  return index;
}

function addToContext<E extends IndexedTask>(contexts: Map<string, E | OrderIndex<E>>, entry: E): void {
  const context = contexts.get(entry.contextId);
  if (context === undefined) contexts.set(entry.contextId, entry);
  else if (context instanceof OrderIndex) context.insert(entry);
  else {
    const index = new OrderIndex<E>();
    index.insert(context);
    index.insert(entry);
    contexts.set(entry.contextId, index);
  }
}

function removeFromContext<E extends IndexedTask>(contexts: Map<string, E | OrderIndex<E>>, entry: E): void {
  const context = contexts.get(entry.contextId);
  if (context === entry) contexts.delete(entry.contextId);
  else if (context instanceof OrderIndex) {
    context.delete(entry);
    if (context.size === 1) contexts.set(entry.contextId, context.slice(0, 1)[0] as E);
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
