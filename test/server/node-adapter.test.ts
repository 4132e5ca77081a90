/**
 * The node:http adapter's client-gone signal, made only when a binding reads
 * it: it aborts when the client leaves before the reply is complete, whether
 * read before or after that, never after a complete reply, and leaves no
 * listener on the response. Complete replies carry their length; streams
 * yield the event loop between chunks once a turn's slice is spent. A body
 * that arrived with its head is taken from the buffer and the request still
 * ends; one that arrives later is read as it comes, within its cap.
 */
import { once } from "node:events";
import http, { type ServerResponse } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BodyTooLargeError } from "../../src/http/capped-body.js";
import { createNodeListener } from "../../src/node/node-adapter.js";
import type { HttpBinding, HttpRequestLike } from "../../src/server/http-exchange.js";
import { TURN_SLICE_MS } from "../../src/server/turn-slice.js";
import { deferred } from "./support/agent-server.js";

let server: http.Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Serves `binding`, remembering each request and its response. */
async function serve(
  binding: HttpBinding,
): Promise<{ port: number; requests: http.IncomingMessage[]; responses: ServerResponse[] }> {
  const requests: http.IncomingMessage[] = [];
  const responses: ServerResponse[] = [];
  const listener = createNodeListener(() => [binding]);
  server = http.createServer((req, res) => {
    requests.push(req);
    responses.push(res);
    void listener(req, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { port: (server.address() as AddressInfo).port, requests, responses };
}

/** Sends a request and hangs up once the server has it. */
function hangUpAfter(port: number, received: Promise<unknown>): void {
  const req = http.request({ port, host: "127.0.0.1", method: "POST", path: "/" });
  req.on("error", () => undefined);
  req.end("{}");
  void received.then(() => req.destroy());
}

describe("node adapter: the client-gone signal", () => {
  it("aborts a signal read before the client leaves", async () => {
    const seen = deferred<AbortSignal>();
    const { port } = await serve({
      async handle(request: HttpRequestLike) {
        const signal = request.signal;
        seen.resolve(signal);
        await once(signal, "abort");
        return { kind: "body", status: 200, headers: {}, body: "late" };
      },
    });
    hangUpAfter(port, seen.promise);
    const signal = await seen.promise;
    await once(signal, "abort");
    expect(signal.aborted).toBe(true);
  });

  it("is already aborted when first read after the client left", async () => {
    const received = deferred();
    const checked = deferred<boolean>();
    const { port, responses } = await serve({
      async handle(request: HttpRequestLike) {
        received.resolve();
        await once(responses[0] as ServerResponse, "close");
        checked.resolve(request.signal.aborted);
        return { kind: "body", status: 200, headers: {}, body: "late" };
      },
    });
    hangUpAfter(port, received.promise);
    expect(await checked.promise).toBe(true);
  });

  it("never aborts for a complete reply, and leaves no listener on the response", async () => {
    const signals: AbortSignal[] = [];
    const { port, responses } = await serve({
      async handle(request: HttpRequestLike) {
        signals.push(request.signal);
        return { kind: "body", status: 200, headers: {}, body: "ok" };
      },
    });
    const reply = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" });
    expect(await reply.text()).toBe("ok");
    const res = responses[0] as ServerResponse;
    if (!res.destroyed) await once(res, "close");
    expect(signals[0]?.aborted).toBe(false);
    expect(res.listenerCount("close")).toBe(0);
  });
});

/** One GET: status, headers and the body's bytes. */
async function fetchRaw(port: number): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get({ port, host: "127.0.0.1", path: "/" }, resolve).on("error", reject),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) };
}

