import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { NovaOSConnectionError } from "../../src/errors/novaos-errors.js";
import { CallScope, CallTimeoutError } from "../../src/http/call-scope.js";

describe("CallScope", () => {
  it("is aborted with the caller's reason, which is the call's error", () => {
    const controller = new AbortController();
    const scope = new CallScope(controller.signal, undefined);
    expect(scope.abortError()).toBeUndefined();
    const reason = new Error("mine");
    controller.abort(reason);
    expect(scope.signal.aborted).toBe(true);
    expect(scope.abortError()).toBe(reason);
    scope.dispose();
  });

  it("starts aborted when the caller's signal already is", () => {
    const scope = new CallScope(AbortSignal.abort("early"), 1000);
    expect(scope.abortError()).toBe("early");
    scope.dispose();
  });

  it("turns its deadline into a retryable NovaOSConnectionError", async () => {
    const scope = new CallScope(undefined, 5);
    await new Promise((resolve) => scope.signal.addEventListener("abort", resolve));
    const error = scope.abortError() as NovaOSConnectionError;
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect(error.isRetryable).toBe(true);
    expect(error.cause).toBeInstanceOf(CallTimeoutError);
    expect(error.details.timeoutMs).toBe(5);
    scope.dispose();
  });

  it("leaves no listener on the caller's signal and no timer once disposed", () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    const controller = new AbortController();
    const scope = new CallScope(controller.signal, 60_000);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    expect(timers()).toBe(before + 1);
    scope.dispose();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    expect(timers()).toBe(before);
  });

  it("a timeout of 0 means no deadline", () => {
    using scope = new CallScope(undefined, 0);
    expect(scope.signal.aborted).toBe(false);
  });
});
