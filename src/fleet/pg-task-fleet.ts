/**
 * Tasks that span replicas, on PostgreSQL: the TaskCoordinator of an agent
 * run as several processes on one database (docs/fleet.md).
 *
 * - Every save of a run stores its events and notifies (task-events.ts), so
 *   SubscribeToTask on any replica follows the task (task-subscription.ts).
 * - Every run here holds a lease (task-leases.ts) this replica renews every
 *   `renewMs`; a replica that stops renewing (killed, frozen) leaves leases
 *   that expire after `leaseMs`, and any live replica then writes FAILED on
 *   their tasks, version-checked, with a reason naming the replica.
 * - A run here learns that another replica canceled, failed or superseded
 *   its task from a notification, or at the latest from its next save, which
 *   conflicts: it then adopts the stored terminal task and is preempted (a
 *   CANCELED written first is never overwritten, harness rule 1 across
 *   processes), or, superseded, stops without writing.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { type StreamResponse, TaskState } from "../../gen/a2a_pb.js";
import { isTerminal } from "../a2a/task-state.js";
import { defaultLogger, type Logger } from "../runtime/logger.js";
import type { LiveTask } from "../server/live-task.js";
import { agentMessage, statusUpdate, streamResponse, taskStatus, textPart } from "../server/message-literals.js";
import { TaskVersionConflictError } from "../server/store-errors.js";
import type { CoordinatedRun, TaskCoordinator } from "../server/task-coordinator.js";
import type { StoredTask } from "../server/task-store.js";
import { PgTaskStore } from "./pg-task-store.js";
import { type PostgresPool, type Row, run } from "./postgres-pool.js";
import { PRUNE_EVENTS, taskDigest } from "./task-events.js";
import { EXPIRED_LEASES, RELEASE_LEASE, RENEW_LEASES, TASK_AND_LEASE } from "./task-leases.js";
import { TaskNotifications } from "./task-notifications.js";
import { taskFromRow } from "./task-rows.js";
import type { LeaseWrite, TaskKey } from "./task-save-batches.js";
import { followStoredTask } from "./task-subscription.js";

/** How long a run's lease lasts unless renewed. See docs/decisions.md (S660). */
export const DEFAULT_LEASE_MS = 30_000;
/** How often a replica renews its leases and looks for expired ones: a third of the lease. */
export const DEFAULT_RENEW_MS = 10_000;
/** How long stored events are kept for subscribers catching up. */
export const DEFAULT_EVENT_RETENTION_MS = 60 * 60 * 1000;
/** How long to wait before listening or reading again after PostgreSQL could not be reached. */
export const DEFAULT_RETRY_MS = 1_000;

export interface PgTaskFleetOptions {
  /** A `pg.Pool` (or `createPostgresPool()`) on a database `migrate()` has prepared; one connection listens. */
  readonly pool: PostgresPool;
  readonly logger?: Logger;
  /** Names this replica in leases and in the reason of a task failed for it. Default `<hostname>-<pid>-<random>`. */
  readonly replicaId?: string;
  /** A run's lease, renewed while it runs. Default 30,000 ms. */
  readonly leaseMs?: number;
  /** How often leases are renewed and expired ones failed. Default 10,000 ms; must be below `leaseMs`. */
  readonly renewMs?: number;
  /** How long stored events are kept. Default one hour. */
  readonly eventRetentionMs?: number;
  /** Delay before reconnecting the notification connection or reading again. Default 1,000 ms. */
  readonly retryMs?: number;
}

/** A run on this replica and its lease. */
interface HeldRun {
  readonly run: CoordinatedRun;
  /** The run's task. */
  readonly task: TaskKey;
  /** Names the run in its lease; made with its take (see `#take`). */
  runId?: string;
  /** Settles once the lease is stored (true), was not needed or could not be stored (false). */
  taken: Promise<boolean>;
  /** Stops following the task; unset until the run follows it (see `#take`). */
  unfollow?: () => void;
}

export class PgTaskFleet implements TaskCoordinator {
  /** The task store of the fleet's agents: PostgreSQL, recording events. */
  readonly taskStore: PgTaskStore;
  readonly replicaId: string;
  readonly leaseMs: number;
  readonly renewMs: number;
  readonly #pool: PostgresPool;
  readonly #logger: Logger;
  readonly #notifications: TaskNotifications;
  readonly #retentionMs: number;
  readonly #retryMs: number;
  readonly #runs = new Map<string, HeldRun>();
  /** Lease releases not answered yet (close waits for them). */
  readonly #releasing = new Set<Promise<void>>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #sweeping: Promise<void> | undefined;

