/**
 * Where tasks live between requests. The harness writes every change through
 * `save` and reads a task back for GetTask, ListTasks, CancelTask,
 * SubscribeToTask and follow-up messages.
 *
 * - **Scope**: tasks are partitioned by a scope string (the tenant the harness
 *   derives for a request); one scope never reads another's tasks. A task is
 *   keyed by (scope, task id).
 * - **Owner**: every task records the caller that created it. ListTasks asks
 *   for one owner's tasks; `get` returns the owner with the task and the
 *   harness answers a foreign task exactly as an unknown one.
 * - **Version**: every save stores the next version of the task and states
 *   the version it replaces, so two writers of one task (two replicas, a
 *   cancel racing a completion) never overwrite each other silently.
 * - **ListTasks** is answered by the store (`list`): filters, one total
 *   order, keyset pages and the total, so a store with an index or a
 *   database serves a page without reading the whole partition.
 *
 * The default store is in-process and LRU-capped; `@novaos/client-sdk/fleet`
 * has PostgreSQL stores for tasks that outlive a process and span replicas.
 * A store of your own is checked by the shared suite in
 * test/stores/task-store-suite.ts.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { Task, TaskState } from "../../gen/a2a_pb.js";
import { type LruEntry, LruMap } from "./lru-map.js";
import { TaskVersionConflictError } from "./store-errors.js";
import { compareTasks, matchesQuery, sortsAfter } from "./task-order.js";

/** A task as stored: the task, whose it is, and the version the last save stored. */
export interface StoredTask {
  readonly task: Task;
  /** The caller identity that created the task ("" while callers are not authenticated). */
  readonly owner: string;
  /** 1 after the first save, one more after each save since. */
  readonly version: number;
}

/**
 * A writer's hold on one task: the owner it writes as (recorded when the save
 * creates the task; a stored task's owner never changes) and the version of
 * the task it last read or wrote, 0 for a task it creates. A successful save
 * advances `version` to the version it stored, so the writer's next save
 * expects it; a failed one leaves it.
 */
export interface TaskWriter {
  readonly owner: string;
  version: number;
}

/** Where a page starts: just after the task at this place in the order. */
export interface TaskCursor {
  readonly statusTime: Timestamp;
  readonly taskId: string;
}

/** One ListTasks page asked of a store; tasks come in the order of `task-order.ts`. */
export interface TaskQuery {
  /** Only this owner's tasks; undefined for every owner of the scope (an authorization rule that widens access). */
  readonly owner: string | undefined;
  /** Only tasks of this context; "" for any. */
  readonly contextId: string;
  /** Only tasks in this state; UNSPECIFIED for any. */
  readonly status: TaskState;
  /** Only tasks whose status timestamp is at or after this instant (inclusive). */
  readonly statusTimestampAfter: Timestamp | undefined;
  /** Only tasks after this place (exclusive): the last task of the previous page. */
  readonly after: TaskCursor | undefined;
  /** At most this many tasks (1 to 100). */
  readonly pageSize: number;
  /** Whether the caller shows artifacts. When false a store may return tasks without them (and save the reading). */
  readonly includeArtifacts: boolean;
}

export interface TaskPage {
  /** Up to `pageSize` matching tasks after the cursor, in order. */
  readonly tasks: readonly StoredTask[];
  /** Whether matching tasks follow the last one. */
  readonly more: boolean;
  /** Every task that passes the owner and filters, before the cursor and paging: exact, at the time of the call. */
  readonly totalSize: number;
}

export interface TaskStore {
  /**
   * True when `save` has stored the task by the time it returns (an
   * in-process store): the harness then skips ordering saves through
   * promise chains, which matters at tens of thousands of writes a second.
   */
  readonly savesSynchronously?: boolean;
  /**
   * True when the store may drop tasks on its own (the in-memory store evicts
   * past its cap). ListTasks then also lists the tasks live on this replica
   * that the store no longer holds, so a running task never disappears.
   */
  readonly evicts?: boolean;
  get(taskId: string, scope: string): Promise<StoredTask | undefined>;
  /**
   * Stores the task as version `writer.version + 1` when the stored version is
   * `writer.version` or when the store holds no such task (a new task, or one
   * it evicted or deleted); rejects with `TaskVersionConflictError`, writing
   * nothing, otherwise. The store reads `writer` when called and advances its
   * version on success.
   */
  save(task: Task, scope: string, writer: TaskWriter): Promise<void>;
  /** Removes the task; a missing id is not an error. */
  delete(taskId: string, scope: string): Promise<void>;
  /** One page of the scope's tasks for the query. */
  list(scope: string, query: TaskQuery): Promise<TaskPage>;
}

