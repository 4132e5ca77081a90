/**
 * A bare node:http server on port 0 for transport tests: each request is
 * recorded with its body, and `closed` resolves when its connection goes
 * away, so a test can await "the client hung up" instead of sleeping.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
  /** Resolves when the response is closed, by either side. */
  readonly closed: Promise<void>;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface TestHttpServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Resolves with the next request as soon as its body has arrived. */
  nextRequest(): Promise<RecordedRequest>;
  /** Resolves when every socket the server accepted has closed. */
  socketsClosed(): Promise<void>;
  close(): Promise<void>;
}

export async function startHttpServer(handler: Handler): Promise<TestHttpServer> {
  const requests: RecordedRequest[] = [];
  const waiting: ((request: RecordedRequest) => void)[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const socketClosed = new Map<import("node:net").Socket, Promise<void>>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      closed: new Promise((resolve) => res.once("close", () => resolve())),
    };
    requests.push(recorded);
    waiting.shift()?.(recorded);
    try {
      await handler(recorded, res);
    } catch {
      res.destroy();
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socketClosed.set(socket, new Promise((resolve) => socket.once("close", () => resolve())));
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    socketsClosed: async () => {
      await Promise.all(socketClosed.values());
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes a complete JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Starts an SSE answer; write events with `sseEvent`. */
export function startSse(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
}

export function sseEvent(res: ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
}
