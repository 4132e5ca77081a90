/**
 * A run's event history as the NovaOS Gateway pages it. The two event routes
 * answer two shapes (openapi/observability.yaml): the service route
 * `{events, next_cursor, request_id}` with an opaque cursor, the user route
 * `{events}` with no cursor at all; its next page starts after the
 * `sequence` of the last event received, so that is the cursor read from
 * it, and only a page that comes back empty ends the history.
 */
import {
  arrayField,
  isRecord,
  type JsonRecord,
  optionalNumber,
  optionalRecord,
  optionalString,
  stringField,
} from "../http/json-fields.js";

export interface RunEvent {
  /** The event's id; "" on the user route, which sends none. */
  eventId: string;
  /** `status`, `tool.call`, `tool.result`, `message.final`, ... */
  type: string;
  data: Record<string, unknown>;
  timestamp: string;
  /** The per-run order; absent from older platform builds. */
  sequence: number | undefined;
  /** The W3C trace id stored with the event, when the platform build stores one. */
  traceId: string | undefined;
  spanId: string | undefined;
}

function runEvent(value: unknown): RunEvent | undefined {
  if (!isRecord(value)) return undefined;
  return {
    eventId: stringField(value.event_id),
    type: stringField(value.type),
    data: optionalRecord(value.data) ?? {},
    timestamp: stringField(value.timestamp),
    sequence: optionalNumber(value.sequence),
    traceId: optionalString(value.trace_id),
    spanId: optionalString(value.span_id),
  };
}

export class RunEventsPage {
  constructor(
    readonly events: RunEvent[],
    /** Pass as `after` for the next page; undefined once there is none. */
    readonly nextCursor: string | undefined,
    /** The service route's id for support correlation; "" from the user route. */
    readonly requestId: string,
  ) {}

  /** A page of the service route. */
  static fromServiceRoute(json: JsonRecord): RunEventsPage {
    return new RunEventsPage(
      arrayField(json.events, runEvent),
      optionalString(json.next_cursor) || undefined,
      stringField(json.request_id),
    );
  }

  /**
   * A page of the user route: its cursor is the last event's `sequence`, the
   * cursor format the service route uses too; undefined only once a page
   * comes back empty (or its last event has no sequence), so a loop on
   * `nextCursor` ends with one empty request.
   */
  static fromUserRoute(json: JsonRecord): RunEventsPage {
    const events = arrayField(json.events, runEvent);
    const last = events.at(-1)?.sequence;
    return new RunEventsPage(events, last === undefined ? undefined : String(last), "");
  }
}
