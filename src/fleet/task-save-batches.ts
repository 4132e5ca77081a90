/**
 * Group commit of task saves: the saves a replica asks for in one turn of
 * the event loop go to PostgreSQL together, as one statement (one round
 * trip, one transaction, one commit), and while a batch is under way the
 * next one gathers. Each task in a batch keeps its own version check and its
 * own answer: the version stored, or none (a conflict: nothing of that task
 * written). A failed statement writes nothing of any of them and fails each
 * with the same typed error. In fleet mode the runs' lease takes and
 * releases ride in the same statement.
 *
 * Why: one save per statement made every echo pay a round trip and a commit
 * per save, and every commit that sends a NOTIFY takes PostgreSQL's global
 * notification-queue lock, so the commits of a replica queued on it one
 * after another (at 32 connections half the backends were waiting on it). A
 * batch takes it once. See docs/decisions.md (S670).
 */
import { isTerminalState } from "../a2a/task-state.js";
import { scopedKey } from "../server/task-store.js";
import { type PostgresPool, type Row, run, type Statement } from "./postgres-pool.js";
import { SAVE_TASKS, SAVE_TASKS_WITH_EVENTS } from "./task-sql.js";
import { textArray } from "./text-array.js";

/** One task's save, encoded. */
export interface TaskSave {
  readonly scope: string;
  readonly id: string;
  readonly owner: string;
  /** `taskRowValues(task)`: context id, state, sort seconds, sort nanos, task, artifacts. */
  readonly row: readonly [string, number, string, number, string, string];
  readonly expected: number;
  /** The save's events (ProtoJSON), when the store records events. */
  readonly events?: readonly string[];
  /** The task's digest, to notify its followers once stored (none: nobody can follow it yet). */
  readonly digest?: string | undefined;
}

/** A task, by scope and id. */
export interface TaskKey {
  readonly scope: string;
  readonly taskId: string;
}

/** A run's lease to take (replacing any other run's) or release (only its own). */
export interface LeaseWrite extends TaskKey {
  readonly runId: string;
  /** Set on a take: the replica, the lease's length and the task's digest (its notification). */
  readonly take?: { readonly replicaId: string; readonly leaseMs: number; readonly digest: string };
}

/** A new task's lease, waiting for the task's first save. */
interface FirstSaveTake {
  /** The run's task (the run's own object: see `dropFirstSaveTake`). */
  readonly run: TaskKey;
  /** Makes the take, right before a statement writing it is queued (see `takeWithFirstSave`). */
  readonly take: () => LeaseWrite;
  /** true once taken; false when no take was needed (the first save stored a terminal task, or none came). */
  settle(taken: Promise<boolean>): void;
}

type Write =
  | {
      readonly kind: "save";
      readonly save: TaskSave;
      /** The new task's lease waiting for this save, and its take when this save writes it (a save not ending the task). */
      readonly first?: { readonly waiting: FirstSaveTake; readonly take: LeaseWrite | undefined };
    }
  | { readonly kind: "lease"; readonly lease: LeaseWrite };

interface Queued {
  readonly write: Write;
  /** What may appear once per statement: a task's save, a task's lease take (releases never collide). */
  readonly keys: readonly string[];
  resolve(version: number | undefined): void;
  reject(error: unknown): void;
}

/** At most this many writes in one statement. */
export const MAX_BATCH = 256;
/**
 * Batches under way at once: one, and the next gathers while it commits. Two let the second leave as soon as the
 * first had, so batches were half as large and PostgreSQL paid its per-statement cost twice as often (S670).
 */
export const MAX_IN_FLIGHT = 1;
/** PostgreSQL's deadlock_detected: the whole statement was rolled back, so it is sent again. */
const DEADLOCK = "40P01";
const DEADLOCK_RETRIES = 3;

export class TaskSaveBatches {
  readonly #pool: PostgresPool;
  readonly #recordEvents: boolean;
  #queue: Queued[] = [];
  /** Tasks with a save queued or under way. */
  readonly #saving = new Map<string, number>();
  readonly #firstSaveTakes = new Map<string, FirstSaveTake>();
  #scheduled = false;
  /** The batches under way (at most MAX_IN_FLIGHT) and the keys they hold: a key is in one batch at a time. */
  readonly #sending = new Set<Promise<void>>();
  readonly #sendingKeys = new Set<string>();

  constructor(pool: PostgresPool, recordEvents: boolean) {
    this.#pool = pool;
    this.#recordEvents = recordEvents;
  }

