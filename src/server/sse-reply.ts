/**
 * A handler's stream as an SSE reply. The first frame is awaited before the
 * reply exists, so an error raised before it (unknown task, version,
 * extension…) reaches the binding as an ordinary error response; an error
 * after it becomes one last `event: error` and ends the stream. When the
 * adapter stops reading (the client went away) the call detaches: the
 * handler lets go of the task at once and the task goes on.
 */
import { SSE_MEDIA_TYPE } from "../a2a/constants.js";
import { encodeSseEvent } from "../a2a/sse.js";
import type { HttpStreamReply } from "./http-exchange.js";
import { detachable } from "./http-json/detachable-stream.js";
import { replyHeaders, type ServerCall } from "./server-call.js";

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": SSE_MEDIA_TYPE,
  "cache-control": "no-cache",
  // Tells nginx-style proxies not to buffer the stream.
  "x-accel-buffering": "no",
};

export interface SseEncoding<F> {
  /** The `data:` of one frame. */
  frame(frame: F): string;
  /** The `data:` of the `event: error` that ends a failed stream. */
  error(error: unknown): string;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** Rejects with the handler's error when the stream fails before its first frame. */
export async function sseReply<F>(
  stream: AsyncIterable<F>,
  call: ServerCall,
  encoding: SseEncoding<F>,
): Promise<HttpStreamReply> {
  const frames = detachable(stream, call.context.signal);
  let pending: IteratorResult<F> | undefined = await frames.next();
  let finished = false;
  const finish = () => {
    finished = true;
    call.close();
  };
  const chunks: AsyncIterableIterator<string> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (finished) return DONE;
      try {
        const next = pending ?? (await frames.next());
        pending = undefined;
        if (!next.done) return { done: false, value: encodeSseEvent(encoding.frame(next.value)) };
        finish();
        return DONE;
      } catch (error) {
        finish();
        return { done: false, value: encodeSseEvent(encoding.error(error), { event: "error" }) };
      }
    },
    async return() {
      if (!finished) {
        finish();
        call.detach();
      }
      return DONE;
    },
  };
  return { kind: "stream", status: 200, headers: replyHeaders(SSE_HEADERS, call.context.responseHeaders), chunks };
}
