/**
 * The one call context every binding builds: its signal and its response
 * headers are made only when read, the caller is watched only while someone
 * holds the signal and the call is open, and nothing stays attached once the
 * call closes or the caller leaves.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { PROTOCOL_BINDING_JSONRPC } from "../../src/a2a/constants.js";
import { type CallerWatch, ServerCall, watchSignal } from "../../src/server/server-call.js";

/** A caller the test can make leave, counting how often the call starts and stops watching it. */
function caller() {
  const state: { watches: number; unwatches: number; leave: (reason: unknown) => void } = {
    watches: 0,
    unwatches: 0,
    leave: () => undefined,
  };
  const watch: CallerWatch = (onGone) => {
    state.watches++;
    state.leave = onGone;
    return () => {
      state.unwatches++;
    };
  };
  return { state, watch };
}

const open = (watch: CallerWatch, responseHeaders?: Headers) =>
  new ServerCall(PROTOCOL_BINDING_JSONRPC, { "a2a-version": "1.0" }, watch, responseHeaders);

describe("ServerCall", () => {
  it("watches the caller only once its signal is read, and aborts it with the caller's reason", () => {
    const { state, watch } = caller();
    const call = open(watch);
    expect(state.watches).toBe(0);
    const signal = call.signal;
    expect(call.signal).toBe(signal);
    expect(state.watches).toBe(1);
    const reason = new Error("hung up");
    state.leave(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(state.unwatches).toBe(1);
  });

  it("stops watching at close; the signal then stays as it is", () => {
    const { state, watch } = caller();
    const call = open(watch);
    const signal = call.signal;
    call.close();
    call.close();
    expect(state.unwatches).toBe(1);
    expect(signal.aborted).toBe(false);
    // Read first after the call closed: the caller is not watched, and the signal is not aborted.
    const late = open(watch);
    late.close();
    expect(late.signal.aborted).toBe(false);
    expect(state.watches).toBe(1);
  });

  it("detaches on the binding's word, also after close and before anyone read the signal", () => {
    const { watch } = caller();
    const streamed = open(watch);
    const signal = streamed.signal;
    streamed.close();
    streamed.detach(new Error("the adapter stopped reading"));
    expect(signal.aborted).toBe(true);
    const unread = open(watch);
    unread.detach();
    expect(unread.signal.aborted).toBe(true);
  });

  it("makes response headers on demand, and answers the base headers themselves when none were set", () => {
    const call = open(caller().watch);
    const base = { "content-type": "application/json" };
    expect(call.replyHeaders(base)).toBe(base);
    call.responseHeaders.set("a2a-extensions", "https://ext.example/a");
    expect(call.replyHeaders(base)).toEqual({ ...base, "a2a-extensions": "https://ext.example/a" });
    const own = new Headers();
    expect(open(caller().watch, own).responseHeaders).toBe(own);
  });
});

describe("watchSignal", () => {
  it("reads the source's signal only when watching starts, and lets go of it", () => {
    const controller = new AbortController();
    let reads = 0;
    const source = {
      get signal() {
        reads++;
        return controller.signal;
      },
    };
    const call = open(watchSignal(source));
    expect(reads).toBe(0);
    const signal = call.signal;
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    call.close();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    expect([reads, signal.aborted]).toEqual([1, false]);
  });

  it("aborts at once for a source already aborted", () => {
    const call = open(watchSignal({ signal: AbortSignal.abort("gone") }));
    expect(call.signal.reason).toBe("gone");
  });
});
