import { context, createTraceState, propagation, TraceFlags, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  extractParentId,
  extractTraceId,
  getTraceparent,
  injectTraceHeaders,
  isValidTraceparent,
  propagateTrace,
} from "../../src/runtime/traceparent.js";

const VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const FROM_ENV = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
const ENV = { TRACEPARENT: FROM_ENV };
const SPAN = {
  traceId: "11111111111111111111111111111111",
  spanId: "2222222222222222",
  traceFlags: TraceFlags.SAMPLED,
};

/** Runs `fn` with a (non-recording) span active, as an instrumented server would. */
const withSpan = <T>(fn: () => T): T => context.with(trace.setSpanContext(context.active(), SPAN), fn);

// A context manager makes `context.with` real; no tracer provider is needed for span contexts.
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => context.disable());
afterEach(() => propagation.disable());

describe("isValidTraceparent", () => {
  it("accepts the W3C example and a later version's extra fields", () => {
    expect(isValidTraceparent(VALID)).toBe(true);
    expect(isValidTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")).toBe(true);
    expect(isValidTraceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09-what-the-future-holds")).toBe(
      true,
    );
  });

  it("refuses zero ids, version ff, upper case, wrong lengths, extra fields on version 00 and padding", () => {
    for (const value of [
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
      `${VALID}-extra`,
      `${VALID}x`,
      ` ${VALID}`,
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902bz-01",
      "",
    ]) {
      expect(isValidTraceparent(value), value).toBe(false);
    }
  });
});

describe("extractTraceId / extractParentId", () => {
  it("read the ids of a valid traceparent and nothing from an invalid one", () => {
    expect(extractTraceId(VALID)).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(extractParentId(VALID)).toBe("00f067aa0ba902b7");
    expect(extractTraceId("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBeUndefined();
    expect(extractParentId("not a traceparent")).toBeUndefined();
  });
});

describe("getTraceparent", () => {
  it("is the active span's, before the environment's", () => {
    expect(withSpan(() => getTraceparent(ENV))).toBe(`00-${SPAN.traceId}-${SPAN.spanId}-01`);
    const unsampled = { ...SPAN, traceFlags: TraceFlags.NONE };
    expect(context.with(trace.setSpanContext(context.active(), unsampled), () => getTraceparent(ENV))).toMatch(/-00$/);
  });

  it("falls back to a valid TRACEPARENT, trimmed, and is empty otherwise", () => {
    expect(getTraceparent(ENV)).toBe(FROM_ENV);
    expect(getTraceparent({ TRACEPARENT: ` ${FROM_ENV}\n` })).toBe(FROM_ENV);
    expect(getTraceparent({ TRACEPARENT: "garbage" })).toBe("");
    expect(getTraceparent({})).toBe("");
  });
});

describe("injectTraceHeaders", () => {
  it("writes what the installed propagator writes, into the same object", () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const headers: Record<string, string> = { accept: "application/json" };
    const state = trace.setSpanContext(context.active(), { ...SPAN, traceState: createTraceState("nova=1") });
    expect(context.with(state, () => injectTraceHeaders(headers, {}))).toBe(headers);
    expect(headers).toEqual({
      accept: "application/json",
      traceparent: `00-${SPAN.traceId}-${SPAN.spanId}-01`,
      tracestate: "nova=1",
    });
  });

  it("falls back to getTraceparent without a propagator, or without a span to propagate", () => {
    expect(withSpan(() => injectTraceHeaders({}, {}))).toEqual({ traceparent: `00-${SPAN.traceId}-${SPAN.spanId}-01` });
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    expect(injectTraceHeaders({}, ENV)).toEqual({ traceparent: FROM_ENV });
    expect(injectTraceHeaders({}, {})).toEqual({});
  });

  it("leaves headers that already carry a traceparent alone, whatever its case", () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const headers = { Traceparent: VALID };
    expect(withSpan(() => injectTraceHeaders(headers, ENV))).toEqual({ Traceparent: VALID });
  });
});

describe("propagateTrace", () => {
  it("returns a copy carrying the explicit traceparent, replacing any other", () => {
    const headers = { TraceParent: FROM_ENV, authorization: "Bearer t" };
    const copy = propagateTrace(headers, VALID, {});
    expect(copy).toEqual({ authorization: "Bearer t", traceparent: VALID });
    expect(headers).toEqual({ TraceParent: FROM_ENV, authorization: "Bearer t" });
  });

  it("injects the current trace when the explicit one is empty or invalid", () => {
    const headers = { authorization: "Bearer t" };
    expect(propagateTrace(headers, "", ENV)).toEqual({ authorization: "Bearer t", traceparent: FROM_ENV });
    expect(withSpan(() => propagateTrace(headers, "00-bad", ENV))).toEqual({
      authorization: "Bearer t",
      traceparent: `00-${SPAN.traceId}-${SPAN.spanId}-01`,
    });
    expect(headers).toEqual({ authorization: "Bearer t" });
  });
});
