/**
 * SubscribeToTask in fleet mode: the task as stored (its first frame), then
 * the events every replica stored after that version, read when a
 * notification says there are new ones. Following the stored versions makes
 * the stream gap-free and duplicate-free whichever replica runs the task, and
 * across a dropped notification connection (the reconnect wakes the stream,
 * which reads from the version it holds).
 */
import type { StreamResponse } from "../../gen/a2a_pb.js";
import { isTerminalFrame } from "../a2a/stream-frame.js";
import { isTerminal } from "../a2a/task-state.js";
import { streamResponse } from "../server/message-literals.js";
import { StoreUnavailableError } from "../server/store-errors.js";
import type { TaskStore } from "../server/task-store.js";
import type { PostgresPool } from "./postgres-pool.js";
import { readEvents, taskDigest } from "./task-events.js";
import type { TaskNotifications } from "./task-notifications.js";

export interface TaskSubscriptionSources {
  readonly pool: PostgresPool;
  readonly store: TaskStore;
  readonly notifications: TaskNotifications;
  /** How long to wait before reading again after the database could not be reached. */
  readonly retryMs: number;
}

export async function* followStoredTask(
  sources: TaskSubscriptionSources,
  taskId: string,
  scope: string,
  signal: AbortSignal,
): AsyncGenerator<StreamResponse[]> {
  const wakeup = new Wakeup(signal);
  // Followed before the snapshot is read: a save committed after the read is always noticed.
  const unfollow = sources.notifications.follow(taskDigest(taskId, scope), () => wakeup.wake());
  try {
    await sources.notifications.listening();
    const stored = await sources.store.get(taskId, scope);
    if (!stored || signal.aborted) return;
    yield [streamResponse({ case: "task", value: stored.task })];
    if (isTerminal(stored.task)) return;
    let version = stored.version;
    for (;;) {
      if (!(await wakeup.next())) return;
      let read: Awaited<ReturnType<typeof readEvents>>;
      try {
        read = await readEvents(sources.pool, taskId, scope, version);
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        // PostgreSQL is away (restarting): read again later from the same version; nothing is skipped.
        wakeup.wakeAfter(sources.retryMs);
        continue;
      }
      version = read.version;
      if (read.frames.length === 0) continue;
      const last = read.frames.findIndex(isTerminalFrame);
      if (last >= 0) {
        yield read.frames.slice(0, last + 1);
        return;
      }
      yield read.frames;
    }
  } finally {
    unfollow();
    wakeup.close();
  }
}

/** A flag a notification raises and the stream lowers by reading; awaiting it ends when the caller leaves. */
class Wakeup {
  #raised = false;
  #resolve: ((awake: boolean) => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #signal: AbortSignal;
  readonly #leave = () => this.#resolve?.(false);

  constructor(signal: AbortSignal) {
    this.#signal = signal;
    signal.addEventListener("abort", this.#leave, { once: true });
  }

  wake(): void {
    this.#raised = true;
    const resolve = this.#resolve;
    this.#resolve = undefined;
    resolve?.(true);
  }

  wakeAfter(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.wake(), ms);
  }

  /** True once raised (and lowers it); false when the caller left. */
  next(): Promise<boolean> {
    if (this.#signal.aborted) return Promise.resolve(false);
    if (this.#raised) {
      this.#raised = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      this.#resolve = (awake) => {
        this.#raised = false;
        resolve(awake);
      };
    });
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#signal.removeEventListener("abort", this.#leave);
  }
}
