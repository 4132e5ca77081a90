/**
 * The in-process state of a task while something is happening to it: the
 * one mutable copy every write goes through, the event fan-out its streams
 * read, and the execution currently allowed to write. Every write is applied
 * synchronously (so writes keep their call order and readers never see half
 * of one), published, then persisted through the store in order.
 *
 * A terminal state is final: once the task is COMPLETED, FAILED, CANCELED or
 * REJECTED, further status and artifact writes are refused. That is what
 * makes "CancelTask writes CANCELED first, nothing overwrites it" hold no
 * matter what a preempted skill does afterwards.
 *
 * Per-event work is O(1) (artifacts are indexed by id, appends push in
 * place), so a stream of N events costs O(N).
 *
 * The task's size is estimated as it grows (`task-bytes.ts`) and handed to
 * the store with every save (`TaskWriter.bytes`), and its history is held to
 * a byte budget: past it the oldest messages are dropped (the newest is
 * always kept) and the task's metadata counts what was dropped under
 * `novaosHistoryTrimmed`. See docs/decisions.md (S453).
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { type Artifact, type Message, type StreamResponse, type Task, TaskState } from "../../gen/a2a_pb.js";
import { isTerminal } from "../a2a/task-state.js";
import { EventQueue } from "./event-queue.js";
import type { Execution } from "./execution.js";
import { artifact, artifactUpdate, statusUpdate, streamResponse, taskStatus } from "./message-literals.js";
import { TaskVersionConflictError } from "./store-errors.js";
import { frameWeight, STREAM_BACKLOG_BYTES, streamBacklogExceeded } from "./stream-backlog.js";
import { artifactBytes, messageBytes, partBytes, taskBytes } from "./task-bytes.js";
import type { CoordinatedRun, TaskCoordinator } from "./task-coordinator.js";
import { type StoredTask, scopedKey, type TaskStore, type TaskWriter } from "./task-store.js";
import { nextTurn } from "./turn-slice.js";

/** The default history budget of a task, in estimated bytes. See docs/decisions.md (S453). */
export const DEFAULT_MAX_HISTORY_BYTES = 4 * 1024 * 1024;

/**
 * The task metadata key counting what history trimming dropped:
 * `{"messages": <count>, "bytes": <estimated bytes>}`, both totals since the
 * task began.
 */
export const HISTORY_TRIMMED_METADATA_KEY = "novaosHistoryTrimmed";

export interface ArtifactWrite {
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: JsonObject | undefined;
  /**
   * The writer hands the artifact over and never touches it again (the
   * harness's own final artifact): the task keeps it without a copy.
   */
  owned?: boolean;
  /**
   * A status write follows in the same synchronous step and saves the
   * artifact with it (the harness's closing artifact): no save of its own.
   */
  savedByNextWrite?: boolean;
}

/** A live task's budgets, in estimated bytes; each has its default when absent. */
export interface LiveTaskLimits {
  /** The task's history budget (default `DEFAULT_MAX_HISTORY_BYTES`, 4 MiB; S453). */
  readonly maxHistoryBytes?: number | undefined;
  /** How far one of its streams may fall behind (default `STREAM_BACKLOG_BYTES`; stream-backlog.ts). */
  readonly maxBacklogBytes?: number | undefined;
}

/** A settled promise, one for every task: no save under way, or nothing left to store. */
const STORED: Promise<void> = Promise.resolve();

/** Up to this many artifacts, an id is found by a scan; past it, through an index. */
const SCANNED_ARTIFACTS = 8;

/** Up to this many elements, a task's list grows by a copy of its new length (`appended`); past it, in place. */
const COPIED_LENGTH = 16;

/**
 * `list` with `item` appended: a new array of exactly the new length while
 * the list is short (most tasks' history, artifacts and parts), else `list`
 * itself, pushed. A push that outgrows an array gives it room for at least
 * 16 more elements (152 bytes for one message), and a stored task's lists
 * outlive the next young collection, which copies them. The lists are the
 * live task's own (snapshots copy them), so nothing holds the old array.
 */
