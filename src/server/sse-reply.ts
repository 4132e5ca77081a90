/**
 * A handler's stream as an SSE reply. The first frame is awaited before the
 * reply exists, so an error raised before it (unknown task, version,
 * extension…) reaches the binding as an ordinary error response; an error
 * after it becomes one last `event: error` and ends the stream. When the
 * adapter stops reading (the client went away) the call detaches: the
 * handler lets go of the task at once and the task goes on.
 *
 * The frames of a batch share a write, up to `SSE_CHUNK_CHARS` per write: a
 * batch a slow reader let pile up is written in bounded pieces, never joined
 * into one string (which past ~2M frames V8 cannot even make), and an event
 * larger than a chunk is cut into several.
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

/** UTF-16 code units one chunk (one socket write) holds at most: 64 KiB of ASCII, at most 192 KiB of UTF-8. */
export const SSE_CHUNK_CHARS = 64 * 1024;

/** Where to cut `text` to at most `max` units without splitting a surrogate pair. */
function cutAt(text: string, max: number): number {
  if (text.length <= max) return text.length;
  const last = text.charCodeAt(max - 1);
  return last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
}

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
  // The batch being written, the next frame of it, and what of an encoded event the last chunk had no room for.
  let frames: readonly F[] = [];
  let at = 0;
  let carry = "";
  const chunks: AsyncIterableIterator<string> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (finished) return DONE;
      let out = "";
      try {
        for (;;) {
          if (carry) {
            const cut = cutAt(carry, SSE_CHUNK_CHARS - out.length);
            out += carry.slice(0, cut);
            carry = carry.slice(cut);
            if (carry) return { done: false, value: out };
          }
          if (at === frames.length) {
            // A batch is written without waiting for the next one.
            if (out) return { done: false, value: out };
            const next = pending ?? (await batches.next());
            pending = undefined;
            if (next.done) {
              finish();
              return DONE;
            }
            frames = next.value;
            at = 0;
          }
          // Every frame of a batch is still its own event; they only share a write.
          const event = encodeSseEvent(encoding.frame(frames[at++] as F));
          if (out.length + event.length <= SSE_CHUNK_CHARS) out += event;
          else {
            // A full chunk goes out as it is; an event too big for a chunk of its own is cut at the loop's top.
            carry = event;
            if (out) return { done: false, value: out };
          }
        }
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
