/**
 * Where tasks live between requests. The harness writes every change through
 * `save` and reads a task back for GetTask, ListTasks, CancelTask,
 * SubscribeToTask and follow-up messages. Tasks are partitioned by a scope
 * string (the tenant the harness derives for a request), so one tenant never
 * reads another's tasks.
 *
 * The default store is in-process and LRU-capped; supply your own for tasks
 * that must outlive the process. Filtering, ordering and paging for
 * ListTasks are done by the harness over `list`.
 */
import type { Task } from "../../gen/a2a_pb.js";
import { LruMap } from "./lru-map.js";

export interface TaskStore {
  /**
   * True when `save` has stored the task by the time it returns (an
   * in-process store): the harness then skips ordering saves through
   * promise chains, which matters at tens of thousands of writes a second.
   */
  readonly savesSynchronously?: boolean;
  get(taskId: string, scope: string): Promise<Task | undefined>;
  /** Inserts or replaces the task with this id in this scope. */
  save(task: Task, scope: string): Promise<void>;
  /** Removes the task; a missing id is not an error. */
  delete(taskId: string, scope: string): Promise<void>;
  /** Every task of the scope, in any order. */
  list(scope: string): Promise<Task[]>;
}

/** The in-memory store's default cap. See docs/decisions.md. */
export const DEFAULT_MAX_TASKS = 10_000;

/**
 * LRU-by-write: every `save` makes the task the most recent; past `maxTasks`
 * the least recently saved task is evicted. `get` does not refresh, so polling
 * does not keep a task alive; a task whose execution is still running is
 * re-saved by its next write (and is readable meanwhile from the harness's
 * live state), so eviction never loses a running task. No TTL, no timer.
 *
 * The store keeps the objects it is given (no copies): the harness hands out
 * snapshots, never these objects.
 */
export class InMemoryTaskStore implements TaskStore {
  readonly savesSynchronously = true;
  readonly maxTasks: number;
  /** Tasks by (scope, task id). */
  readonly #tasks: LruMap<Task>;

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

  async get(taskId: string, scope: string): Promise<Task | undefined> {
    return this.#tasks.get(scope, taskId);
  }

  /** Stored by the time it returns (an already settled promise: the harness saves several times per request). */
  save(task: Task, scope: string): Promise<void> {
    this.#tasks.set(scope, task.id, task);
    return SAVED;
  }

  async delete(taskId: string, scope: string): Promise<void> {
    this.#tasks.delete(scope, taskId);
  }

  async list(scope: string): Promise<Task[]> {
    return [...this.#tasks.values(scope)];
  }
}

const SAVED: Promise<void> = Promise.resolve();

/** Length-prefixed, so no (scope, id) pair can spell another pair's key. */
export function scopedKey(taskId: string, scope: string): string {
  return `${scope.length}:${scope}${taskId}`;
}
