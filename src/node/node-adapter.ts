/**
 * Serving HTTP bindings on `node:http` (and anything built on it: Express,
 * Fastify's raw handler, Next.js API routes). The hot path: the request is
 * read straight off the socket with a byte cap, and the reply is written back
 * with its length at the end of the event-loop turn, together with the turn's
 * other replies (turn-end-writes.ts); no Fetch `Request`/`Response` in
 * between. Streams honour backpressure and share the event loop (a burst
 * of chunks yields once its turn's slice is spent, turn-slice.ts); a client
 * that goes away aborts the call (the handler detaches, the task goes on)
 * and the chunk iterator is returned.
 *
 * Mounted as Express middleware, a request no binding serves goes to
 * `next()`; mounted alone, it is answered 404.
 */
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from "node:http";
import { encodeToSlab } from "../a2a/byte-slab.js";
import { BodyTooLargeError, readNodeBody } from "../http/capped-body.js";
import type { Logger } from "../runtime/logger.js";
import type { HttpBinding, HttpBodyReply, HttpRequestLike, HttpStreamReply } from "../server/http-exchange.js";
import { endAtTurnEnd } from "../server/turn-end-writes.js";
import { chargeSlice, nextTurn, overSlice } from "../server/turn-slice.js";

/** A `node:http` request listener, usable as Express middleware. Resolves when the response is done. */
export type NodeRequestListener = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => Promise<void>;

const NOT_FOUND: HttpBodyReply = {
  kind: "body",
  status: 404,
  headers: { "content-type": "text/plain" },
  body: "Not Found",
};

export interface NodeListenerOptions {
  readonly logger?: Logger;
}

export function createNodeListener(
  bindings: () => readonly HttpBinding[],
  options: NodeListenerOptions = {},
): NodeRequestListener {
  return (req, res, next) => serveNodeRequest(bindings(), req, res, next, options.logger);
}

async function serveNodeRequest(
  bindings: readonly HttpBinding[],
  req: IncomingMessage,
  res: ServerResponse,
  next: ((error?: unknown) => void) | undefined,
  logger: Logger | undefined,
): Promise<void> {
  const request = new NodeRequest(req, res);
  try {
    for (const binding of bindings) {
      const reply = await binding.handle(request);
      if (reply) {
        await (reply.kind === "body" ? writeBodyReply(reply, res) : writeStreamReply(reply, res, request));
        return;
      }
    }
    if (next) next();
    else await writeBodyReply(NOT_FOUND, res);
  } catch (error) {
    logger?.error({ err: error }, "HTTP request failed");
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "text/plain", connection: "close" }).end("Internal Server Error");
    } else {
      res.destroy();
    }
  } finally {
    request.dispose();
  }
}

/**
 * The exchange view of a node request, one object per request: query, base
 * URL and the client-gone signal are made only when a binding asks (a unary
 * call asks for none of them, and a signal plus a `close` listener per
 * request is a measurable cost on the hot path). Express and friends leave
 * the unmatched prefix in `originalUrl` and the rest in `url`.
 */
class NodeRequest implements HttpRequestLike {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #url: string;
  readonly #queryAt: number;
  #query: URLSearchParams | undefined;
  #gone: AbortController | undefined;
  #onClose: (() => void) | undefined;
  #bodyTaken = false;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
    this.#url = req.url ?? "/";
    this.#queryAt = this.#url.indexOf("?");
    this.method = req.method ?? "GET";
    this.path = (this.#queryAt < 0 ? this.#url : this.#url.slice(0, this.#queryAt)) || "/";
    this.headers = req.headers;
  }

  get query(): URLSearchParams {
    this.#query ??= new URLSearchParams(this.#queryAt < 0 ? "" : this.#url.slice(this.#queryAt + 1));
    return this.#query;
  }

  /** Aborts when the client goes away before the reply is complete; asked late, reads the response's state. */
  get signal(): AbortSignal {
    if (!this.#gone) {
      const gone = new AbortController();
      const res = this.#res;
      this.#gone = gone;
      this.#onClose = () => {
        if (!res.writableFinished) gone.abort(new Error("The client closed the connection"));
      };
      if (res.destroyed) this.#onClose();
      else res.once("close", this.#onClose);
    }
    return this.#gone.signal;
  }

  get remoteAddress(): string | undefined {
    return this.#req.socket.remoteAddress;
  }

