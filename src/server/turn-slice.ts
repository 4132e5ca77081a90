/**
 * How much of one event-loop turn stream work may take. A skill that writes
 * in a tight loop, and the SSE writer that encodes what it wrote, run on
 * microtasks only: left alone, a long stream holds the loop until it ends,
 * and every other request waits (during one 100,000-event stream, echo calls
 * from other clients fell to ~15 % of their idle rate). Stream work asks
 * `overSlice()` before going on; once this turn has spent `TURN_SLICE_MS` on
 * stream work since its first piece, the work waits for the next turn
 * (`nextTurn()`), after the I/O other requests are waiting on. One clock for
 * the process: ten streams share one slice, they do not get one each.
 */

/** Milliseconds of stream work per event-loop turn (docs/decisions.md S252). */
export const TURN_SLICE_MS = 0.1;

let started: number | undefined;
const endTurn = () => {
  started = undefined;
};

/** True once this turn's stream work took its slice; the first call of a turn starts the clock. */
export function overSlice(): boolean {
  const now = performance.now();
  if (started === undefined) {
    started = now;
    setImmediate(endTurn);
    return false;
  }
  return now - started >= TURN_SLICE_MS;
}

/** Resolves in the next turn of the event loop, after pending I/O. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
