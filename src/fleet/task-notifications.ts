/**
 * One replica's `LISTEN a2a_task_events` connection, shared by everything on
 * the replica that follows a task (subscriptions, runs), and routed to them
 * by the task digest a notification names (task-events.ts).
 *
 * A notification is only a hint to read the database: when the connection
 * drops (PostgreSQL restarted, the backend was terminated) the replica
 * connects again after `retryMs` and wakes every follower, which catches up
 * from the last version it holds. So nothing stored is missed, whatever
 * notifications were lost meanwhile.
 */
import type { Logger } from "../runtime/logger.js";
import { type PostgresClient, type PostgresPool, storeErrorOf } from "./postgres-pool.js";
import { parseNotification, TASK_EVENTS_CHANNEL } from "./task-events.js";

/**
 * Called with the version a notification names (0: the task's lease was
 * taken, by the run `runId`; Infinity: catch up after a reconnect).
 */
export type TaskChanged = (version: number, runId?: string) => void;

/** A pool connection that can listen (a `pg` client). */
interface ListeningClient extends PostgresClient {
  on(event: "notification", listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: "error" | "end", listener: (error?: Error) => void): unknown;
  removeAllListeners(event?: string): unknown;
}

export class TaskNotifications {
  readonly #pool: PostgresPool;
  readonly #logger: Logger;
  readonly #retryMs: number;
  readonly #followers = new Map<string, Set<TaskChanged>>();
  #client: ListeningClient | undefined;
  #connecting: Promise<void> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(pool: PostgresPool, logger: Logger, retryMs: number) {
    this.#pool = pool;
    this.#logger = logger;
    this.#retryMs = retryMs;
  }

  /** Calls `changed` for every notification about the task until the returned function is called. */
  follow(digest: string, changed: TaskChanged): () => void {
    let set = this.#followers.get(digest);
    if (!set) {
      set = new Set();
      this.#followers.set(digest, set);
    }
    set.add(changed);
    return () => {
      set.delete(changed);
      if (set.size === 0 && this.#followers.get(digest) === set) this.#followers.delete(digest);
    };
  }

  /** Resolves once the replica listens; rejects with a StoreError when it cannot connect now (it retries). */
  listening(): Promise<void> {
    if (this.#client) return Promise.resolve();
    this.#connecting ??= this.#connect();
    return this.#connecting;
  }

  async #connect(): Promise<void> {
    let client: ListeningClient | undefined;
    try {
      client = (await this.#pool.connect()) as ListeningClient;
      client.on("notification", (message) => {
        if (message.channel !== TASK_EVENTS_CHANNEL) return;
        const pointer = parseNotification(message.payload);
        if (pointer) this.#wake(pointer.digest, pointer.version, pointer.runId);
      });
      const held = client;
      client.on("error", (error) => this.#dropped(held, error));
      client.on("end", () => this.#dropped(held));
      await client.query(`LISTEN ${TASK_EVENTS_CHANNEL}`);
    } catch (error) {
      client?.removeAllListeners();
      client?.release(true);
      this.#connecting = undefined;
      this.#scheduleRetry();
      throw storeErrorOf(error);
    }
    if (this.#closed) {
      client.release(true);
      return;
    }
    this.#client = client;
    this.#connecting = undefined;
    // Whatever happened while nobody listened is read now.
    for (const [digest] of this.#followers) this.#wake(digest, Number.POSITIVE_INFINITY);
  }

  #dropped(client: ListeningClient, error?: Error): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.removeAllListeners();
    // A client that errored is destroyed, not returned to the pool.
    client.release(error ?? true);
    if (this.#closed) return;
    this.#logger.warn({ err: error }, "task notification connection lost; listening again");
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (this.#client || this.#connecting) return;
      this.listening().catch((error: unknown) =>
        this.#logger.warn({ err: error }, "task notifications not listening yet; trying again"),
      );
    }, this.#retryMs);
    this.#retry.unref?.();
  }

  #wake(digest: string, version: number, runId?: string): void {
    const set = this.#followers.get(digest);
    if (set) for (const changed of [...set]) changed(version, runId);
  }

  /** Stops listening and returns the connection. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    await this.#connecting?.catch(() => undefined);
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    client.removeAllListeners();
    try {
      await client.query(`UNLISTEN ${TASK_EVENTS_CHANNEL}`);
      client.release();
    } catch {
      client.release(true);
    }
  }
}