function appended<T>(list: T[], item: T): T[] {
  // Literals for the common lengths: `Array.of` with a spread costs several times more.
  if (list.length === 0) return [item];
  if (list.length === 1) return [list[0] as T, item];
  if (list.length >= COPIED_LENGTH) {
    list.push(item);
    return list;
  }
  return Array.of(...list, item);
}

/** Sees every update of a live task as it is published (the push-notification sender). */
export type TaskUpdateListener = (live: LiveTask, frame: StreamResponse) => void;

export class LiveTask implements StoredTask {
  readonly task: Task;
  readonly scope: string;
  #key: string | undefined;
  #events: EventQueue<StreamResponse> | undefined;
  #closed = false;
  /** The execution allowed to write through a task updater, if any. */
  execution: Execution | undefined;
  /** The task's owner and the stored version this copy replaces on its next save. */
  readonly writer: TaskWriter;
  readonly #store: TaskStore;
  readonly #onUpdate: TaskUpdateListener | undefined;
  readonly #coordinator: TaskCoordinator | undefined;
  /** Artifact positions by id, made once a task has more artifacts than a scan is worth. */
  #artifactIndex: Map<string, number> | undefined;
  /** The saves under way, in order (asynchronous stores only). */
  #saving: Promise<void> = STORED;
  #queuedSave: Promise<void> | undefined;
  /** A change no save has taken yet (or whose save failed). */
  #unsaved = false;
  readonly #maxHistoryBytes: number;
  /** The history's estimated bytes, counted once the task first grows past the budget. */
  #historyBytes: number | undefined;
  readonly #maxBacklogBytes: number;
  /** Set while the task is not made yet (a skill that may reply with a direct Message): nothing is stored. */
  #uncommitted: ((snapshot: Task) => void) | undefined;
  #committed: Promise<Task> | undefined;

  constructor(
    task: Task,
    scope: string,
    store: TaskStore,
    writer: TaskWriter,
    limits: LiveTaskLimits = {},
    onUpdate?: TaskUpdateListener,
    coordinator?: TaskCoordinator,
  ) {
    this.task = task;
    this.scope = scope;
    this.writer = writer;
    writer.bytes ??= taskBytes(task);
    // A task not stored yet collects no frames until its first save starts (`#save`).
    if (store.recordsEvents && writer.version > 0) writer.events ??= [];
    this.#store = store;
    this.#coordinator = coordinator;
    this.#maxHistoryBytes = limits.maxHistoryBytes ?? DEFAULT_MAX_HISTORY_BYTES;
    this.#maxBacklogBytes = limits.maxBacklogBytes ?? STREAM_BACKLOG_BYTES;
    this.#onUpdate = onUpdate;
  }

  /** The task's scoped key (`scopedKey`), made on first use: the live tasks themselves are found without it. */
  get key(): string {
    this.#key ??= scopedKey(this.task.id, this.scope);
    return this.#key;
  }

  get owner(): string {
    return this.writer.owner;
  }

  get version(): number {
    return this.writer.version;
  }

