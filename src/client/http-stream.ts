/**
 * The SSE half shared by the two HTTP bindings: a `text/event-stream` body
 * read through the protocol layer's capped decoder, each event's `data`
 * handed to the binding's frame reader, and the frames of one network read
 * yielded together. Blank events (keep-alives) are skipped. A body that
 * breaks off is a NovaOSConnectionError; an oversized event is the agent's
 * fault (-32006). Leaving the loop early cancels the body, which closes the
 * connection.
 */
import type { StreamResponse } from "../../gen/a2a_pb.js";
import { bodyChunks } from "../a2a/body-chunks.js";
import { SSE_MEDIA_TYPE } from "../a2a/constants.js";
import { InvalidAgentResponseError } from "../a2a/errors.js";
import { createSseDecoder, type SseEvent, SseEventTooLargeError } from "../a2a/sse.js";
import { connectionError } from "../http/transport-failure.js";

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
  readFrame: (event: SseEvent) => StreamResponse | Promise<StreamResponse>,
  maxEventBytes: number | undefined,
): AsyncGenerator<readonly StreamResponse[], void, undefined> {
  const body = response.body;
  if (body === null) return;
  const decoder = createSseDecoder(maxEventBytes === undefined ? {} : { maxEventBytes });
  try {
    for await (const chunk of bodyChunks(body)) {
      // Frames that arrived before a bad one are still delivered, then its error is thrown.
      const frames: StreamResponse[] = [];
      let failed = false;
      let failure: unknown;
      for (const event of decoder.feed(chunk)) {
        if (event.data.trim() === "") continue;
        try {
          const frame = readFrame(event);
          // A promise only where a frame takes the reflective path: the usual frame costs no await.
          frames.push(frame instanceof Promise ? await frame : frame);
        } catch (e) {
          failed = true;
          failure = e;
          break;
        }
      }
      if (frames.length > 0) yield frames;
      if (failed) throw failure;
    }
  } catch (e) {
    if (e instanceof SseEventTooLargeError) throw new InvalidAgentResponseError(e.message, { cause: e });
    throw connectionError(e, response.url);
  }
}
