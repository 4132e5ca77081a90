/**
 * Run observability (openapi/observability.yaml) of the local platform: the
 * event log of the gateway's own runs, paged on both routes, and debug
 * control of a live run.
 *
 * An event's position in the run's log (1-based) is its `sequence`, its
 * `event_id` and the cursor after it, so both routes page one history the
 * same way and a reader sees new events as the run goes on. The service
 * route honours `limit` (default 100) and answers `next_cursor` null once a
 * page reaches the end of a finished run, or comes back empty from a live
 * one (ask again later with the last cursor); the user route answers pages of
 * 100 and ends with an empty page. Runs belong to tenants as at the gateway.
 *
 * Debug control: a live run has a session, `running` until paused. `pause`,
 * `resume` and `step` (only while paused, else 409) change the session and
 * are logged in the run as `debug` events; the agent itself is not held (A2A
 * has no breakpoints). `abort` ends the run CANCELLED at once. A finished run
 * has no live session (404).
 */
import { randomUUID } from "node:crypto";
import type { components } from "../../gen/openapi/observability.js";
import type { GatewayService } from "./gateway-service.js";
import type { Run, RunEvent } from "./run.js";
import { type OperationHandler, PlatformReplyError } from "./spec-router.js";

type Schemas = components["schemas"];
type DebugAction = Schemas["DebugAction"];
type BreakpointState = Schemas["DebugControlResult"]["breakpoint_state"];

/** The service route's page size when the caller gives no `limit`, and the user route's fixed page size. */
export const RUN_EVENTS_PAGE_SIZE = 100;

interface DebugSession {
  readonly id: string;
  state: "running" | "paused";
}

function data(event: RunEvent): Record<string, unknown> {
  const { payload } = event;
  if (payload !== null && typeof payload === "object" && !Array.isArray(payload)) {
    return payload as Record<string, unknown>;
  }
  return payload === undefined ? {} : { value: payload };
}

/** The position a cursor names in `run`'s log, or a 400. */
function position(run: Run, after: unknown): number {
  if (after === undefined) return 0;
  const at = /^(0|[1-9][0-9]*)$/.test(String(after)) ? Number(after) : Number.NaN;
  if (!(at <= run.events.length)) {
    throw new PlatformReplyError(
      400,
      "invalid_cursor",
      `after ${JSON.stringify(after)} is not a cursor of run ${run.id}`,
    );
  }
  return at;
}

export class ObservabilityService {
  readonly #gateway: GatewayService;
  readonly #sessions = new Map<string, DebugSession>();

  constructor(gateway: GatewayService) {
    this.#gateway = gateway;
  }

  handlers(): Record<string, OperationHandler> {
    return {
      getServiceRunEvents: ({ params, query, headers }) => {
        const run = this.#gateway.runOf(params.runId as string, this.#gateway.tenantOf(headers));
        const from = position(run, query.after);
        const limit = typeof query.limit === "number" ? query.limit : RUN_EVENTS_PAGE_SIZE;
        const events = run.events.slice(from, from + limit).map((event, i) => ({
          event_id: String(from + i + 1),
          type: event.type,
          data: data(event),
          timestamp: new Date(event.timestamp).toISOString(),
          sequence: from + i + 1,
        }));
        const end = from + events.length;
        const last = events.length === 0 || (run.closed && end === run.events.length);
        return {
          status: 200,
          body: { events, next_cursor: last ? null : String(end), request_id: randomUUID() },
        };
      },
      getUserRunEvents: ({ params, query, headers }) => {
        const run = this.#gateway.runOf(params.runId as string, this.#gateway.tenantOf(headers));
        const from = position(run, query.after);
        const events = run.events.slice(from, from + RUN_EVENTS_PAGE_SIZE).map((event, i) => ({
          type: event.type,
          data: data(event),
          timestamp: new Date(event.timestamp).toISOString(),
          sequence: from + i + 1,
        }));
        return { status: 200, body: { events } };
      },
      sendDebugControl: ({ params, headers, body }) => {
        const run = this.#gateway.runOf(params.runId as string, this.#gateway.tenantOf(headers));
        const action = params.action as DebugAction;
        const metadata = (body as Schemas["DebugControlRequest"] | undefined)?.metadata;
        return { status: 200, body: this.#control(run, action, metadata) };
      },
    };
  }

  #control(run: Run, action: DebugAction, metadata: Record<string, unknown> | undefined) {
    if (run.closed) {
      this.#sessions.delete(run.id);
      throw new PlatformReplyError(404, "no_debug_session", `Run ${run.id} has ended`);
    }
    let session = this.#sessions.get(run.id);
    if (!session) {
      session = { id: `dbg_${randomUUID()}`, state: "running" };
      this.#sessions.set(run.id, session);
    }
    if (action === "step" && session.state !== "paused") {
      throw new PlatformReplyError(409, "not_paused", `Run ${run.id} is running: pause it before a step`);
    }
    let state: BreakpointState = session.state;
    if (action === "pause") state = session.state = "paused";
    else if (action === "resume") state = session.state = "running";
    else if (action === "abort") state = "aborted";
    run.append("debug", { action, state, session_id: session.id, ...(metadata ? { metadata } : {}) });
    if (action === "abort") {
      this.#sessions.delete(run.id);
      run.setStatus("CANCELLED", "aborted by debug control");
    }
    return { session_id: session.id, run_id: run.id, breakpoint_state: state, action };
  }
}
