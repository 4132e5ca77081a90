/**
 * The turn slice: the first piece of stream work in a turn starts its clock,
 * and work done outside the slice's pieces (a burst's write to the socket) is
 * taken from the next turn's slice, once.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { chargeSlice, nextTurn, overSlice, TURN_SLICE_MS } from "../../src/server/turn-slice.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A clock that only moves when told to. */
function stoppedClock(): { advance(ms: number): void } {
  let now = 1000;
  vi.spyOn(performance, "now").mockImplementation(() => now);
  return {
    advance(ms) {
      now += ms;
    },
  };
}

describe("turn slice", () => {
  it("lets the first piece of a turn go and stops stream work once the slice is spent", async () => {
    const clock = stoppedClock();
    await nextTurn();
    expect(overSlice()).toBe(false);
    expect(overSlice()).toBe(false);
    clock.advance(TURN_SLICE_MS);
    expect(overSlice()).toBe(true);
    await nextTurn();
    expect(overSlice()).toBe(false);
    expect(overSlice()).toBe(false);
  });

  it("takes charged work from the next turn's slice, once (decision S719)", async () => {
    const clock = stoppedClock();
    await nextTurn();
    chargeSlice(() => clock.advance(2 * TURN_SLICE_MS));
    await nextTurn();
    // The first piece of a turn always goes, so a stream moves however much it owes.
    expect(overSlice()).toBe(false);
    expect(overSlice()).toBe(true);
    await nextTurn();
    expect(overSlice()).toBe(false);
    expect(overSlice()).toBe(false);
  });

  it("runs the charged work", () => {
    const work = vi.fn();
    chargeSlice(work);
    expect(work).toHaveBeenCalledOnce();
  });
});
