/**
 * The SSE half shared by the two HTTP bindings: a `text/event-stream` body
 * read as capped events (src/a2a/sse.ts), each event's `data` handed to the
 * binding's frame reader. Blank events (keep-alives) are skipped. A body that
 * breaks off is a NovaOSConnectionError; an oversized event is the agent's
 * fault (-32006). Leaving the loop early cancels the body, which closes the
 * connection.
 */
import type { StreamResponse } from "../../gen/a2a_pb.js";
import { SSE_MEDIA_TYPE } from "../a2a/constants.js";
import { InvalidAgentResponseError } from "../a2a/errors.js";
import { readSseEvents, type SseEvent, SseEventTooLargeError } from "../a2a/sse.js";
import { NovaOSError } from "../errors/novaos-errors.js";
import { connectionError } from "./http-errors.js";

export function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").toLowerCase().startsWith(SSE_MEDIA_TYPE);
}

/** Parses an event's data as JSON; anything else is an invalid reply. */
export function parseEventJson(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    throw new InvalidAgentResponseError("A stream event is not valid JSON", {
      details: { data: event.data.slice(0, 1024) },
    });
  }
}

export async function* readFrames(
  response: Response,
  readFrame: (event: SseEvent) => StreamResponse,
  maxEventBytes: number | undefined,
): AsyncGenerator<StreamResponse, void, undefined> {
  const body = response.body;
  if (body === null) return;
  try {
    for await (const event of readSseEvents(body, maxEventBytes === undefined ? {} : { maxEventBytes })) {
      if (event.data.trim() === "") continue;
      yield readFrame(event);
    }
  } catch (e) {
    if (e instanceof NovaOSError) throw e;
    if (e instanceof SseEventTooLargeError) throw new InvalidAgentResponseError(e.message, { cause: e });
    throw connectionError(e, response.url);
  }
}