  /** The task's event fan-out, made when the first stream subscribes. */
  get events(): EventQueue<StreamResponse> {
    if (!this.#events) {
      const maxWeight = this.#maxBacklogBytes;
      this.#events = new EventQueue<StreamResponse>({
        weigh: frameWeight,
        maxWeight,
        exceeded: () => streamBacklogExceeded(this.task.id, maxWeight),
      });
      if (this.#closed) this.#events.close();
    }
    return this.#events;
  }

  /** Whether a stream is watching (no events are built for nobody). */
  get watched(): boolean {
    return this.#events !== undefined && this.#events.subscriptionCount > 0;
  }

  /** The most events a watching stream has not read yet (0 when nobody watches). */
  get backlog(): number {
    return this.#events?.backlog ?? 0;
  }

  get terminal(): boolean {
    return isTerminal(this.task);
  }

  /**
   * Holds the task back until something writes to it: nothing is stored or
   * published before then, so a skill may still answer with a direct Message
   * and no task ever exists (spec §3.1.1). `committed` resolves with the task
   * as it was just before its first write.
   */
  defer(): void {
    this.#committed = new Promise((resolve) => {
      this.#uncommitted = resolve;
    });
  }

  /** Whether the task is held back (see `defer`). */
  get pending(): boolean {
    return this.#uncommitted !== undefined;
  }

  /** The task as it was when it was made (its stream's first frame); undefined unless it was deferred. */
  get committed(): Promise<Task> | undefined {
    return this.#committed;
  }

  /** Makes a deferred task: from now on it is stored and its writes published. */
  commit(): void {
    const resolve = this.#uncommitted;
    if (!resolve) return;
    this.#uncommitted = undefined;
    this.#unsaved = true;
    resolve(this.snapshot());
  }

  /** A deferred task's status as its run starts, in memory only (nothing is stored yet). */
  startDeferred(state: TaskState): void {
    this.task.status = taskStatus(state);
  }

  /** Appends a message to the history (an inbound user message), without an event. */
  appendHistory(message: Message): void {
    this.#unsaved = true;
    this.#addHistory(message);
  }

  #addHistory(message: Message): void {
    const bytes = messageBytes(message);
    this.task.history = appended(this.task.history, message);
    this.#grow(bytes);
    if (this.#historyBytes !== undefined) this.#historyBytes += bytes;
    // The history is part of the task: under the budget while the whole task is.
    if ((this.writer.bytes as number) > this.#maxHistoryBytes) this.#trimHistory();
  }

  #grow(bytes: number): void {
    this.writer.bytes = (this.writer.bytes as number) + bytes;
  }

  /** Drops the oldest messages while the history is over the budget, keeping the newest, and counts them. */
  #trimHistory(): void {
    const history = this.task.history;
    if (this.#historyBytes === undefined) {
      this.#historyBytes = 0;
      for (const message of history) this.#historyBytes += messageBytes(message);
    }
    let dropped = 0;
    let droppedBytes = 0;
    while (this.#historyBytes - droppedBytes > this.#maxHistoryBytes && dropped < history.length - 1) {
      droppedBytes += messageBytes(history[dropped] as Message);
      dropped++;
    }
    if (dropped === 0) return;
    history.splice(0, dropped);
    this.#historyBytes -= droppedBytes;
    this.#grow(-droppedBytes);
    const metadata = { ...this.task.metadata };
    const before = metadata[HISTORY_TRIMMED_METADATA_KEY] as { messages?: unknown; bytes?: unknown } | undefined;
    metadata[HISTORY_TRIMMED_METADATA_KEY] = {
      messages: (typeof before?.messages === "number" ? before.messages : 0) + dropped,
      bytes: (typeof before?.bytes === "number" ? before.bytes : 0) + droppedBytes,
    };
    this.task.metadata = metadata;
  }

  /**
   * Sets the status, records its message in the history and publishes a
   * status update. Refused (undefined) when the task is already terminal.
   */
  writeStatus(state: TaskState, message?: Message, metadata?: JsonObject): Promise<void> | undefined {
    if (this.terminal) return undefined;
    this.commit();
    const status = taskStatus(state, message);
    this.task.status = status;
    if (message) this.#addHistory(message);
    this.execution?.noteState(state);
    // No event is built for nobody: a blocking SendMessage has no stream watching (here or, with a store
    // that records events, on another replica).
    if (this.watched || this.#onUpdate || this.writer.events) {
      this.#publish({ case: "statusUpdate", value: statusUpdate(this.task.id, this.task.contextId, status, metadata) });
    }
    return this.persist();
  }

  /**
   * Adds, extends (`append`) or replaces an artifact by id and publishes the
   * update as written (the delta, not the merged artifact). Refused
   * (undefined) when the task is terminal.
   */
  writeArtifact(write: ArtifactWrite): Promise<void> | undefined {
    if (this.terminal) return undefined;
    this.commit();
    const incoming = write.artifact;
    const index = this.#artifactPosition(incoming.artifactId);
    if (index !== undefined && write.append) {
      const current = this.task.artifacts[index] as Artifact;
      for (const part of incoming.parts) {
        current.parts = appended(current.parts, part);
        this.#grow(partBytes(part));
      }
      if (incoming.metadata) current.metadata = incoming.metadata;
      if (incoming.extensions.length > 0) current.extensions = [...incoming.extensions];
    } else {
      // The task keeps its own copy: the published event must not change when later chunks are appended.
      // Made as a literal (not a spread), so it holds its fields in itself (decision S716).
      const own: Artifact = write.owned
        ? incoming
        : artifact(incoming.artifactId, incoming.name, [...incoming.parts], {
            description: incoming.description,
            extensions: [...incoming.extensions],
            metadata: incoming.metadata,
          });
      if (index === undefined) {
        this.task.artifacts = appended(this.task.artifacts, own);
        this.#artifactIndex?.set(incoming.artifactId, this.task.artifacts.length - 1);
      } else {
        this.#grow(-artifactBytes(this.task.artifacts[index] as Artifact));
        this.task.artifacts[index] = own;
      }
      this.#grow(artifactBytes(own));
    }
    if (this.watched || this.#onUpdate || this.writer.events) {
      this.#publish({
        case: "artifactUpdate",
        value: artifactUpdate(
          this.task.id,
          this.task.contextId,
          incoming,
          write.append ?? false,
          write.lastChunk ?? false,
          write.metadata,
        ),
      });
    }
    if (!write.savedByNextWrite) return this.persist();
    this.#unsaved = true;
    return undefined;
  }

  /**
   * Publishes a status update carrying `message` at the task's current state,
   * storing nothing: a live note for the streams watching now (a tool
   * event). Only while the task is submitted or working: a paused or closed
   * task's streams have had their last frame.
   */
  announce(message: Message): void {
    const state = this.task.status?.state;
    if (!this.watched || (state !== TaskState.SUBMITTED && state !== TaskState.WORKING)) return;
    this.#publish({
      case: "statusUpdate",
      value: statusUpdate(this.task.id, this.task.contextId, taskStatus(state, message)),
    });
  }

  /** Where the artifact with this id is (the last one, should ids repeat), if the task has it. */
  #artifactPosition(artifactId: string): number | undefined {
    const artifacts = this.task.artifacts;
    if (!this.#artifactIndex) {
      if (artifacts.length <= SCANNED_ARTIFACTS) {
        for (let i = artifacts.length - 1; i >= 0; i--) if (artifacts[i]?.artifactId === artifactId) return i;
        return undefined;
      }
      this.#artifactIndex = new Map();
      for (const [i, a] of artifacts.entries()) this.#artifactIndex.set(a.artifactId, i);
    }
    return this.#artifactIndex.get(artifactId);
  }

  /**
   * Saves the current state after every earlier save. With a store that
   * saves asynchronously, a save starts in the event-loop turn after the
   * write that asked for it, and every write until then shares it (it saves
   * the state as of when it starts): a skill that finishes within a turn
   * (WORKING, its artifact, COMPLETED) is one save, not three.
   */
  persist(): Promise<void> {
    if (this.#uncommitted) return STORED;
    if (this.#store.savesSynchronously) return this.#saveNow();
    this.#unsaved = true;
    if (this.#queuedSave) return this.#queuedSave;
    const save = this.#saving.then(nextTurn).then(() => {
      this.#queuedSave = undefined;
      this.#unsaved = false;
      return this.#save();
    });
    this.#queuedSave = save;
    this.#saving = save.catch((error: unknown) => {
      // Not stored: `stored()` saves it again.
      this.#unsaved = true;
      // Another replica wrote the task (fleet mode): the coordinator reads it and decides.
      if (error instanceof TaskVersionConflictError) this.#coordinator?.conflicted(this);
    });
    return save;
  }

  /**
   * A save to a store that saves synchronously. One that succeeded has
   * advanced the writer's version by the time it returns (`TaskStore.save`);
   * one that did not leaves the change unsaved, for `stored()` to save again.
   */
  #saveNow(): Promise<void> {
    const version = this.writer.version;
    const saved = this.#save();
    this.#unsaved = this.writer.version === version;
    return saved;
  }

  /**
   * Hands the task to the store. A store that records events gets, with each
   * save, the frames published since the previous save started; a task's
   * first save gets none (it collects none before): the task it stores
   * already shows them, and a subscriber on another replica can only start
   * from a stored version, reading the events after it (decision S674).
   */
  #save(): Promise<void> {
    if (this.#store.recordsEvents) this.writer.events ??= [];
    return this.#store.save(this.task, this.scope, this.writer);
  }

  /**
   * Resolves once every change so far is stored: waits for the saves under
   * way, and saves again only for a change none of them stored (a run that
   * ends saves nothing more than its writes did); rejects when that save
   * fails.
   */
  stored(): Promise<void> {
    if (this.#unsaved) return this.persist();
    if (this.#store.savesSynchronously) return STORED;
    // A save under way that fails leaves its change unsaved: it is saved once more.
    return this.#saving.then(() => (this.#unsaved ? this.persist() : undefined));
  }

  /**
   * Takes the task as another replica stored it (a cancel, a lease that
   * expired): this copy becomes that version, and the streams watching here
   * get its status. Nothing is stored or sent to push webhooks: the writer
   * did both.
   */
  adopt(stored: StoredTask): void {
    Object.assign(this.task, stored.task);
    this.writer.version = stored.version;
    this.#unsaved = false;
    this.writer.bytes = taskBytes(this.task);
    // What this copy published and did not store is overtaken by the stored task.
    if (this.writer.events) this.writer.events.length = 0;
    this.#artifactIndex = undefined;
    this.#historyBytes = undefined;
    const status = this.task.status;
    if (this.watched && status) {
      this.events.publish(
        streamResponse({ case: "statusUpdate", value: statusUpdate(this.task.id, this.task.contextId, status) }),
      );
    }
  }

  /** Ends every stream watching the task. */
  close(): void {
    this.#closed = true;
    this.#events?.close();
  }

  /** A copy that later writes do not change (for a stream's first frame or a reply). */
  snapshot(): Task {
    return snapshotTask(this.task);
  }

  #publish(payload: StreamResponse["payload"]): void {
    const frame = streamResponse(payload);
    if (this.watched) this.events.publish(frame);
    this.#onUpdate?.(this, frame);
    this.writer.events?.push(frame);
  }
}

