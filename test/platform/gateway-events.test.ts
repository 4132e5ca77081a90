import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import {
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  NovaOSError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { BearerTokenAuth } from "../../src/http/auth.js";
import { GatewayClient } from "../../src/platform/gateway-client.js";
import type { StreamEvent } from "../../src/platform/stream-event.js";
import {
  type ContractServer,
  type HandlerContext,
  type OperationHandler,
  startContractServer,
} from "./contract-server.js";

const TOKEN = "iam-token";
let server: ContractServer | undefined;
let gateway: GatewayClient | undefined;

afterEach(async () => {
  await gateway?.close();
  await server?.close();
  gateway = undefined;
  server = undefined;
});

async function start(runEvents: OperationHandler) {
  server = await startContractServer({
    spec: "gateway.yaml",
    bearerToken: TOKEN,
    eventSchema: "GatewayEvent",
    handlers: { runEvents },
  });
  gateway = new GatewayClient({ baseUrl: server.url, auth: new BearerTokenAuth(TOKEN) });
  return { server, gateway };
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** mulberry32: a small seeded PRNG, so a failing run can be replayed from its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("GatewayClient.events", () => {
  it("yields typed events and stops after the terminal one, which it yields", async () => {
    const { server, gateway } = await start(({ sse }) => {
      const stream = sse();
      stream.raw(": keep-alive\n\n");
      stream.event({ type: "status", payload: { status: "RUNNING" }, run_id: "r1", sequence: 1 }, { id: "e1" });
      stream.event({ type: "message.delta", payload: { content: "Hel" }, sequence: 2 }, { id: "e2" });
      stream.event({ type: "status", payload: { message: "Thinking" }, sequence: 3 }, { id: "e3" });
      stream.event({ type: "status", payload: { status: "WAITING_USER" }, sequence: 4 }, { id: "e4" });
      stream.event({ type: "hitl", payload: { prompt: "Go on?" }, sequence: 5 }, { id: "e5" });
      stream.event({ type: "tool.call", payload: { name: "search" }, sequence: 6 }, { id: "e6" });
      stream.event({ type: "status", payload: { status: "FAILED", message: "late" }, sequence: 7 }, { id: "e7" });
      stream.event({ type: "message.delta", payload: { content: "never read" } }, { id: "e8" });
      return undefined;
    });
    const events = await collect(gateway.events("r1"));
    expect(events.map((e) => [e.type, e.id, e.isTerminal, e.isFailure])).toEqual([
      ["status", "e1", false, false],
      ["chunk", "e2", false, false],
      ["status", "e3", false, false],
      ["status", "e4", false, false],
      ["hitl", "e5", false, false],
      ["tool.call", "e6", false, false],
      ["status", "e7", true, true],
    ]);
    expect(events[1]?.content).toBe("Hel");
    expect(events[6]?.content).toBe("late");
    expect(server.requests[0]?.headers.accept).toBe("text/event-stream");
    expect(server.requests[0]?.headers["last-event-id"]).toBeUndefined();
    expect(server.violations).toEqual([]);
  });

  it("sends Last-Event-ID when resuming", async () => {
    const { server, gateway } = await start(({ sse }) => {
      sse().event({ type: "done", payload: {} }, { id: "e9" });
      return undefined;
    });
    await collect(gateway.events("r1", { lastEventId: "e8" }));
    expect(server.requests[0]?.headers["last-event-id"]).toBe("e8");
    expect(server.violations).toEqual([]);
  });

  it("reads the legacy event form", async () => {
    const { gateway } = await start(({ sse }) => {
      const stream = sse();
      stream.event({ content: "a" }, { event: "chunk" });
      stream.event({ message: "bad input" }, { event: "error" });
      return undefined;
    });
    const events = await collect(gateway.events("r1"));
    expect(events.map((e) => [e.type, e.content, e.isFailure])).toEqual([
      ["chunk", "a", false],
      ["error", "bad input", true],
    ]);
  });

  it("turns a stream that ends before a terminal event into a retryable NovaOSConnectionError", async () => {
    const { gateway } = await start(({ sse }) => {
      const stream = sse();
      stream.event({ type: "message.delta", payload: { content: "x" } }, { id: "1" });
      stream.end();
      return undefined;
    });
    const seen: StreamEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of gateway.events("r1")) seen.push(event);
      })(),
    );
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect((error as NovaOSError).isRetryable).toBe(true);
  });

  it("refuses a malformed event without retrying it", async () => {
    const { gateway } = await start(({ sse }) => {
      sse().raw("event: message\ndata: {not json\n\n");
      return undefined;
    });
    const error = await rejection(collect(gateway.eventsWithReconnect("r1", { initialBackoffMs: 0 })));
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect(server?.requests).toHaveLength(1);
  });

  it("refuses an event over the size cap without retrying it", async () => {
    server = await startContractServer({
      spec: "gateway.yaml",
      bearerToken: TOKEN,
      handlers: {
        runEvents: ({ sse }) => {
          sse().event({ type: "message.delta", payload: { content: "x".repeat(4096) } }, { id: "1" });
          return undefined;
        },
      },
    });
    gateway = new GatewayClient({ baseUrl: server.url, auth: new BearerTokenAuth(TOKEN), maxSseEventBytes: 1024 });
    const error = await rejection(collect(gateway.eventsWithReconnect("r1", { initialBackoffMs: 0 })));
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect((error as NovaOSError).isRetryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it("maps an unknown run to NovaOSValidationError and a bad token to NovaOSAuthenticationError", async () => {
    const { server } = await start(() => ({ status: 404, body: { error: "run_not_found" } }));
    expect(await rejection(collect(gateway!.events("r1")))).toBeInstanceOf(NovaOSValidationError);
    const anonymous = new GatewayClient({ baseUrl: server.url });
    expect(await rejection(collect(anonymous.events("r1")))).toBeInstanceOf(NovaOSAuthenticationError);
    await anonymous.close();
    expect(server.violations).toEqual([]);
  });

  it("closes the connection when the caller aborts, ending with the abort reason", async () => {
    let closed: Promise<unknown> | undefined;
    const { gateway } = await start(({ sse }) => {
      const stream = sse();
      closed = once(stream.response, "close");
      stream.event({ type: "message.delta", payload: { content: "first" } }, { id: "1" });
      return undefined;
    });
    const controller = new AbortController();
    const reason = new Error("user left");
    const error = await rejection(
      (async () => {
        for await (const _ of gateway.events("r1", { signal: controller.signal })) controller.abort(reason);
      })(),
    );
    expect(error).toBe(reason);
    await closed;
  });

  it("closes the connection when the caller stops iterating", async () => {
    let closed: Promise<unknown> | undefined;
    const { gateway } = await start(({ sse }) => {
      const stream = sse();
      closed = once(stream.response, "close");
      stream.event({ type: "message.delta", payload: { content: "first" } }, { id: "1" });
      return undefined;
    });
    for await (const event of gateway.events("r1")) {
      expect(event.content).toBe("first");
      break;
    }
    await closed;
  });

  it("ends open subscriptions when the client closes, without reconnecting", async () => {
    const { server, gateway } = await start(({ sse }) => {
      sse().event({ type: "message.delta", payload: { content: "x" } }, { id: "1" });
      return undefined;
    });
    const error = await rejection(
      (async () => {
        for await (const _ of gateway.eventsWithReconnect("r1", { initialBackoffMs: 0 })) await gateway.close();
      })(),
    );
    expect(error).toBeInstanceOf(NovaOSError);
    expect((error as Error).message).toContain("closed");
    expect(server.requests).toHaveLength(1);
  });
});

describe("GatewayClient.eventsWithReconnect", () => {
  /**
   * A run of `total` events with opaque SSE ids. Each connection resumes
   * strictly after Last-Event-ID and is killed at a random point — between
   * events or in the middle of one — until the terminal event goes out. The
   * JSON `sequence` restarts at 0 on every connection, so a client that
   * resumed from it would replay or skip events.
   */
  function flakyRun(total: number, random: () => number, cursors: (string | undefined)[]) {
    const ids = Array.from({ length: total }, (_, i) => `evt-${(i * 7919).toString(36)}`);
    return ({ headers, sse }: HandlerContext) => {
      const last = headers["last-event-id"] as string | undefined;
      cursors.push(last);
      const start = last === undefined ? 0 : ids.indexOf(last) + 1;
      const stream = sse();
      const budget = 1 + Math.floor(random() * 12);
      for (let i = start, sent = 0; i < total; i++, sent++) {
        const terminal = i === total - 1;
        const body = terminal
          ? { type: "status", payload: { status: "COMPLETED" }, sequence: sent }
          : { type: "message.delta", payload: { content: `#${i}` }, sequence: sent };
        if (sent === budget && !terminal) {
          if (random() < 0.5) stream.raw(`id: ${ids[i]}\ndata: {"type":"message.de`);
          stream.destroy();
          return undefined;
        }
        stream.event(body, { id: ids[i] });
      }
      stream.end();
      return undefined;
    };
  }

  it.each([1, 2, 3, 42, 2026])(
    "delivers every event exactly once, in order, across random drops (seed %i)",
    async (seed) => {
      const random = seeded(seed);
      const cursors: (string | undefined)[] = [];
      const { server, gateway } = await start(flakyRun(120, random, cursors));
      const events = await collect(gateway.eventsWithReconnect("r1", { initialBackoffMs: 0, maxRetries: 2 }));
      expect(events.map((e) => e.content ?? e.status)).toEqual([
        ...Array.from({ length: 119 }, (_, i) => `#${i}`),
        "COMPLETED",
      ]);
      expect(events.at(-1)?.isTerminal).toBe(true);
      expect(cursors.length).toBeGreaterThan(5);
      // Every reconnect resumed from the SSE id of the last event delivered, never from a sequence number.
      for (const cursor of cursors.slice(1)) expect(cursor).toMatch(/^evt-/);
      expect(server.violations).toEqual([]);
    },
  );

  it("resets its failure count on every event", async () => {
    let connection = 0;
    const { server, gateway } = await start(({ sse }) => {
      connection++;
      const stream = sse();
      if (connection === 10) {
        stream.event({ type: "done", payload: {} }, { id: "end" });
        return undefined;
      }
      stream.event({ type: "message.delta", payload: { content: String(connection) } }, { id: String(connection) });
      stream.destroy();
      return undefined;
    });
    const events = await collect(gateway.eventsWithReconnect("r1", { initialBackoffMs: 0, maxRetries: 1 }));
    expect(events.map((e) => e.id)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "end"]);
    expect(server.requests).toHaveLength(10);
  });

  it("gives up after maxRetries consecutive failures (5 by default), with the last failure as cause", async () => {
    const { server, gateway } = await start(() => ({ status: 503, body: { error: "unavailable" } }));
    const error = await rejection(collect(gateway.eventsWithReconnect("r1", { initialBackoffMs: 0 })));
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect((error as Error).cause).toBeInstanceOf(NovaOSServerError);
    expect((error as NovaOSError).details).toMatchObject({ runId: "r1", attempts: 6 });
    expect(server.requests).toHaveLength(6);
  });

  it("never retries a 401", async () => {
    const { server } = await start(() => ({ status: 200, body: {} }));
    const anonymous = new GatewayClient({ baseUrl: server.url });
    const error = await rejection(collect(anonymous.eventsWithReconnect("r1", { initialBackoffMs: 0 })));
    await anonymous.close();
    expect(error).toBeInstanceOf(NovaOSAuthenticationError);
    expect(server.requests).toHaveLength(0);
  });

  it("stops waiting to reconnect when the caller aborts", async () => {
    let answered: () => void = () => undefined;
    const firstAnswer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const { gateway } = await start(() => {
      answered();
      return { status: 502, body: { error: "bad_gateway" } };
    });
    const controller = new AbortController();
    const reason = new Error("stop");
    const pending = collect(gateway.eventsWithReconnect("r1", { signal: controller.signal, initialBackoffMs: 60_000 }));
    await firstAnswer;
    controller.abort(reason);
    // A 60 s backoff that ignored the signal would time this test out.
    expect(await rejection(pending)).toBe(reason);
  });
});
