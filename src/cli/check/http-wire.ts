/**
 * What the two HTTP bindings share in the check: one request with the
 * call's headers and deadline, the body read as JSON (or kept as text when
 * it is not), and an SSE body read event by event.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { readSseEvents } from "../../protocol/index.js";
import { isJsonObjectValue, type StreamItem, type WireError } from "./wire.js";

export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
  readonly text: string;
}

/** Reads a whole (non-stream) response. */
export async function readAnswer(response: Response): Promise<HttpAnswer> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", json, text };
}

export function notJsonError(answer: HttpAnswer): WireError {
  const preview = answer.text.slice(0, 80).replace(/\s+/g, " ");
  return {
    httpStatus: answer.status,
    message: `HTTP ${answer.status} ${answer.contentType || "(no content type)"}, not an A2A answer: ${JSON.stringify(preview)}`,
  };
}

export function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
}

/** SSE events as stream items: `read` turns one event's JSON into a frame or an error. */
export async function* sseItems(
  response: Response,
  read: (data: JsonObject, event: string | undefined) => StreamItem,
): AsyncGenerator<StreamItem> {
  if (!response.body) return;
  for await (const event of readSseEvents(response.body)) {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      yield { error: { message: `an SSE event is not JSON: ${JSON.stringify(event.data.slice(0, 80))}` } };
      return;
    }
    if (!isJsonObjectValue(data)) {
      yield { error: { message: "an SSE event is not a JSON object" } };
      return;
    }
    yield read(data, event.event);
  }
}
