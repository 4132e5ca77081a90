import { describe, expect, it } from "vitest";
import {
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { MissingServiceUrlError } from "../../src/http/service-url.js";
import { ObservabilityClient } from "../../src/platform/observability-client.js";
import { RunEventsPage } from "../../src/platform/run-events.js";
import { rejection } from "../discovery/support.js";
import { ManualClock } from "../runtime/manual-clock.js";
import { startRawServer } from "./raw-server.js";
import { serviceClientHarness } from "./service-client-harness.js";

const TOKEN = "sa-token";
const AT = "2026-07-25T14:00:00Z";
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

const start = serviceClientHarness("observability.yaml", TOKEN, (options) => new ObservabilityClient(options));

const serviceEvent = (n: number) => ({
  event_id: `ev-${n}`,
  type: "status",
  data: { n },
  timestamp: AT,
  sequence: n,
  trace_id: TRACE_ID,
  span_id: null,
});
const userEvent = (n: number) => ({ type: "tool.call", data: { n }, timestamp: AT, sequence: n });
const forbidden = () => ({ status: 403, body: { error: "forbidden", message: "not a service account" } });

describe("ObservabilityClient.getRunEvents", () => {
  it("reads a service-route page, its opaque cursor and request id", async () => {
    const { server, client } = await start({
      getServiceRunEvents: () => ({
        status: 200,
        body: { events: [serviceEvent(1)], next_cursor: "c-2", request_id: "req-1" },
      }),
    });
    const page = await client.getRunEvents("run-1", { route: "service", limit: 50, after: "c-1" });
    expect(page).toEqual(
      new RunEventsPage(
        [
          {
            eventId: "ev-1",
            type: "status",
            data: { n: 1 },
            timestamp: AT,
            sequence: 1,
            traceId: TRACE_ID,
            spanId: undefined,
          },
        ],
        "c-2",
        "req-1",
      ),
    );
    expect(server.requests[0]?.path).toBe("/api/v1/service/runs/run-1/events?after=c-1&limit=50");
    expect(server.violations).toEqual([]);
  });

  it("falls back to the user route on a 403 and remembers it for later auto calls", async () => {
    const { server, client } = await start({
      getServiceRunEvents: forbidden,
      getUserRunEvents: () => ({ status: 200, body: { events: [userEvent(4), userEvent(5)] } }),
    });
    const first = await client.getRunEvents("run-1", { limit: 10 });
    expect(first.nextCursor).toBe("5");
    expect(first.events[0]?.eventId).toBe("");
    expect(client.resolvedRoute).toBe("user");
    await client.getRunEvents("run-1", { after: "5" });
    expect(server.requests.map((r) => `${r.operationId} ${r.path}`)).toEqual([
      "getServiceRunEvents /api/v1/service/runs/run-1/events?limit=10",
      "getUserRunEvents /api/v1/runs/run-1/events",
      "getUserRunEvents /api/v1/runs/run-1/events?after=5",
    ]);
    expect(server.violations).toEqual([]);
  });

  it("remembers the service route when it answers, and keeps an explicit route's 403", async () => {
    const { server, client } = await start({
      getServiceRunEvents: () => ({ status: 200, body: { events: [], next_cursor: null, request_id: "r" } }),
      getUserRunEvents: forbidden,
    });
    await client.getRunEvents("run-1");
    expect(client.resolvedRoute).toBe("service");
    await client.getRunEvents("run-1");
    expect(await rejection(client.getRunEvents("run-1", { route: "user" }))).toBeInstanceOf(NovaOSAuthenticationError);
    expect(server.requests.map((r) => r.operationId)).toEqual([
      "getServiceRunEvents",
      "getServiceRunEvents",
      "getUserRunEvents",
    ]);
  });

  it("reads the user-route cursor from the last sequence; an empty page ends it", () => {
    expect(RunEventsPage.fromUserRoute({ events: [userEvent(7), userEvent(9)] }).nextCursor).toBe("9");
    expect(RunEventsPage.fromUserRoute({ events: [] }).nextCursor).toBeUndefined();
    expect(RunEventsPage.fromUserRoute({ events: "garbage" }).events).toEqual([]);
  });

  it("refuses bad arguments before any request", async () => {
    const { server, client } = await start({});
    for (const call of [
      client.getRunEvents(""),
      client.getRunEvents("run-1", { limit: 0 }),
      client.getRunEvents("run-1", { limit: 1001 }),
      client.getRunEvents("run-1", { route: "admin" as "user" }),
      client.sendDebugControl("run-1", "rewind" as "step"),
      client.sendDebugControl("run-1", "pause", { metadata: [] as unknown as Record<string, unknown> }),
    ]) {
      expect(await rejection(call)).toBeInstanceOf(NovaOSValidationError);
    }
    expect(server.requests).toEqual([]);
  });
});

describe("ObservabilityClient.runEvents", () => {
  it("pages the user route to one empty page, yielding every event once and in order", async () => {
    const pages: Record<string, number[]> = { "": [1, 2], "2": [3], "3": [] };
    const { server, client } = await start({
      getServiceRunEvents: forbidden,
      getUserRunEvents: ({ query }) => ({
        status: 200,
        body: { events: (pages[String(query.after ?? "")] ?? []).map(userEvent) },
      }),
    });
    const seen: (number | undefined)[] = [];
    for await (const event of client.runEvents("run-1")) seen.push(event.sequence);
    expect(seen).toEqual([1, 2, 3]);
    expect(server.requests.filter((r) => r.operationId === "getUserRunEvents")).toHaveLength(3);
    expect(server.violations).toEqual([]);
  });

  it("pages the service route until next_cursor is null", async () => {
    const { client } = await start({
      getServiceRunEvents: ({ query }) =>
        query.after === undefined
          ? { status: 200, body: { events: [serviceEvent(1)], next_cursor: "c2", request_id: "r" } }
          : { status: 200, body: { events: [serviceEvent(2)], next_cursor: null, request_id: "r" } },
    });
    const seen: string[] = [];
    for await (const event of client.runEvents("run-1")) seen.push(event.eventId);
    expect(seen).toEqual(["ev-1", "ev-2"]);
  });

  it("ends with a NovaOSServerError when the cursor does not advance", async () => {
    const { client } = await start({
      getServiceRunEvents: () => ({
        status: 200,
        body: { events: [serviceEvent(1)], next_cursor: "same", request_id: "r" },
      }),
    });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of client.runEvents("run-1")) seen.push(event.eventId);
      })(),
    );
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect(seen).toEqual(["ev-1", "ev-1"]);
  });
});

