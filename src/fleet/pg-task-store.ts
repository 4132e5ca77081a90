/**
 * A TaskStore on PostgreSQL (table `a2a_tasks`, see migrations/), for agents
 * whose tasks must outlive a process and be readable from every replica.
 * Saves are version-checked upserts; a ListTasks page is one statement, an
 * index range scan from the cursor with the total from `a2a_task_counts`. A
 * row that does not decode is a CorruptRecordError for `get`, and is left
 * out of a listing (logged, the page topped up), so one damaged row never
 * hides the rest of a scope.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { Task } from "../../gen/a2a_pb.js";
import { defaultLogger, type Logger } from "../runtime/logger.js";
import { CorruptRecordError, TaskVersionConflictError } from "../server/store-errors.js";
import type { StoredTask, TaskCursor, TaskPage, TaskQuery, TaskStore, TaskWriter } from "../server/task-store.js";
import { fillPage } from "./fill-page.js";
import { type PostgresPool, type Row, run } from "./postgres-pool.js";
import { encodeEvent, taskDigest } from "./task-events.js";
import { taskFromRow, taskRowValues } from "./task-rows.js";
import { DELETE_TASK, GET_TASK, listTasksStatement, SAVE_TASK, SAVE_TASK_WITH_EVENTS } from "./task-sql.js";

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
  readonly recordsEvents: boolean;

  constructor(options: PgTaskStoreOptions) {
    this.#pool = options.pool;
    this.#logger = options.logger ?? defaultLogger();
    this.recordsEvents = options.recordEvents ?? false;
  }

  async get(taskId: string, scope: string): Promise<StoredTask | undefined> {
    const row = (await run(this.#pool, GET_TASK, [scope, taskId]))[0] as TaskRow | undefined;
    if (!row) return undefined;
    return { task: taskFromRow(taskId, row.task, row.artifacts), owner: row.owner, version: Number(row.version) };
  }

  async save(task: Task, scope: string, writer: TaskWriter): Promise<void> {
    const expected = writer.version;
    const values: unknown[] = [scope, task.id, writer.owner, ...taskRowValues(task), expected];
    if (!this.recordsEvents) {
      const row = (await run(this.#pool, SAVE_TASK, values))[0];
      if (!row) throw new TaskVersionConflictError(task.id, expected);
      writer.version = Number(row.version);
      return;
    }
    // The frames taken now are the ones the task as encoded above already shows.
    const events = writer.events?.splice(0) ?? [];
    values.push(events.map(encodeEvent), taskDigest(task.id, scope));
    let row: Row | undefined;
    try {
      row = (await run(this.#pool, SAVE_TASK_WITH_EVENTS, values))[0];
    } catch (error) {
      writer.events?.unshift(...events);
      throw error;
    }
    if (!row) {
      // Not stored either: the writer's next save carries them (one that adopts another's write drops them).
      writer.events?.unshift(...events);
      throw new TaskVersionConflictError(task.id, expected);
    }
    writer.version = Number(row.version);
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
