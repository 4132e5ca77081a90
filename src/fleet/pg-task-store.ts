/**
 * A TaskStore on PostgreSQL (table `a2a_tasks`, see migrations/), for agents
 * whose tasks must outlive a process and be readable from every replica.
 * Saves are version-checked upserts, those of one event-loop turn sent as
 * one statement (task-save-batches.ts); a ListTasks page is one statement, an
 * index range scan from the cursor with the total from `a2a_task_counts`. A
 * row that does not decode is a CorruptRecordError for `get`, and is left
 * out of a listing (logged, the page topped up), so one damaged row never
 * hides the rest of a scope.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { StreamResponse, Task } from "../../gen/a2a_pb.js";
import { isTerminalState } from "../a2a/task-state.js";
import { defaultLogger, type Logger } from "../runtime/logger.js";
import { isStorableText } from "../server/request-ids.js";
import { CorruptRecordError, StoreError, TaskVersionConflictError } from "../server/store-errors.js";
import type { StoredTask, TaskCursor, TaskPage, TaskQuery, TaskStore, TaskWriter } from "../server/task-store.js";
import { fillPage } from "./fill-page.js";
import { type PostgresPool, type Row, run } from "./postgres-pool.js";
import { encodeEvent, taskDigest } from "./task-events.js";
import { taskFromRow, taskRowValues } from "./task-rows.js";
import { type LeaseWrite, type TaskKey, type TaskSave, TaskSaveBatches } from "./task-save-batches.js";
import { DELETE_TASK, GET_TASK, listTasksStatement } from "./task-sql.js";

export interface PgTaskStoreOptions {
  /** A `pg.Pool` (or `createPostgresPool()`), on a database `migrate()` has prepared. */
  readonly pool: PostgresPool;
  /** Where rows left out of a listing are reported. Default: the SDK's logger. */
  readonly logger?: Logger;
  /**
   * Store each save's events (`a2a_task_events`) and notify listeners, for
   * subscribers on other replicas. `PgTaskFleet` makes its store so; a store
   * nobody follows leaves it off (default false).
   */
  readonly recordEvents?: boolean;
}

interface TaskRow extends Row {
  id: string;
  owner: string;
  version: string;
  task: string;
  artifacts: string | null;
  sort_seconds: string;
  sort_nanos: number;
}

export class PgTaskStore implements TaskStore {
  readonly #pool: PostgresPool;
  readonly #logger: Logger;
  readonly #batches: TaskSaveBatches;
  readonly recordsEvents: boolean;

  constructor(options: PgTaskStoreOptions) {
    this.#pool = options.pool;
    this.#logger = options.logger ?? defaultLogger();
    this.recordsEvents = options.recordEvents ?? false;
    this.#batches = new TaskSaveBatches(this.#pool, this.recordsEvents);
  }

  async get(taskId: string, scope: string): Promise<StoredTask | undefined> {
    const row = (await run(this.#pool, GET_TASK, [scope, taskId]))[0] as TaskRow | undefined;
    if (!row) return undefined;
    return { task: taskFromRow(taskId, row.task, row.artifacts), owner: row.owner, version: Number(row.version) };
  }

  async save(task: Task, scope: string, writer: TaskWriter): Promise<void> {
    // The task text is ProtoJSON, which escapes NUL and surrogates; these columns are written as they are.
    const storable =
      isStorableText(task.id) &&
      isStorableText(task.contextId) &&
      isStorableText(scope) &&
      isStorableText(writer.owner);
    if (!storable) {
      throw new StoreError(
        `Task ${JSON.stringify(task.id)} cannot be stored: its id, context id, scope or owner holds NUL or an unpaired surrogate`,
      );
    }
    const expected = writer.version;
    const row = taskRowValues(task);
    // The frames taken now are the ones the task as encoded above already shows.
    const events = this.recordsEvents ? (writer.events?.splice(0) ?? []) : undefined;
    const save: TaskSave = { scope, id: task.id, owner: writer.owner, row, expected };
    let version: number | undefined;
    try {
      version = await this.#batches.save(followable(save, events));
    } catch (error) {
      if (events) writer.events?.unshift(...events);
      throw error;
    }
    if (version === undefined) {
      // Not stored either: the writer's next save carries them (one that adopts another's write drops them).
      if (events) writer.events?.unshift(...events);
      throw new TaskVersionConflictError(task.id, expected);
    }
    writer.version = version;
  }

  /** @internal Whether a save of the task is queued or under way on this replica. */
  saving(taskId: string, scope: string): boolean {
    return this.#batches.saving(taskId, scope);
  }

  /** @internal Takes or releases a run's lease with the next batch of saves (PgTaskFleet's). */
  lease(write: LeaseWrite): Promise<void> {
    return this.#batches.lease(write);
  }

  /** @internal A new task's lease, taken with its first save unless that stores it terminal (task-save-batches.ts). */
  takeWithFirstSave(run: TaskKey, take: () => LeaseWrite): Promise<boolean> {
    return this.#batches.takeWithFirstSave(run, take);
  }

  /** @internal The run ended before any save carried its take. */
  dropFirstSaveTake(run: TaskKey): void {
    this.#batches.dropFirstSaveTake(run);
  }

  /** @internal Resolves once every save and lease write asked for so far was answered. */
  flushed(): Promise<void> {
    return this.#batches.flushed();
  }

  async delete(taskId: string, scope: string): Promise<void> {
    await run(this.#pool, DELETE_TASK, [scope, taskId]);
  }

  async list(scope: string, query: TaskQuery): Promise<TaskPage> {
    let totalSize: number | undefined;
    const page = await fillPage(
      query.pageSize,
      query.after,
      async (after, limit) => {
        const { statement, values } = listTasksStatement(scope, { ...query, after, pageSize: limit - 1 });
        const rows = (await run(this.#pool, statement, values)) as TaskRow[];
        totalSize ??= Number(rows[0]?.total ?? 0);
        return rows.filter((row) => row.id !== null);
      },
      (row) => this.#decode(row, scope),
      cursorOfRow,
    );
    return { tasks: page.items, more: page.more, totalSize: totalSize ?? 0 };
  }

  #decode(row: TaskRow, scope: string): StoredTask | undefined {
    try {
      return { task: taskFromRow(row.id, row.task, row.artifacts), owner: row.owner, version: Number(row.version) };
    } catch (error) {
      if (!(error instanceof CorruptRecordError)) throw error;
      this.#logger.error({ err: error, task_id: row.id, scope }, "stored task cannot be read; left out of ListTasks");
      return undefined;
    }
  }
}

/** The cursor at a row's place: its status time is the negation of its sort key. */
function cursorOfRow(row: TaskRow): TaskCursor {
  const statusTime: Timestamp = {
    $typeName: "google.protobuf.Timestamp",
    seconds: -BigInt(row.sort_seconds),
    nanos: -row.sort_nanos,
  };
  return { statusTime, taskId: row.id };
}

/**
 * The save with what replicas following the task read: its events, and a
 * notification once stored. A task's first save notifies nobody: nobody can
 * follow a task not stored yet. Stored terminal, nobody ever will
 * (SubscribeToTask refuses a task in a terminal state), so its events are not
 * stored either (decision S674).
 */
function followable(save: TaskSave, events: StreamResponse[] | undefined): TaskSave {
  if (!events) return save;
  if (save.expected > 0) return { ...save, events: events.map(encodeEvent), digest: taskDigest(save.id, save.scope) };
  return isTerminalState(save.row[1]) ? save : { ...save, events: events.map(encodeEvent) };
}