describe("node adapter: complete replies", () => {
  const replying = (reply: Awaited<ReturnType<HttpBinding["handle"]>>): HttpBinding => ({
    handle: async () => reply,
  });

  it("sends a text body with its UTF-8 byte length, not chunked", async () => {
    const body = '{"text":"naïve café — ✓ 🚀"}';
    const { port } = await serve(replying({ kind: "body", status: 200, headers: { "content-type": "x/y" }, body }));
    const got = await fetchRaw(port);
    expect(got.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(got.headers["content-length"]).not.toBe(String(body.length));
    expect(got.headers["transfer-encoding"]).toBeUndefined();
    expect(got.headers["content-type"]).toBe("x/y");
    expect(got.body.toString("utf8")).toBe(body);
  });

  it("sends a text body larger than node's buffer pool whole, with its UTF-8 byte length", async () => {
    const body = JSON.stringify({ text: "naïve café — ✓ 🚀 ".repeat(4_000) });
    const { port } = await serve(replying({ kind: "body", status: 200, headers: {}, body }));
    const got = await fetchRaw(port);
    expect(Number(got.headers["content-length"])).toBe(Buffer.byteLength(body));
    expect(got.body.toString("utf8")).toBe(body);
  });

  it("sends a byte body with its length, not chunked", async () => {
    const body = new Uint8Array([0, 1, 2, 250, 251]);
    const { port } = await serve(replying({ kind: "body", status: 200, headers: {}, body }));
    const got = await fetchRaw(port);
    expect(got.headers["content-length"]).toBe("5");
    expect(got.headers["transfer-encoding"]).toBeUndefined();
    expect([...got.body]).toEqual([...body]);
  });

  it("sends a 304 with neither a body nor a length", async () => {
    const { port } = await serve(replying({ kind: "body", status: 304, headers: { etag: '"v1"' }, body: "" }));
    const got = await fetchRaw(port);
    expect(got.status).toBe(304);
    expect(got.headers["content-length"]).toBeUndefined();
    expect(got.headers.etag).toBe('"v1"');
    expect(got.body.byteLength).toBe(0);
  });
});

describe("node adapter: streams share the event loop", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Every reading of the clock is a tenth of the slice later: a slice is spent after ten chunks of a turn. */
  function tickingClock(): { advance(ms: number): void } {
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => {
      now += TURN_SLICE_MS / 10;
      return now;
    });
    return {
      advance(ms) {
        now += ms;
      },
    };
  }

  /** Streams `count` small chunks, ready at once; resolves to the event-loop turns the stream took. */
  async function turnsToStream(count: number): Promise<number> {
    let turns = 0;
    let writing = true;
    const tick = () => {
      if (!writing) return;
      turns++;
      setImmediate(tick);
    };
    const { port } = await serve({
      async handle() {
        setImmediate(tick);
        // Small chunks: never enough to fill the socket's buffer and wait for a drain.
        async function* chunks() {
          for (let i = 0; i < count; i++) yield "data: x\n\n";
          writing = false;
        }
        return { kind: "stream", status: 200, headers: { "content-type": "text/event-stream" }, chunks: chunks() };
      },
    });
    const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(body).toBe("data: x\n\n".repeat(count));
    return turns;
  }

  it("waits a turn between chunks once the turn's slice of stream work is spent", async () => {
    tickingClock();
    const CHUNKS = 1000;
    expect(await turnsToStream(CHUNKS)).toBeGreaterThanOrEqual(CHUNKS / 20);
  });

  it("takes the time of a burst's write to the socket from the next turn's slice (decision S719)", async () => {
    // Each write of a burst takes a whole slice: the turn after it has time for one chunk past its first.
    const clock = tickingClock();
    const uncork = http.ServerResponse.prototype.uncork;
    vi.spyOn(http.ServerResponse.prototype, "uncork").mockImplementation(function (this: ServerResponse) {
      clock.advance(TURN_SLICE_MS);
      uncork.call(this);
    });
    const CHUNKS = 1000;
    expect(await turnsToStream(CHUNKS)).toBeGreaterThanOrEqual(CHUNKS / 3);
  });
});

describe("node adapter: request bodies", () => {
  /** Answers with what `body(maxBytes)` gave, read after an await (as a binding after the agent card's does). */
  const echoBody = (maxBytes: number): HttpBinding => ({
    async handle(request: HttpRequestLike) {
      await null;
      const body = await request.body(maxBytes).catch((error: unknown) => error);
      const text = body instanceof Uint8Array ? Buffer.from(body).toString() : (body as Error).name;
      return { kind: "body", status: 200, headers: {}, body: text };
    },
  });

  it("takes a body that arrived with its head from the buffer, and the request still ends and closes", async () => {
    const { port, requests } = await serve(echoBody(1024));
    const reply = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: '{"whole":true}' });
    expect(await reply.text()).toBe('{"whole":true}');
    const req = requests[0] as http.IncomingMessage;
    // Read without events: the stream never flowed.
    expect(req.readableFlowing).toBe(null);
    if (!req.closed) await once(req, "close");
    expect(req.readableEnded).toBe(true);
  });

  /** Sends the head of a POST, then its body once the server has the request; resolves with the raw reply. */
  async function bodyAfterHead(port: number, requests: http.IncomingMessage[], body: string): Promise<string> {
    const socket = net.connect(port, "127.0.0.1");
    await once(socket, "connect");
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`);
    while (requests.length === 0) await once(server as http.Server, "request");
    socket.end(body);
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString();
  }

  it("reads a body that arrives after its head as it comes", async () => {
    const { port, requests } = await serve(echoBody(1024));
    const reply = await bodyAfterHead(port, requests, '{"later":true}');
    expect(reply.startsWith("HTTP/1.1 200")).toBe(true);
    expect(reply.endsWith('{"later":true}')).toBe(true);
  });

  it("refuses a body over the cap whether it arrived with its head or after it", async () => {
    const { port, requests } = await serve(echoBody(4));
    const whole = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "123456" });
    expect(await whole.text()).toBe(new BodyTooLargeError(4).name);
    requests.length = 0;
    expect((await bodyAfterHead(port, requests, "123456")).endsWith("BodyTooLargeError")).toBe(true);
  });
});
