/**
 * Streams that can also hand out their frames in batches: an optional
 * capability of the streams an `A2ARequestHandler` returns. Frame by frame
 * they are ordinary async iterables (what every binding reads); a binding
 * that can write several frames at once (SSE) asks for the batches instead,
 * and pays one await per batch instead of several per frame. A stream is
 * consumed once, one way or the other.
 */

export const FRAME_BATCHES: unique symbol = Symbol.for("@novaos/client-sdk/frame-batches");

export interface BatchedFrames<F> extends AsyncIterable<F> {
  /** The frames, in order, as batches of whatever was ready together. Never empty batches. */
  [FRAME_BATCHES](): AsyncIterator<readonly F[], void, undefined>;
}

export function hasFrameBatches<F>(stream: AsyncIterable<F>): stream is BatchedFrames<F> {
  return typeof (stream as Partial<BatchedFrames<F>>)[FRAME_BATCHES] === "function";
}

/** A stream over `open()`'s batches, readable either way (once). */
export function batchedFrames<F>(open: () => AsyncGenerator<readonly F[], void, undefined>): BatchedFrames<F> {
  let consumed = false;
  const take = () => {
    if (consumed) throw new TypeError("This stream has already been read");
    consumed = true;
    return open();
  };
  return {
    [FRAME_BATCHES]: take,
    async *[Symbol.asyncIterator]() {
      for await (const batch of take()) yield* batch;
    },
  };
}
