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
 *
 * Stream work that asks no `overSlice()` (a burst's write to the socket,
 * where the kernel copies the bytes, or TLS encrypts them) runs through
 * `chargeSlice()`: its time is taken from the next slice, so a slice bounds
 * all of a stream's work in a turn, not only its encoding (docs/decisions.md
 * S719).
 */

/** Milliseconds of stream work per event-loop turn (docs/decisions.md S252). */
export const TURN_SLICE_MS = 0.1;

let started: number | undefined;
/** Stream work done outside a slice since the last one started, ms. */
let owed = 0;
const endTurn = () => {
  started = undefined;
};

/** True once this turn's stream work took its slice; the first call of a turn starts the clock. */
export function overSlice(): boolean {
  const now = performance.now();
  if (started === undefined) {
    started = now - owed;
    owed = 0;
    setImmediate(endTurn);
    return false;
  }
  return now - started >= TURN_SLICE_MS;
}

/** Runs stream work that asks no `overSlice()` and takes its time from the next slice. */
export function chargeSlice(work: () => void): void {
  const from = performance.now();
  work();
  owed += performance.now() - from;
}

/** Resolves in the next turn of the event loop, after pending I/O. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