  /**
   * Saves in the next batch; resolves with the version stored, or undefined
   * on a version conflict. The first save of a new task (version 0) carries
   * the lease waiting for it, if any.
   */
  save(save: TaskSave): Promise<number | undefined> {
    const key = scopedKey(save.id, save.scope);
    this.#saving.set(key, (this.#saving.get(key) ?? 0) + 1);
    const waiting = save.expected === 0 ? this.#firstSaveTakes.get(key) : undefined;
    if (!waiting) return this.#enqueue({ kind: "save", save }, [`s${key}`]);
    this.#firstSaveTakes.delete(key);
    const take = isTerminalState(save.row[1]) ? undefined : waiting.take();
    return this.#enqueue({ kind: "save", save, first: { waiting, take } }, [`s${key}`, `l${key}`]);
  }

  /** Takes or releases a lease in the next batch (a store that records events only). */
  async lease(lease: LeaseWrite): Promise<void> {
    if (!this.#recordEvents) throw new Error("leases need a store that records events");
    await this.#enqueue({ kind: "lease", lease }, lease.take ? [`l${scopedKey(lease.taskId, lease.scope)}`] : []);
  }

  /**
   * The lease of a run on a task not stored yet, taken in the statement of
   * the task's first save, or not at all when that save stores a terminal
   * task: nobody can have seen the task running, so no replica needs to
   * learn of the run or fail the task for it. `take` makes the take (the run
   * then follows its task) right before a statement that writes it is
   * queued: before any other replica can see the task, so none of their
   * notifications is missed. Resolves true once taken, false when not needed
   * (see `dropFirstSaveTake`).
   */
  takeWithFirstSave(run: TaskKey, take: () => LeaseWrite): Promise<boolean> {
    if (!this.#recordEvents) throw new Error("leases need a store that records events");
    const key = scopedKey(run.taskId, run.scope);
    // A run superseded before the task's first save never needed its lease.
    this.#firstSaveTakes.get(key)?.settle(Promise.resolve(false));
    return new Promise((resolve) => {
      this.#firstSaveTakes.set(key, { run, take, settle: resolve });
    });
  }

  /** The run (`run`, as given to `takeWithFirstSave`) ended before any save carried its take: none is needed. */
  dropFirstSaveTake(run: TaskKey): void {
    const key = scopedKey(run.taskId, run.scope);
    const waiting = this.#firstSaveTakes.get(key);
    if (waiting?.run !== run) return;
    this.#firstSaveTakes.delete(key);
    waiting.settle(Promise.resolve(false));
  }

  /** Whether a save of the task is queued or under way here (its notification may come before its answer). */
  saving(taskId: string, scope: string): boolean {
    return this.#saving.has(scopedKey(taskId, scope));
  }

  /** Resolves once every write queued so far was sent and answered. */
  async flushed(): Promise<void> {
    while (this.#queue.length > 0 || this.#sending.size > 0) {
      await (this.#sending.size > 0 ? Promise.all(this.#sending) : new Promise((resolve) => setImmediate(resolve)));
    }
  }

  #enqueue(write: Write, keys: readonly string[]): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ write, keys, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#sending.size >= MAX_IN_FLIGHT || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const sending: Promise<void> = this.#send().then((sent) => {
        this.#sending.delete(sending);
        // Nothing sent: every queued write waits for a batch under way, whose end schedules again.
        if (sent) this.#schedule();
      });
      this.#sending.add(sending);
    });
  }

  /** Sends the queued writes that fit in one batch; false when none could go yet. */
  async #send(): Promise<boolean> {
    const batch: Queued[] = [];
    const later: Queued[] = [];
    const keys = this.#sendingKeys;
    for (const queued of this.#queue) {
      if (batch.length < MAX_BATCH && !holdsAny(keys, queued.keys)) {
        for (const key of queued.keys) keys.add(key);
        batch.push(queued);
      } else later.push(queued);
    }
    this.#queue = later;
    if (batch.length === 0) return false;
    try {
      const versions = await this.#store(batch);
      for (const [i, queued] of batch.entries()) {
        queued.resolve(versions[i]);
        const { write } = queued;
        if (write.kind !== "save" || !write.first) continue;
        const { waiting, take } = write.first;
        if (take) waiting.settle(Promise.resolve(true));
        // Not taken for a terminal save; one that conflicted stored nothing (another writer made the task): take it now.
        else
          waiting.settle(
            versions[i] === undefined ? this.lease(waiting.take()).then(() => true) : Promise.resolve(false),
          );
      }
    } catch (error) {
      for (const queued of batch) {
        queued.reject(error);
        const { write } = queued;
        // Nothing was stored: the task's next first save carries the take (unless a newer run's take waits).
        if (write.kind !== "save" || !write.first) continue;
        const key = scopedKey(write.save.id, write.save.scope);
        if (this.#firstSaveTakes.has(key)) write.first.waiting.settle(Promise.resolve(false));
        else this.#firstSaveTakes.set(key, write.first.waiting);
      }
    } finally {
      for (const queued of batch) for (const key of queued.keys) keys.delete(key);
      for (const { write } of batch) {
        if (write.kind !== "save") continue;
        const key = scopedKey(write.save.id, write.save.scope);
        const left = (this.#saving.get(key) ?? 1) - 1;
        if (left === 0) this.#saving.delete(key);
        else this.#saving.set(key, left);
      }
    }
    return true;
  }

  /** One statement for the batch; the version each save stored (undefined: conflict, or not a save). */
  async #store(batch: readonly Queued[]): Promise<(number | undefined)[]> {
    if (batch.every(({ write }) => write.kind === "save" && isPlain(write))) return this.#storePlain(batch);
    const saves: object[] = [];
    const events: object[] = [];
    const takes: object[] = [];
    const releases: object[] = [];
    /** The batch position of each save, by its place among the saves. */
    const positions: number[] = [];
    for (const [i, { write }] of batch.entries()) {
      if (write.kind === "lease") {
        const { scope, taskId: task_id, runId: run_id, take } = write.lease;
        if (take) {
          takes.push({
            scope,
            task_id,
            replica_id: take.replicaId,
            run_id,
            lease_ms: take.leaseMs,
            digest: take.digest,
          });
        } else releases.push({ scope, task_id, run_id });
        continue;
      }
      const { scope, id, owner, row, expected, digest } = write.save;
      const [context_id, state, sort_seconds, sort_nanos, task, artifacts] = row;
      const lease = write.first?.take;
      if (lease?.take) {
        // A new task: nobody follows it yet, so its take notifies nobody (no digest).
        takes.push({
          scope,
          task_id: id,
          replica_id: lease.take.replicaId,
          run_id: lease.runId,
          lease_ms: lease.take.leaseMs,
        });
      }
      const n = positions.push(i);
      saves.push({
        n,
        scope,
        id,
        owner,
        context_id,
        state,
        sort_seconds,
        sort_nanos,
        task,
        artifacts,
        expected,
        digest,
      });
      for (const [ordinal, event] of (write.save.events ?? []).entries())
        events.push({ n, ordinal: ordinal + 1, event });
    }
    const values = [saves, events, takes, releases].map((list) => JSON.stringify(list));
    const rows = await this.#run(SAVE_TASKS_WITH_EVENTS, values);
    const versions: (number | undefined)[] = new Array(batch.length);
    for (const row of rows) {
      if (row.n !== null) versions[positions[Number(row.n) - 1] as number] = Number(row.version);
    }
    return versions;
  }

  /** A batch of saves alone (no events, notification or lease): SAVE_TASKS, one array per column. */
  async #storePlain(batch: readonly Queued[]): Promise<(number | undefined)[]> {
    const n = batch.length;
    const column = () => new Array<string>(n);
    const [scopes, ids, owners, contexts, states, seconds, nanos, tasks, artifacts, versions] = [
      column(),
      column(),
      column(),
      column(),
      column(),
      column(),
      column(),
      column(),
      column(),
      column(),
    ];
    const positions = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const { scope, id, owner, row, expected } = ((batch[i] as Queued).write as SaveWrite).save;
      positions.set(scopedKey(id, scope), i);
      scopes[i] = scope;
      ids[i] = id;
      owners[i] = owner;
      contexts[i] = row[0];
      states[i] = String(row[1]);
      seconds[i] = row[2];
      nanos[i] = String(row[3]);
      tasks[i] = row[4];
      artifacts[i] = row[5];
      versions[i] = String(expected + 1);
    }
    const columns = [scopes, ids, owners, contexts, states, seconds, nanos, tasks, artifacts, versions];
    const rows = await this.#run(SAVE_TASKS, columns.map(textArray));
    const stored: (number | undefined)[] = new Array(n);
    for (const row of rows) {
      stored[positions.get(scopedKey(row.id as string, row.scope as string)) as number] = Number(row.version);
    }
    return stored;
  }

  /** Runs a batch's statement, again when PostgreSQL rolled it back to break a deadlock. */
  async #run(statement: Statement, values: unknown[]): Promise<Row[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run(this.#pool, statement, values);
      } catch (error) {
        const code = (error as { cause?: { code?: unknown } }).cause?.code;
        if (code !== DEADLOCK || attempt > DEADLOCK_RETRIES) throw error;
      }
    }
  }
}

type SaveWrite = Extract<Write, { kind: "save" }>;

function holdsAny(held: ReadonlySet<string>, keys: readonly string[]): boolean {
  for (const key of keys) if (held.has(key)) return true;
  return false;
}

/**
 * A save that stores the task alone: no events to record, nobody to notify,
 * no lease to take (a new task's first save takes none when it ends the task).
 */
function isPlain({ save, first }: SaveWrite): boolean {
  return save.digest === undefined && !save.events?.length && !first?.take;
}
