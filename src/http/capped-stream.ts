/**
 * Bounds on a response body that another library reads (the `openai`
 * package reads the LLM Gateway's answers itself): the body is handed over
 * as a stream that errors with BodyTooLargeError as soon as the bound is
 * passed, and the source is cancelled, so nothing past the bound is kept
 * and the connection is released. `maxBytes` bounds a whole body;
 * `maxLineBytes` bounds each line of an endless one (an event stream), so a
 * stream may run as long as it likes but never holds more than one line.
 */
import { BodyTooLargeError } from "./capped-body.js";

const NEWLINE = 0x0a;

export interface StreamBound {
  /** The whole body's bytes at most. */
  readonly maxBytes?: number | undefined;
  /** Bytes between two line feeds at most. */
  readonly maxLineBytes?: number | undefined;
}

export function boundedBody(body: ReadableStream<Uint8Array>, bound: StreamBound): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let total = 0;
  /** Bytes of the current line so far. */
  let line = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        controller.error(error);
        return;
      }
      if (next.done) {
        controller.close();
        return;
      }
      const chunk = next.value;
      total += chunk.byteLength;
      let over = bound.maxBytes !== undefined && total > bound.maxBytes ? bound.maxBytes : undefined;
      if (over === undefined && bound.maxLineBytes !== undefined) {
        let start = 0;
        for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
          if (line + end - start > bound.maxLineBytes) break;
          line = 0;
          start = end + 1;
        }
        line += chunk.byteLength - start;
        if (line > bound.maxLineBytes) over = bound.maxLineBytes;
      }
      if (over !== undefined) {
        controller.error(new BodyTooLargeError(over));
        await reader.cancel().catch(() => undefined);
        return;
      }
      controller.enqueue(chunk);
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}
