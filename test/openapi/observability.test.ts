import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefused, type SpecExchange, startSpecExchange } from "./spec-exchange.js";

// openapi/observability.yaml: two event routes with different page shapes, and debug control.

let spec: SpecExchange;
beforeAll(async () => {
  spec = await startSpecExchange("observability.yaml", ["getServiceRunEvents", "getUserRunEvents", "sendDebugControl"]);
});
afterAll(() => spec.server.close());

const AT = "2026-07-25T14:00:00.123Z";
const TRACE = { trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", span_id: "00f067aa0ba902b7" };

describe("openapi/observability.yaml", () => {
  it("pages the service route with an opaque cursor and the user route by sequence", async () => {
    const servicePage = {
      events: [{ event_id: "e1", type: "tool.call", data: { tool_name: "x" }, timestamp: AT, ...TRACE }],
      next_cursor: "1",
      request_id: "req-1",
    };
    const last = { events: [], next_cursor: null, request_id: "req-2" };
    expect(
      await spec.send("GET", "/api/v1/service/runs/r1/events?limit=50", { answer: { status: 200, body: servicePage } }),
    ).toEqual([]);
    expect(
      await spec.send("GET", "/api/v1/service/runs/r1/events?after=1", { answer: { status: 200, body: last } }),
    ).toEqual([]);
    const userPage = {
      events: [{ type: "status", data: { status: "RUNNING" }, timestamp: AT, sequence: 7, trace_id: null }],
    };
    expect(
      await spec.send("GET", "/api/v1/runs/r1/events?after=6", { answer: { status: 200, body: userPage } }),
    ).toEqual([]);
  });

  it("keeps the two routes' shapes apart", async () => {
    // The user route has no limit, a numeric cursor, no event_id and always a sequence.
    expectRefused(await spec.send("GET", "/api/v1/runs/r1/events?after=abc"));
    const withoutSequence = { events: [{ type: "status", data: {}, timestamp: AT }] };
    expect(
      await spec.send("GET", "/api/v1/runs/r1/events", { answer: { status: 200, body: withoutSequence } }),
    ).toHaveLength(1);
    const withoutEnvelope = { events: [{ event_id: "e1", type: "status", data: {}, timestamp: AT }] };
    expect(
      await spec.send("GET", "/api/v1/service/runs/r1/events", { answer: { status: 200, body: withoutEnvelope } }),
    ).toHaveLength(1);
    const badTrace = { events: [{ type: "s", data: {}, timestamp: AT, sequence: 1, trace_id: "xyz" }] };
    expect(await spec.send("GET", "/api/v1/runs/r1/events", { answer: { status: 200, body: badTrace } })).toHaveLength(
      1,
    );
  });

  it("sends debug actions with optional metadata and refuses unknown ones", async () => {
    const result = { session_id: "s1", run_id: "r1", breakpoint_state: "paused", action: "step" };
    expect(
      await spec.send("POST", "/api/v1/runs/r1/debug/step", {
        body: { metadata: { by: "ada" } },
        answer: { status: 200, body: result },
      }),
    ).toEqual([]);
    expect(
      await spec.send("POST", "/api/v1/runs/r1/debug/pause", {
        answer: { status: 200, body: { ...result, action: "pause" } },
      }),
    ).toEqual([]);
    expect(
      await spec.send("POST", "/api/v1/runs/r1/debug/step", {
        answer: { status: 409, body: { error: "invalid_state" } },
      }),
    ).toEqual([]);
    expectRefused(await spec.send("POST", "/api/v1/runs/r1/debug/jump"));
    expectRefused(await spec.send("POST", "/api/v1/runs/r1/debug/abort", { body: { reason: "not a field" } }));
  });

  it("answers a user token on the service route with 403", async () => {
    expect(
      await spec.send("GET", "/api/v1/service/runs/r1/events", {
        answer: { status: 403, body: { error: "forbidden" } },
      }),
    ).toEqual([]);
  });
});