  get baseUrl(): string | undefined {
    const req = this.#req;
    const host = req.headers.host;
    if (!host) return undefined;
    const original = (req as { originalUrl?: string }).originalUrl ?? this.#url;
    const mount = original.slice(0, original.length - this.#url.length);
    const proto =
      (req.headers["x-forwarded-proto"] as string | undefined)?.split(",")[0]?.trim() ||
      ((req.socket as { encrypted?: boolean }).encrypted ? "https" : "http");
    return `${proto}://${host}${mount.replace(/\/?$/, "/")}`;
  }

  /**
   * The body, refused with `BodyTooLargeError` as soon as it passes `maxBytes`
   * (or at once when `Content-Length` says it will). A body a framework
   * already parsed (`req.body`) is used as is.
   *
   * A binding reads the body after the bindings before it have answered (an
   * await), by which time node has parsed all that arrived with the head:
   * mostly the whole body, then taken from the stream's buffer in one read
   * (no listeners, no flowing mode; docs/decisions.md B411).
   */
  body(maxBytes: number): Promise<Uint8Array> {
    const req = this.#req;
    const parsed = (req as { body?: unknown }).body;
    if (req.readableEnded && parsed !== undefined) {
      const bytes =
        parsed instanceof Uint8Array
          ? parsed
          : Buffer.from(typeof parsed === "string" ? parsed : JSON.stringify(parsed));
      return bytes.byteLength > maxBytes ? Promise.reject(new BodyTooLargeError(maxBytes)) : Promise.resolve(bytes);
    }
    const declaredLength = Number(req.headers["content-length"]);
    const arrived = req.readableLength === declaredLength;
    this.#bodyTaken ||= arrived;
    return readNodeBody(req, { maxBytes, declaredLength, arrived });
  }

  /**
   * Stops watching once the reply is written (a signal already handed out
   * keeps its state). A body taken whole from the buffer was taken before
   * node parsed the end of the message: one more read ends the request, so
   * it emits `end` and `close` as a request read by events does.
   */
  dispose(): void {
    if (this.#onClose) this.#res.off("close", this.#onClose);
    if (this.#bodyTaken) this.#req.read();
  }
}

async function writeStreamReply(reply: HttpStreamReply, res: ServerResponse, request: NodeRequest): Promise<void> {
  const signal = request.signal;
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  const chunks = reply.chunks[Symbol.asyncIterator]();
  // Frames produced in one burst go out in one write: the socket is corked
  // until the burst yields to the event loop (or fills the buffer). The
  // write is stream work too: its time comes off the next slice.
  let corked = false;
  const flush = () => res.uncork();
  const uncork = () => {
    corked = false;
    chargeSlice(flush);
  };
  let completed = false;
  try {
    while (!signal.aborted) {
      const next = await chunks.next();
      if (next.done) {
        completed = true;
        break;
      }
      if (!corked) {
        corked = true;
        res.cork();
        setImmediate(uncork);
      }
      if (!res.write(next.value)) {
        if (corked) uncork();
        await drained(res, signal);
      } else if (overSlice()) {
        // This turn's slice of stream work is spent: the rest waits for the next one (turn-slice.ts).
        await nextTurn();
      }
    }
  } finally {
    if (corked) uncork();
    if (!completed) await chunks.return?.();
    if (!res.writableEnded) res.end();
  }
}

/**
 * A complete reply with its `Content-Length`: node then sends head and body
 * in one write, where a head sent on its own makes the body chunked (four
 * buffers and the chunk framing the client must undo). 304 has no body and
 * must not claim one. The write itself waits for the end of the turn (see
 * turn-end-writes.ts).
 *
 * A text body is encoded once, here, and its length read off the bytes:
 * node writes a string body by prepending the head to it and encoding the
 * two again, so a string cost a length pass, a copy and an encoding pass
 * where the bytes cost one encoding (docs/decisions.md B414). The bytes go
 * into a shared slab (byte-slab.ts, B416).
 */
function writeBodyReply(reply: HttpBodyReply, res: ServerResponse): Promise<void> {
  if (reply.status === 304) {
    res.writeHead(reply.status, reply.headers);
    return endAtTurnEnd(res);
  }
  const body = typeof reply.body === "string" ? encodeToSlab(reply.body) : reply.body;
  res.writeHead(reply.status, headerLines(reply.headers, body.byteLength));
  return endAtTurnEnd(res, body);
}

/**
 * `headers` and the `Content-Length` as one flat list of names and values,
 * which `writeHead` takes as it does a record: cheaper for node to walk than
 * a record copied with the length added (docs/decisions.md B412).
 */
function headerLines(headers: Readonly<Record<string, string>>, length: number): OutgoingHttpHeader[] {
  const lines: OutgoingHttpHeader[] = [];
  for (const name in headers) lines.push(name, headers[name] as string);
  lines.push("content-length", length);
  return lines;
}

/** Resolves on `drain`, or when the client goes away. */
function drained(res: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    res.once("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}
