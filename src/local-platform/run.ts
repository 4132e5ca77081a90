/**
 * One run of the local Execution Gateway: its status, its output and the
 * append-only log of its events. The SSE `id` of an event is its 1-based
 * position in the log, so `Last-Event-ID: n` resumes strictly after the
 * n-th event, and a subscriber reads every event exactly once however often
 * it reconnects. The JSON `sequence` counts the events of one connection
 * (from 1), as the spec says: it orders, it never resumes.
 */
import type { components } from "../../gen/openapi/gateway.js";
import type { SseFrame } from "./spec-router.js";

export type RunStatus = components["schemas"]["RunStatus"];

/** Statuses after which the log is closed. */
export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set<RunStatus>(["COMPLETED", "FAILED", "CANCELLED"]);

export interface RunEvent {
  readonly type: string;
  readonly payload?: unknown;
  readonly timestamp: number;
}

export interface RunArtifact {
  artifact_id: string;
  name?: string;
  text?: string;
  data?: Record<string, unknown>;
}

export class Run {
  readonly id: string;
  readonly instanceId: string;
  readonly tenantId: string;
  readonly createdAt = new Date();
  updatedAt = new Date();
  status: RunStatus = "QUEUED";
  output: string | undefined;
  /** The A2A task the run drives (set by its first frame). */
  taskId: string | undefined;
  contextId: string | undefined;
  readonly artifacts = new Map<string, RunArtifact>();
  readonly #events: RunEvent[] = [];
  #closed = false;
  #wake: (() => void) | undefined;
  #changed: Promise<void>;

  constructor(id: string, instanceId: string, tenantId: string) {
    this.id = id;
    this.instanceId = instanceId;
    this.tenantId = tenantId;
    this.#changed = this.#nextChange();
  }

  #nextChange(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }

  /** The events so far. */
  get events(): readonly RunEvent[] {
    return this.#events;
  }

  /** True once a terminal event is in the log. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Appends an event (ignored once the log is closed); `terminal` closes the log after it. */
  append(type: string, payload?: unknown, terminal = false): void {
    if (this.#closed) return;
    this.#events.push({ type, ...(payload !== undefined ? { payload } : {}), timestamp: Date.now() });
    this.updatedAt = new Date();
    if (terminal) this.#closed = true;
    const wake = this.#wake;
    this.#changed = this.#nextChange();
    wake?.();
  }

  /** Moves the run to `status` and logs a `status` event (terminal statuses close the log; a closed run stays as it ended). */
  setStatus(status: RunStatus, message?: string): void {
    if (this.#closed) return;
    this.status = status;
    this.append("status", { status, ...(message ? { message } : {}) }, TERMINAL_STATUSES.has(status));
  }

  /**
   * The events after position `after` (0 for all), then the ones still to
   * come, until the log closes or `signal` aborts.
   */
  async *frames(after: number, signal: AbortSignal): AsyncGenerator<SseFrame, void, undefined> {
    let position = after;
    let sequence = 0;
    const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    while (!signal.aborted) {
      while (position < this.#events.length) {
        const event = this.#events[position] as RunEvent;
        position++;
        sequence++;
        yield { id: String(position), data: { ...event, run_id: this.id, sequence } };
      }
      if (this.#closed) return;
      await Promise.race([this.#changed, aborted]);
    }
  }
}