  constructor(options: PgTaskFleetOptions) {
    this.#pool = options.pool;
    this.#logger = options.logger ?? defaultLogger();
    this.replicaId = options.replicaId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.renewMs = options.renewMs ?? Math.min(DEFAULT_RENEW_MS, Math.floor(this.leaseMs / 3));
    if (!(this.renewMs > 0 && this.renewMs < this.leaseMs)) {
      throw new RangeError("renewMs must be positive and below leaseMs");
    }
    this.#retentionMs = options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS;
    this.#retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
    this.taskStore = new PgTaskStore({ pool: this.#pool, logger: this.#logger, recordEvents: true });
    this.#notifications = new TaskNotifications(this.#pool, this.#logger, this.#retryMs);
  }

  /** Listens for task notifications and starts renewing leases and failing expired ones. */
  async start(): Promise<void> {
    await this.#notifications.listening();
    this.#timer ??= setInterval(() => {
      this.#sweeping ??= this.#sweep().finally(() => {
        this.#sweeping = undefined;
      });
    }, this.renewMs);
    this.#timer.unref?.();
  }

  /** Stops the timers and the listening connection (after the agent is idle: runs still here keep their leases until they expire). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#sweeping;
    await Promise.all([...this.#runs.values()].map((held) => held.taken));
    await Promise.all(this.#releasing);
    await this.taskStore.flushed();
    await this.#notifications.close();
  }

  // ---------------------------------------------------------------- runs

  runStarted(execution: CoordinatedRun): void {
    const live = execution.live;
    const held: HeldRun = {
      run: execution,
      task: { scope: live.scope, taskId: live.task.id },
      taken: Promise.resolve(false),
    };
    this.#runs.get(live.key)?.unfollow?.();
    this.#runs.set(live.key, held);
    // Taken with the next batch of saves (before or with the run's first save); a new task's with its first
    // save, unless that save stores it terminal (then the run never follows its task, makes no run id and no digest: S690).
    held.taken = (
      live.writer.version === 0
        ? this.taskStore.takeWithFirstSave(held.task, () => this.#take(held))
        : this.taskStore.lease(this.#take(held)).then(() => true)
    ).catch((error: unknown) => {
      this.#logger.error({ err: error, task_id: live.task.id }, "could not take the run's lease");
      return false;
    });
  }

  /**
   * The run's lease take; from now on the run follows its task. Made before
   * the statement writing the take is queued, which for a new task is also
   * the first that lets other replicas see it: a cancel, supersede or
   * failure elsewhere can only come after, and its notification reaches the
   * run. A run that ended or was replaced here follows nothing.
   */
  #take(held: HeldRun): LeaseWrite {
    const { live } = held.run;
    held.runId ??= randomUUID();
    const runId = held.runId;
    const digest = taskDigest(live.task.id, live.scope);
    if (this.#runs.get(live.key) === held) {
      held.unfollow ??= this.#notifications.follow(digest, (version, runId) => {
        if (version === 0 ? runId === held.runId : this.#ownSave(live, version)) return;
        void this.#reconcile(held, false);
      });
    }
    return { ...held.task, runId, take: { replicaId: this.replicaId, leaseMs: this.leaseMs, digest } };
  }

  runEnded(execution: CoordinatedRun): void {
    const live = execution.live;
    const held = this.#runs.get(live.key);
    if (held?.run !== execution) return;
    this.#runs.delete(live.key);
    held.unfollow?.();
    this.taskStore.dropFirstSaveTake(held.task);
    // After the take was answered, so never in the same statement as it.
    const { scope, taskId } = held.task;
    const released = held.taken
      .then((taken) => (taken && held.runId ? this.taskStore.lease({ scope, taskId, runId: held.runId }) : undefined))
      .catch((error: unknown) =>
        this.#logger.warn({ err: error, task_id: live.task.id }, "could not release the run's lease; it expires"),
      )
      .finally(() => this.#releasing.delete(released));
    this.#releasing.add(released);
  }

  /**
   * A notification of a version this run stored, or of one while a save of
   * it is under way here: that save's notification may come before its
   * answer, and another replica's write makes it conflict, which reconciles.
   * Either way no read is needed.
   */
  #ownSave(live: LiveTask, version: number): boolean {
    return version <= live.writer.version || this.taskStore.saving(live.task.id, live.scope);
  }

  conflicted(live: LiveTask): void {
    const held = this.#runs.get(live.key);
    if (held && held.run.live === live) void this.#reconcile(held, true);
  }

  /**
   * Reads the task and its lease and acts on what another replica did: a
   * terminal task is adopted and the run preempted; a lease now held by
   * another run stops this one without a write; after a conflict on a task
   * this run still holds, its state is saved again over the stored version
   * (the superseded run wrote after this run read the task).
   */
  async #reconcile(held: HeldRun, conflict: boolean): Promise<void> {
    const { live } = held.run;
    try {
      await held.taken;
      const row = (await run(this.#pool, TASK_AND_LEASE, [live.scope, live.task.id]))[0];
      if (!row || this.#runs.get(live.key) !== held) return;
      const stored = storedOf(live.task.id, row);
      if (isTerminal(stored.task)) {
        if (stored.version <= live.writer.version && !conflict) return;
        live.adopt(stored);
        this.#stop(held, stored.task.status?.state === TaskState.CANCELED ? "cancel-task" : "superseded");
      } else if (row.run_id !== null && row.run_id !== held.runId) {
        this.#stop(held, "superseded");
      } else if (conflict && row.run_id === held.runId) {
        live.writer.version = stored.version;
        await live.persist();
      }
    } catch (error) {
      if (error instanceof TaskVersionConflictError) return; // the next conflict reconciles again
      this.#logger.error({ err: error, task_id: live.task.id }, "could not reconcile a run with the stored task");
    }
  }

  /** Preempts the run without the write an ending run makes: the task as stored stands. */
  #stop(held: HeldRun, reason: "cancel-task" | "superseded"): void {
    const { live } = held.run;
    if ((live.execution as unknown) === held.run) live.execution = undefined;
    held.run.preempt(reason);
  }

  // ----------------------------------------------------------- subscribe

  subscribe(taskId: string, scope: string, signal: AbortSignal): AsyncGenerator<StreamResponse[]> {
    return followStoredTask(
      { pool: this.#pool, store: this.taskStore, notifications: this.#notifications, retryMs: this.#retryMs },
      taskId,
      scope,
      signal,
    );
  }

  // ------------------------------------------------------------- leases

  /** Renews this replica's leases, fails the tasks of expired ones, prunes old events. */
  async #sweep(): Promise<void> {
    try {
      await run(this.#pool, RENEW_LEASES, [this.replicaId, this.leaseMs]);
      for (const lease of await run(this.#pool, EXPIRED_LEASES, [])) await this.#failExpired(lease);
      await run(this.#pool, PRUNE_EVENTS, [this.#retentionMs]);
    } catch (error) {
      this.#logger.warn({ err: error, replica_id: this.replicaId }, "lease sweep failed; trying again next period");
    }
  }

  /** Writes FAILED on the task of an expired lease (unless it is terminal) and removes the lease. */
  async #failExpired(lease: Row): Promise<void> {
    const scope = lease.scope as string;
    const taskId = lease.task_id as string;
    for (let attempt = 0; attempt < 3; attempt++) {
      const stored = await this.taskStore.get(taskId, scope);
      if (!stored || isTerminal(stored.task)) break;
      const task = stored.task;
      const reason = `The replica ${lease.replica_id as string} running this task stopped (its lease expired); the task failed`;
      const message = agentMessage(randomUUID(), task.id, task.contextId, [textPart(reason)]);
      task.status = taskStatus(TaskState.FAILED, message);
      task.history.push(message);
      const events = [
        streamResponse({ case: "statusUpdate", value: statusUpdate(task.id, task.contextId, task.status) }),
      ];
      try {
        await this.taskStore.save(task, scope, { owner: stored.owner, version: stored.version, events });
        this.#logger.warn(
          { task_id: taskId, replica_id: lease.replica_id },
          "task failed: its replica's lease expired",
        );
        break;
      } catch (error) {
        if (!(error instanceof TaskVersionConflictError)) throw error;
      }
    }
    await run(this.#pool, RELEASE_LEASE, [scope, taskId, lease.run_id]);
  }
}

function storedOf(taskId: string, row: Row): StoredTask {
  return {
    task: taskFromRow(taskId, row.task as string, row.artifacts as string),
    owner: row.owner as string,
    version: Number(row.version),
  };
}
