/**
 * What replicas of one agent share about tasks while they run: the seam a
 * fleet of processes on one database plugs into (`@novaos/client-sdk/fleet`
 * implements it on PostgreSQL). One process needs none: without a
 * coordinator every hook below is skipped and a task lives where it runs.
 *
 * A coordinator holds each run on this replica (a lease other replicas can
 * see), preempts it when another replica cancels, supersedes or fails the
 * task, reconciles a save that found a newer version stored, and serves
 * SubscribeToTask from what every replica stores, so a subscriber follows a
 * task wherever it runs.
 */
import type { StreamResponse } from "../../gen/a2a_pb.js";
import type { CancellationReason } from "./cancellation.js";
import type { LiveTask } from "./live-task.js";

/** A run of a skill on this replica, as a coordinator sees it (an `Execution`). */
export interface CoordinatedRun {
  readonly live: LiveTask;
  /** Stops the run: its skill is told, its updater revoked (see execution.ts). */
  preempt(reason: CancellationReason): void;
}

export interface TaskCoordinator {
  /** A run starts on this replica: from now on other replicas see that it runs here. */
  runStarted(run: CoordinatedRun): void;
  /** The run is over and its outcome stored (or given up): it no longer runs here. */
  runEnded(run: CoordinatedRun): void;
  /**
   * A save of this live task found another version stored: another replica
   * wrote it (a cancel, a superseding run, a lease that expired). The
   * coordinator reads it and acts: adopts a terminal task and preempts the
   * run, lets a superseded run go, or saves again over a version its own run
   * still owns.
   */
  conflicted(live: LiveTask): void;
  /**
   * SubscribeToTask for a task the caller may reach (checked before): the
   * stored snapshot as the first frame, then every event stored after it, in
   * order, until a terminal frame or `signal` aborts, wherever the task runs.
   */
  subscribe(taskId: string, scope: string, signal: AbortSignal): AsyncGenerator<StreamResponse[]>;
}
