/**
 * Server-Sent Events framing for the streaming methods (spec §9.4.2, §11.7).
 * Encoding is one `data:` line per event (JSON never contains a raw newline);
 * decoding is `eventsource-parser` with a cap on the size of one event, so a
 * peer that never ends an event cannot exhaust memory.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { bodyChunks } from "./body-chunks.js";

/** One event larger than this is refused. See docs/decisions.md. */
export const DEFAULT_MAX_SSE_EVENT_BYTES = 10 * 1024 * 1024;

export interface SseEvent {
  data: string;
  event?: string | undefined;
  id?: string | undefined;
}

export class SseEventTooLargeError extends Error {
  override readonly name = "SseEventTooLargeError";
  constructor(readonly maxEventBytes: number) {
    super(`SSE event exceeds ${maxEventBytes} bytes`);
  }
}

/** `[event: …\n][id: …\n]data: …\n\n`. `data` must not contain a newline (JSON from JSON.stringify never does). */
export function encodeSseEvent(data: string, fields: { event?: string; id?: string } = {}): string {
  let out = "";
  if (fields.event !== undefined) out += `event: ${fields.event}\n`;
  if (fields.id !== undefined) out += `id: ${fields.id}\n`;
  return `${out}data: ${data}\n\n`;
}

export interface SseDecoderOptions {
  maxEventBytes?: number;
}

export interface SseDecoder {
  /** Feeds raw bytes (UTF-8, split anywhere) and returns the events they completed. */
  feed(chunk: Uint8Array): SseEvent[];
}

/**
 * An incremental decoder. The cap counts the bytes fed since the last
 * completed event, so an oversized event is caught while it is still
 * arriving (within one chunk), not after it was buffered whole.
 */
export function createSseDecoder(options: SseDecoderOptions = {}): SseDecoder {
  const cap = options.maxEventBytes ?? DEFAULT_MAX_SSE_EVENT_BYTES;
  const text = new TextDecoder();
  let completed: SseEvent[] = [];
  let pending = 0;
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      if (message.data.length > cap) throw new SseEventTooLargeError(cap);
      completed.push({ data: message.data, event: message.event, id: message.id });
    },
  });
  return {
    feed(chunk) {
      pending += chunk.byteLength;
      parser.feed(text.decode(chunk, { stream: true }));
      if (completed.length > 0) pending = 0;
      if (pending > cap) throw new SseEventTooLargeError(cap);
      const out = completed;
      completed = [];
      return out;
    },
  };
}

/**
 * Reads the events of a response body. Leaving the loop early (break,
 * return, throw) cancels the body, which releases the connection.
 */
export async function* readSseEvents(
  body: ReadableStream<Uint8Array>,
  options: SseDecoderOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const decoder = createSseDecoder(options);
  for await (const chunk of bodyChunks(body)) yield* decoder.feed(chunk);
}