/** A copy of a task whose arrays (and artifacts' parts) are its own. */
export function snapshotTask(task: Task): Task {
  return {
    ...task,
    artifacts: task.artifacts.map((a) => ({ ...a, parts: [...a.parts] })),
    history: [...task.history],
  };
}

/**
 * Where a registered task sits among the live tasks. Released, it is emptied
 * and left in its scope's map: a map whose entries are deleted as fast as
 * they are added makes V8 shrink and regrow its hash table over and over (a
 * new table each time), and a map that churns keeps its retired tables
 * chained to the current one, which, promoted to the old generation, would
 * hold every task they pointed at until the next full collection.
 */
interface Slot {
  live: LiveTask | undefined;
}

/** Emptied slots a scope keeps before its map is made afresh from the live ones. */
const EMPTIED_SLOTS = 256;

/**
 * One scope's live tasks: a slot per task id, emptied when its task is
 * released, and the number of slots that hold a task. The map is replaced by
 * one of the occupied slots once `EMPTIED_SLOTS` are empty (decision S718).
 */
class ScopeTasks {
  slots = new Map<string, Slot>();
  live = 0;
}

/**
 * The live tasks of one agent, by scope then task id (no key string is built
 * per call). A task is live while a run executes on it, and also while a
 * subscription watches it and it is not terminal (spec §3.1.6: a
 * subscription to a paused task stays open until the task ends), so the run
 * a follow-up starts streams to every stream already watching.
 */
