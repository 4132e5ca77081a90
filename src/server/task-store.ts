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
 * The default store is in-process, bounded in tasks and estimated bytes (in
 * all and per scope) and indexed for ListTasks; `@novaos/client-sdk/fleet`
 * has PostgreSQL stores for tasks that outlive a process and span replicas.
 * A store of your own is checked by the shared suite in
 * test/stores/task-store-suite.ts.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { type StreamResponse, type Task, TaskState } from "../../gen/a2a_pb.js";
import { type KeptTask, keepTask, keptTaskOf } from "./kept-task.js";
import { type LruEntry, LruMap } from "./lru-map.js";
import { TaskVersionConflictError } from "./store-errors.js";
import { taskBytes } from "./task-bytes.js";
import { type IndexedTask, mergePages, setIndexFields, TaskPartition } from "./task-index.js";

/** A task as stored: the task, whose it is, and the version the last save stored. */
export interface StoredTask {
  readonly task: Task;
  /** The caller identity that created the task ("" while callers are not authenticated). */
  readonly owner: string;
  /** 1 after the first save, one more after each save since. */
  readonly version: number;
  /** The store's estimate of the task's size (`task-bytes.ts`), when it keeps one. */
  readonly bytes?: number;
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
  /**
   * The writer's estimate of the task's size (`task-bytes.ts`), kept up to
   * date as it changes the task; a store that budgets bytes reads it instead
   * of walking the task on every save, and walks it once when it is absent.
   */
  bytes?: number | undefined;
  /**
   * The frames published since the writer's last save, kept only for a store
   * that `recordsEvents`: it stores them with the task in the same write, so
   * other replicas stream them in order. The store takes them on a save that
   * succeeds and leaves them for the next one when it fails or conflicts.
   */
  events?: StreamResponse[] | undefined;
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
  /**
   * True when the store records each save's events with it (`TaskWriter.events`)
   * for subscribers on other replicas (the fleet's PostgreSQL store): the
   * harness then builds every frame, watched here or not.
   */
  readonly recordsEvents?: boolean;
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

/** The in-memory store's default cap on tasks. See docs/decisions.md (S4). */
export const DEFAULT_MAX_TASKS = 10_000;
/** The in-memory store's default budget of estimated task bytes (`task-bytes.ts`). See docs/decisions.md (S451). */
export const DEFAULT_MAX_TASK_BYTES = 64 * 1024 * 1024;

export interface InMemoryTaskStoreOptions {
  /** Tasks held at most, all scopes together (default 10,000). */
  maxTasks?: number;
  /** Estimated bytes held at most, all scopes together (default 64 MiB). */
  maxBytes?: number;
  /** Tasks one scope may hold (default `maxTasks`). */
  maxTasksPerScope?: number;
  /** Estimated bytes one scope may hold (default `maxBytes`). */
  maxBytesPerScope?: number;
}

/** The in-memory store's record of a task: the task as kept (`kept-task.ts`), whose it is, and its place in the indexes. */
class TaskEntry implements IndexedTask, LruEntry<TaskEntry> {
  older: TaskEntry | undefined = undefined;
  newer: TaskEntry | undefined = undefined;
  readonly taskId: string;
  contextId = "";
  state = TaskState.UNSPECIFIED;
  seconds = 0;
  nanos = 0;
  /** The partition whose indexes hold the entry; undefined while its scope has none. */
  partition: TaskPartition<TaskEntry> | undefined = undefined;
  constructor(
    readonly group: string,
    readonly key: string,
    public kept: KeptTask,
    readonly owner: string,
    public version: number,
    public bytes: number,
  ) {
    this.taskId = key;
  }
}

/**
 * LRU-by-write within a scope: every `save` makes the task its scope's most
 * recent; past a bound the least recently saved task of the scope over its
 * quota, or else of the scope with the largest share of the store, is
 * evicted (`lru-map.ts`). `get` does not refresh, so polling does not keep a
 * task alive; a task whose execution is still running is re-saved by its
 * next write (and is readable meanwhile from the harness's live state), so
 * eviction never loses a running task. No TTL, no timer.
 *
 * The store keeps a task that may still run as the object it is given (no
 * copy), and a settled one as its text (`kept-task.ts`, decision S717): a
 * read hands out a record of its own, whose task is that object or one
 * decoded afresh. The harness hands out snapshots, never these objects.
 * `list` reads pages from indexes kept in the ListTasks order
 * (`task-index.ts`), which a scope has from its first `list` on: that call
 * builds them from the index fields every save copies into its record (a
 * walk and a sort), and from then on a save that changes a task's status
 * time, state or context moves it in them. A scope never listed costs its
 * saves no index (decision S450).
 */
export class InMemoryTaskStore implements TaskStore {
  readonly savesSynchronously = true;
  readonly evicts = true;
  readonly maxTasks: number;
  readonly maxBytes: number;
  /** Tasks by (scope, task id), in write order per scope. */
  readonly #tasks: LruMap<TaskEntry>;
  /** Indexed tasks by scope, then owner: the scopes listed since they last held no task. */
  readonly #partitions = new Map<string, Map<string, TaskPartition<TaskEntry>>>();
  /** The partition the last new task went to. */
  #recent: { scope: string; owner: string; partition: TaskPartition<TaskEntry> } | undefined = undefined;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.maxTasks = positiveInteger("maxTasks", options.maxTasks ?? DEFAULT_MAX_TASKS);
    this.maxBytes = positiveInteger("maxBytes", options.maxBytes ?? DEFAULT_MAX_TASK_BYTES);
    this.#tasks = new LruMap<TaskEntry>(
      {
        maxEntries: this.maxTasks,
        maxBytes: this.maxBytes,
        maxEntriesPerGroup: positiveInteger("maxTasksPerScope", options.maxTasksPerScope ?? this.maxTasks),
        maxBytesPerGroup: positiveInteger("maxBytesPerScope", options.maxBytesPerScope ?? this.maxBytes),
      },
      (evicted) => this.#unindex(evicted),
    );
  }

  /** Number of stored tasks, all scopes together. */
  get size(): number {
    return this.#tasks.size;
  }

  /** Estimated bytes of the stored tasks, all scopes together. */
  get bytes(): number {
    return this.#tasks.bytes;
  }

  async get(taskId: string, scope: string): Promise<StoredTask | undefined> {
    const entry = this.#tasks.get(scope, taskId);
    return entry && storedTask(entry);
  }

  /** Stored by the time it returns (an already settled promise: the harness saves several times per request). */
  save(task: Task, scope: string, writer: TaskWriter): Promise<void> {
    const bytes = writer.bytes ?? taskBytes(task);
    // A writer at version 0 creates the task: one lookup, and any task already there is a conflict.
    const stored = writer.version === 0 ? undefined : this.#tasks.touch(scope, task.id);
    if (stored === undefined) {
      const entry = new TaskEntry(scope, task.id, keepTask(task, bytes), writer.owner, writer.version + 1, bytes);
      if (this.#tasks.add(entry)) return Promise.reject(new TaskVersionConflictError(task.id, writer.version));
      setIndexFields(entry, task);
      this.#index(entry);
    } else if (stored.version === writer.version) {
      if (stored.partition) stored.partition.move(stored, task);
      else setIndexFields(stored, task);
      stored.kept = keepTask(task, bytes);
      stored.version++;
      this.#tasks.resize(stored, bytes);
    } else {
      return Promise.reject(new TaskVersionConflictError(task.id, writer.version));
    }
    writer.version++;
    return SAVED;
  }

  async delete(taskId: string, scope: string): Promise<void> {
    const stored = this.#tasks.get(scope, taskId);
    if (!stored) return;
    this.#tasks.delete(scope, taskId);
    this.#unindex(stored);
  }

  async list(scope: string, query: TaskQuery): Promise<TaskPage> {
    const owners = this.#partitions.get(scope) ?? this.#build(scope);
    const partitions =
      query.owner === undefined
        ? [...(owners?.values() ?? [])]
        : [owners?.get(query.owner)].filter((p) => p !== undefined);
    if (partitions.length === 0) return { tasks: [], more: false, totalSize: 0 };
    const page = mergePages(
      partitions.map((partition) => partition.page(query)),
      query.pageSize,
    );
    return {
      tasks: page.tasks.slice(0, query.pageSize).map(storedTask),
      more: page.tasks.length > query.pageSize,
      totalSize: page.totalSize,
    };
  }

  /** Indexes a new entry when its scope has indexes. */
  #index(entry: TaskEntry): void {
    const partition = this.#partition(entry.group, entry.owner);
    if (partition === undefined) return;
    partition.add(entry);
    entry.partition = partition;
  }

  /**
   * The scope's indexes, built from the index fields of the tasks it holds by
   * its first listing (one walk, then one sort and a bottom-up build per
   * owner); none for a scope without tasks.
   */
  #build(scope: string): Map<string, TaskPartition<TaskEntry>> | undefined {
    const byOwner = new Map<string, TaskEntry[]>();
    for (let entry = this.#tasks.oldest(scope); entry; entry = entry.newer) {
      const entries = byOwner.get(entry.owner);
      if (entries) entries.push(entry);
      else byOwner.set(entry.owner, [entry]);
    }
    if (byOwner.size === 0) return undefined;
    const owners = new Map<string, TaskPartition<TaskEntry>>();
    for (const [owner, entries] of byOwner) {
      const partition = new TaskPartition<TaskEntry>();
      for (const entry of entries) entry.partition = partition;
      partition.fill(entries);
      owners.set(owner, partition);
    }
    this.#partitions.set(scope, owners);
    return owners;
  }

  /**
   * The indexed scope's partition of the owner's tasks, made when new;
   * undefined when the scope has no indexes. The last one is at hand (most
   * agents have one).
   */
  #partition(scope: string, owner: string): TaskPartition<TaskEntry> | undefined {
    const recent = this.#recent;
    if (recent !== undefined && recent.scope === scope && recent.owner === owner) return recent.partition;
    const owners = this.#partitions.get(scope);
    if (!owners) return undefined;
    let partition = owners.get(owner);
    if (!partition) {
      partition = new TaskPartition<TaskEntry>();
      owners.set(owner, partition);
    }
    this.#recent = { scope, owner, partition };
    return partition;
  }

  #unindex(entry: TaskEntry): void {
    const partition = entry.partition;
    if (!partition) return;
    partition.remove(entry);
    entry.partition = undefined;
    if (partition.size > 0) return;
    if (this.#recent?.partition === partition) this.#recent = undefined;
    const owners = this.#partitions.get(entry.group);
    owners?.delete(entry.owner);
    if (owners?.size === 0) this.#partitions.delete(entry.group);
  }
}

/**
 * What a read hands out for an entry: a record of its own, whose version a later save does not change, holding the
 * object of a task that may still run or a settled task decoded afresh.
 */
function storedTask(entry: TaskEntry): StoredTask {
  return { task: keptTaskOf(entry.kept), owner: entry.owner, version: entry.version, bytes: entry.bytes };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

const SAVED: Promise<void> = Promise.resolve();

/** Length-prefixed, so no (scope, id) pair can spell another pair's key. */
export function scopedKey(taskId: string, scope: string): string {
  return `${scope.length}:${scope}${taskId}`;
}
