/**
 * Reading a handler's stream so that the caller going away lets go of it at
 * once. An async generator's `return()` waits for the frame it is awaiting,
 * which for a quiet task can be minutes; here the abort resolves the pending
 * `next()` as done immediately and calls the source's `return()` so the
 * handler unsubscribes. Detaching never cancels the task (ServerCallContext).
 */

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** Iterates `source` until it ends, fails, or `signal` aborts (then it is done and the source is returned). */
export function detachable<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  let wake: (result: IteratorResult<T>) => void = () => undefined;
  const detached = new Promise<IteratorResult<T>>((resolve) => {
    wake = resolve;
  });

  const settle = () => {
    finished = true;
    signal.removeEventListener("abort", detach);
  };
  function detach() {
    if (finished) return;
    settle();
    wake(DONE);
    // The source may still be awaiting its next frame: its cleanup runs when that settles.
    Promise.resolve()
      .then(() => iterator.return?.())
      .catch(() => undefined);
  }

  if (signal.aborted) detach();
  else signal.addEventListener("abort", detach, { once: true });

  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (finished) return DONE;
      let result: IteratorResult<T>;
      try {
        result = await Promise.race([iterator.next(), detached]);
      } catch (error) {
        settle();
        throw error;
      }
      if (result.done) settle();
      return result;
    },
    async return() {
      detach();
      return DONE;
    },
  };
}