export class LiveTasks {
  readonly #scopes = new Map<string, ScopeTasks>();
  readonly #onUpdate: TaskUpdateListener | undefined;
  /** Runs started and not yet ended (their outcome stored). */
  #running = 0;
  #idle: (() => void)[] = [];
  readonly #limits: LiveTaskLimits;
  /** What the replicas of a fleet share about runs; none in one process. */
  readonly coordinator: TaskCoordinator | undefined;

  /**
   * `limits`: each task's history budget and how far one of its streams may
   * fall behind; `onUpdate` sees every update of every live task (the
   * push-notification sender); `coordinator` is told of every run (fleet mode).
   */
  constructor(limits: LiveTaskLimits = {}, onUpdate?: TaskUpdateListener, coordinator?: TaskCoordinator) {
    this.#limits = limits;
    this.#onUpdate = onUpdate;
    this.coordinator = coordinator;
  }

  get size(): number {
    let size = 0;
    for (const tasks of this.#scopes.values()) size += tasks.live;
    return size;
  }

  get(taskId: string, scope: string): LiveTask | undefined {
    return this.#scopes.get(scope)?.slots.get(taskId)?.live;
  }

  /**
   * The registered live task for this task, registering `task` if there is
   * none yet; `writer` says whose it is and which stored version it replaces.
   */
  open(task: Task, scope: string, store: TaskStore, writer: TaskWriter): LiveTask {
    let tasks = this.#scopes.get(scope);
    const slot = tasks?.slots.get(task.id);
    if (slot?.live) return slot.live;
    const live = new LiveTask(task, scope, store, writer, this.#limits, this.#onUpdate, this.coordinator);
    if (!tasks) {
      tasks = new ScopeTasks();
      this.#scopes.set(scope, tasks);
    }
    if (slot) slot.live = live;
    else tasks.slots.set(task.id, { live });
    tasks.live++;
    return live;
  }

  /**
   * Unregisters it and ends its streams, once nothing is executing on it and
   * no subscription holds it open (a task that is not terminal stays live
   * while one watches).
   */
  release(live: LiveTask): void {
    if (live.execution || (live.watched && !live.terminal)) return;
    const tasks = this.#scopes.get(live.scope);
    const slot = tasks?.slots.get(live.task.id);
    if (tasks && slot?.live === live) {
      slot.live = undefined;
      tasks.live--;
      // A scope with no live task is dropped, unless it is the only one (an agent's one tenant).
      if (tasks.live === 0 && this.#scopes.size > 1) this.#scopes.delete(live.scope);
      else if (tasks.slots.size - tasks.live >= EMPTIED_SLOTS) tasks.slots = occupied(tasks.slots);
    }
    live.close();
  }

  /** @internal A run started on a live task. */
  runStarted(run: CoordinatedRun): void {
    this.#running++;
    this.coordinator?.runStarted(run);
  }

  /** @internal A run on `live` ended and its outcome is stored: the task is released unless held. */
  runEnded(live: LiveTask, run: CoordinatedRun): void {
    this.#running--;
    this.coordinator?.runEnded(run);
    this.release(live);
    if (this.#running === 0) {
      const waiters = this.#idle;
      this.#idle = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Resolves once no run executes (every run finished and its outcome was recorded). */
  whenIdle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** The live tasks a skill is running on. */
  *executing(): Generator<LiveTask> {
    for (const live of this.#all()) if (live.execution) yield live;
  }

  /** The live tasks of one scope. */
  *inScope(scope: string): Generator<LiveTask> {
    for (const slot of this.#scopes.get(scope)?.slots.values() ?? []) if (slot.live) yield slot.live;
  }

  /** Subscriptions across all live tasks (for leak checks). */
  get subscriptionCount(): number {
    let n = 0;
    for (const live of this.#all()) n += live.watched ? live.events.subscriptionCount : 0;
    return n;
  }

  *#all(): Generator<LiveTask> {
    for (const tasks of this.#scopes.values()) for (const slot of tasks.slots.values()) if (slot.live) yield slot.live;
  }
}

/** A new map of the slots that hold a task. */
function occupied(slots: Map<string, Slot>): Map<string, Slot> {
  const kept = new Map<string, Slot>();
  for (const [taskId, slot] of slots) if (slot.live) kept.set(taskId, slot);
  return kept;
}