/** The in-memory store's default cap. See docs/decisions.md. */
export const DEFAULT_MAX_TASKS = 10_000;

/** The in-memory store's record of a task, handed out as its StoredTask and changed in place by later saves. */
class TaskEntry implements StoredTask, LruEntry<TaskEntry> {
  older: TaskEntry | undefined = undefined;
  newer: TaskEntry | undefined = undefined;
  constructor(
    readonly group: string,
    readonly key: string,
    public task: Task,
    readonly owner: string,
    public version: number,
  ) {}
}

/**
 * LRU-by-write: every `save` makes the task the most recent; past `maxTasks`
 * the least recently saved task is evicted. `get` does not refresh, so polling
 * does not keep a task alive; a task whose execution is still running is
 * re-saved by its next write (and is readable meanwhile from the harness's
 * live state), so eviction never loses a running task. No TTL, no timer.
 *
 * The store keeps the objects it is given (no copies), and hands out its own
 * records, which later saves change: the harness hands out snapshots, never
 * these objects. `list` filters and sorts the scope's tasks on every call.
 */
export class InMemoryTaskStore implements TaskStore {
  readonly savesSynchronously = true;
  readonly evicts = true;
  readonly maxTasks: number;
  /** Tasks by (scope, task id). */
  readonly #tasks: LruMap<TaskEntry>;

  constructor(options: { maxTasks?: number } = {}) {
    const maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS;
    if (!Number.isInteger(maxTasks) || maxTasks < 1) throw new RangeError("maxTasks must be a positive integer");
    this.maxTasks = maxTasks;
    this.#tasks = new LruMap(maxTasks);
  }

  /** Number of stored tasks, all scopes together. */
  get size(): number {
    return this.#tasks.size;
  }

  async get(taskId: string, scope: string): Promise<StoredTask | undefined> {
    return this.#tasks.get(scope, taskId);
  }

  /** Stored by the time it returns (an already settled promise: the harness saves several times per request). */
  save(task: Task, scope: string, writer: TaskWriter): Promise<void> {
    // A writer at version 0 creates the task: one lookup, and any task already there is a conflict.
    const stored =
      writer.version === 0
        ? this.#tasks.add(new TaskEntry(scope, task.id, task, writer.owner, 1))
        : this.#tasks.touch(scope, task.id);
    if (stored === undefined) {
      if (writer.version > 0) this.#tasks.add(new TaskEntry(scope, task.id, task, writer.owner, writer.version + 1));
    } else if (stored.version === writer.version) {
      stored.task = task;
      stored.version++;
    } else {
      return Promise.reject(new TaskVersionConflictError(task.id, writer.version));
    }
    writer.version++;
    return SAVED;
  }

  async delete(taskId: string, scope: string): Promise<void> {
    this.#tasks.delete(scope, taskId);
  }

  async list(scope: string, query: TaskQuery): Promise<TaskPage> {
    const after = query.after;
    const rest: TaskEntry[] = [];
    let totalSize = 0;
    for (const stored of this.#tasks.values(scope)) {
      if (!matchesQuery(stored, query)) continue;
      totalSize++;
      if (!after || sortsAfter(stored.task, after)) rest.push(stored);
    }
    rest.sort((a, b) => compareTasks(a.task, b.task));
    return { tasks: rest.slice(0, query.pageSize), more: rest.length > query.pageSize, totalSize };
  }
}

const SAVED: Promise<void> = Promise.resolve();

/** Length-prefixed, so no (scope, id) pair can spell another pair's key. */
export function scopedKey(taskId: string, scope: string): string {
  return `${scope.length}:${scope}${taskId}`;
}
