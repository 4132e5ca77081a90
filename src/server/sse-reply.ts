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
import { detachable } from "./detachable-stream.js";
import { FRAME_BATCHES, hasFrameBatches } from "./frame-batches.js";
import type { HttpStreamReply } from "./http-exchange.js";
import type { ServerCall } from "./server-call.js";

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
  // A batching stream lets go of its task on the call's signal itself; any other is made detachable here.
  const batches = hasFrameBatches(stream) ? stream[FRAME_BATCHES]() : singleFrames(detachable(stream, call.signal));
  let pending: IteratorResult<readonly F[], void> | undefined = await batches.next();
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
      let out = "";
      try {
        const next = pending ?? (await batches.next());
        pending = undefined;
        if (next.done) {
          finish();
          return DONE;
        }
        // Every frame of a batch is still its own event; they only share a write.
        for (const frame of next.value) out += encodeSseEvent(encoding.frame(frame));
        return { done: false, value: out };
      } catch (error) {
        finish();
        return { done: false, value: out + encodeSseEvent(encoding.error(error), { event: "error" }) };
      }
    },
    async return() {
      if (!finished) {
        finish();
        call.detach();
        batches.return?.().catch(() => undefined);
      }
      return DONE;
    },
  };
  return { kind: "stream", status: 200, headers: call.replyHeaders(SSE_HEADERS), chunks };
}

/** Frames as one-frame batches. */
function singleFrames<F>(frames: AsyncIterator<F>): AsyncIterator<readonly F[], void, undefined> {
  return {
    async next() {
      const next = await frames.next();
      return next.done ? DONE : { done: false, value: [next.value] };
    },
    async return() {
      await frames.return?.();
      return DONE;
    },
  };
}