describe("ObservabilityClient.sendDebugControl", () => {
  it("sends the action with its metadata and reads the session", async () => {
    const { server, client } = await start({
      sendDebugControl: ({ params }) => ({
        status: 200,
        body: { session_id: "s-1", run_id: params.runId, breakpoint_state: "paused", action: params.action },
      }),
    });
    expect(await client.sendDebugControl("run-1", "pause", { metadata: { reason: "inspect" } })).toEqual({
      sessionId: "s-1",
      runId: "run-1",
      breakpointState: "paused",
      action: "pause",
    });
    expect(server.requests[0]?.body).toEqual({ metadata: { reason: "inspect" } });
    expect(server.violations).toEqual([]);
  });

  it("is sent exactly once, even on a 503 or a deadline", async () => {
    const clock = new ManualClock();
    const { server, client } = await start(
      {
        sendDebugControl: () => ({ status: 503, body: { error: "unavailable" }, headers: { "retry-after": "1" } }),
        getServiceRunEvents: () => ({ status: 503, body: { error: "unavailable" } }),
      },
      { resilience: { clock, random: () => 0.5, timeoutMs: 0 } },
    );
    expect(await rejection(client.sendDebugControl("run-1", "step"))).toMatchObject({ statusCode: 503 });
    expect(server.requests).toHaveLength(1);
    // An event read, by contrast, is retried.
    const read = client.getRunEvents("run-1", { route: "service" });
    clock.advance(await clock.nextSleep());
    clock.advance(await clock.nextSleep());
    await rejection(read);
    expect(server.requests).toHaveLength(4);
  });

  it("gives up on a step that gets no answer within its deadline, without resending it", async () => {
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const raw = await startRawServer(() => arrived()); // and never answers
    const clock = new ManualClock();
    const obs = new ObservabilityClient({ baseUrl: raw.url, resilience: { clock, timeoutMs: 5_000 } });
    try {
      const call = obs.sendDebugControl("run-1", "step");
      expect(await clock.nextSleep()).toBe(5_000);
      await received;
      clock.advance(5_000);
      expect(await rejection(call)).toBeInstanceOf(NovaOSConnectionError);
      expect(raw.requests).toHaveLength(1);
    } finally {
      await obs.close();
      await raw.close();
    }
  });

  it("maps 404 (no live session) and 409 (not now) to NovaOSServerError with the status", async () => {
    let status = 404;
    const { client } = await start({ sendDebugControl: () => ({ status, body: { error: "no_session" } }) });
    expect(await rejection(client.sendDebugControl("run-1", "resume"))).toMatchObject({ statusCode: 404 });
    status = 409;
    expect(await rejection(client.sendDebugControl("run-1", "step"))).toMatchObject({ statusCode: 409 });
  });
});

describe("ObservabilityClient configuration", () => {
  it("reads NOVAOS_GATEWAY_URL, and names it when unset", () => {
    const error = (() => {
      try {
        new ObservabilityClient({ env: {} });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MissingServiceUrlError);
    expect((error as MissingServiceUrlError).variable).toBe("NOVAOS_GATEWAY_URL");
    const fromEnv = new ObservabilityClient({ env: { NOVAOS_GATEWAY_URL: "http://gateway:8081" } });
    expect(fromEnv.baseUrl).toBe("http://gateway:8081");
    void fromEnv.close();
  });
});
