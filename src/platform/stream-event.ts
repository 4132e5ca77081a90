/**
 * `StreamEvent`: one event of an Execution Gateway run stream, and the one
 * place that decides when a run is over.
 *
 * The gateway sends every event as `event: message` with a JSON body
 * `{type, payload, run_id, sequence, timestamp}`; `message.delta` surfaces as
 * `chunk`, every other type (known or not) under its own name. The legacy
 * `event: chunk|done|error` form is read too.
 *
 * Branch on `isTerminal` / `isFailure`, never on `type === "done"`: a run
 * also ends as a `status` event carrying a terminal run status (that is how a
 * replayed or late-failing run reports its end). `WAITING_USER` is a pause,
 * and a status string outside the run lifecycle is agent progress sharing
 * the event type — neither ends anything.
 */

import type { components } from "../../gen/openapi/gateway.js";
import { isJsonObject } from "../a2a/json-object.js";
import type { SseEvent } from "../a2a/sse.js";
import { NovaOSServerError } from "../errors/novaos-errors.js";

export type RunStatus = components["schemas"]["RunStatus"];
/** The wire form of an `event: message` body. */
export type GatewayEventJson = components["schemas"]["GatewayEvent"];

/** Run statuses after which no event follows. */
export const TERMINAL_RUN_STATUSES: ReadonlySet<string> = new Set<RunStatus>(["COMPLETED", "FAILED", "CANCELLED"]);
/** Terminal run statuses that are not a success: a UI must never show these as done. */
export const FAILED_RUN_STATUSES: ReadonlySet<string> = new Set<RunStatus>(["FAILED", "CANCELLED"]);

/** The SSE event name of the current format; anything else is a legacy or gateway-specific name. */
const MESSAGE_EVENT = "message";
/** The type `message.delta` is surfaced as, and the legacy event name for it. */
export const CHUNK_EVENT_TYPE = "chunk";

/** A string payload is the content; else `payload.content`, else `payload.message` (see docs/decisions.md). */
function contentOf(payload: unknown): string | undefined {
  if (typeof payload === "string") return payload;
  if (!isJsonObject(payload)) return undefined;
  if (typeof payload.content === "string") return payload.content;
  return typeof payload.message === "string" ? payload.message : undefined;
}

function timestampOf(value: unknown): string | undefined {
  return typeof value === "number" || typeof value === "string" ? String(value) : undefined;
}

export interface StreamEventInit {
  type: string;
  content?: string | undefined;
  timestamp?: string | undefined;
  status?: string | undefined;
  id?: string | undefined;
  payload?: unknown;
  runId?: string | undefined;
  sequence?: number | undefined;
}

export class StreamEvent {
  /** `chunk`, `message.final`, `done`, `error`, `status`, `hitl`, or any type the gateway adds. */
  readonly type: string;
  /** The text: a chunk, the final message, an error message, agent progress. */
  readonly content: string | undefined;
  /** Milliseconds since the epoch, as a string. */
  readonly timestamp: string | undefined;
  /** For a `status` event that names one, the run status it reports; undefined otherwise. */
  readonly status: string | undefined;
  /**
   * The SSE `id:` of this event: the cursor to resume after (`Last-Event-ID`).
   * Not the JSON `sequence`, which is a different counter on some streams.
   */
  readonly id: string | undefined;
  /** The type-specific payload, untouched (e.g. a `hitl` prompt or a `tool.call`). */
  readonly payload: unknown;
  readonly runId: string | undefined;
  /** Ordering metadata only; never a resume cursor. */
  readonly sequence: number | undefined;

  constructor(init: StreamEventInit) {
    this.type = init.type;
    this.content = init.content;
    this.timestamp = init.timestamp;
    this.status = init.status;
    this.id = init.id;
    this.payload = init.payload;
    this.runId = init.runId;
    this.sequence = init.sequence;
  }

  /** No further event will arrive for this run: `done`, `error`, or `status` with COMPLETED / FAILED / CANCELLED. */
  get isTerminal(): boolean {
    if (this.type === "done" || this.type === "error") return true;
    return this.type === "status" && this.status !== undefined && TERMINAL_RUN_STATUSES.has(this.status);
  }

  /** The run ended without succeeding: `error`, or `status` with FAILED / CANCELLED. */
  get isFailure(): boolean {
    if (this.type === "error") return true;
    return this.type === "status" && this.status !== undefined && FAILED_RUN_STATUSES.has(this.status);
  }

  /**
   * Reads one SSE event. An `event: message` whose data is not a JSON object
   * with a string `type` is a gateway fault (NovaOSServerError, not
   * retryable): skipping it would silently lose an event.
   */
  static fromSse(event: SseEvent): StreamEvent {
    const name = event.event ?? MESSAGE_EVENT;
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      json = undefined;
    }
    if (name !== MESSAGE_EVENT) {
      // Legacy `chunk|done|error`, or a gateway-specific event name: data is JSON or plain text.
      const payload = json === undefined ? event.data : json;
      return new StreamEvent({
        type: name,
        content: contentOf(payload),
        timestamp: isJsonObject(json) ? timestampOf(json.timestamp) : undefined,
        id: event.id,
        payload,
      });
    }
    if (!isJsonObject(json) || typeof json.type !== "string" || json.type === "") {
      throw new NovaOSServerError("The Execution Gateway sent an event that is not a JSON object with a type", {
        details: { data: event.data.slice(0, 1024), id: event.id },
      });
    }
    const payload = json.payload;
    const status =
      json.type === "status" && isJsonObject(payload) && typeof payload.status === "string"
        ? payload.status
        : undefined;
    return new StreamEvent({
      type: json.type === "message.delta" ? CHUNK_EVENT_TYPE : json.type,
      content: contentOf(payload),
      timestamp: timestampOf(json.timestamp),
      status,
      id: event.id,
      payload,
      runId: typeof json.run_id === "string" ? json.run_id : undefined,
      sequence: typeof json.sequence === "number" ? json.sequence : undefined,
    });
  }
}
