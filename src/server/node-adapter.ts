/**
 * Serving HTTP bindings on `node:http` (and anything built on it: Express,
 * Fastify's raw handler, Next.js API routes). The hot path: the request is
 * read straight off the socket with a byte cap, the reply written straight
 * back, with no Fetch `Request`/`Response` in between. Streams honour
 * backpressure; a client that goes away aborts the call (the handler
 * detaches, the task goes on) and the chunk iterator is returned.
 *
 * Mounted as Express middleware, a request no binding serves goes to
 * `next()`; mounted alone, it is answered 404.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../runtime/logger.js";
import { BodyTooLargeError, type HttpBinding, type HttpReply, type HttpRequestLike } from "./http-exchange.js";

/** A `node:http` request listener, usable as Express middleware. Resolves when the response is done. */
export type NodeRequestListener = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => Promise<void>;

const NOT_FOUND: HttpReply = {
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
  const closed = new ClientGone(res);
  try {
    const request = toHttpRequest(req, closed);
    for (const binding of bindings) {
      const reply = await binding.handle(request);
      if (reply) {
        await writeReply(reply, res, closed);
        return;
      }
    }
    if (next) next();
    else await writeReply(NOT_FOUND, res, closed);
  } catch (error) {
    logger?.error({ err: error }, "HTTP request failed");
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "text/plain", connection: "close" }).end("Internal Server Error");
    } else {
      res.destroy();
    }
  } finally {
    closed.dispose();
  }
}

/**
 * Whether the client went away before the response was complete, as an
 * AbortSignal made only when someone asks for it: a unary call never does,
 * and a signal (and a `close` listener) per request is a measurable cost on
 * the hot path. Asked late, it reads the response's state instead.
 */
class ClientGone {
  readonly #res: ServerResponse;
  #controller: AbortController | undefined;
  readonly #onClose = () => {
    if (this.#res.writableFinished) return;
    this.#controller?.abort(new Error("The client closed the connection"));
  };

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#res.destroyed) this.#onClose();
      else this.#res.once("close", this.#onClose);
    }
    return this.#controller.signal;
  }

  /** Stops watching once the reply is written (a signal already handed out keeps its state). */
  dispose(): void {
    if (this.#controller) this.#res.off("close", this.#onClose);
  }
}

/**
 * The exchange view of a node request. Query and base URL are computed only
 * when a binding asks (most requests need neither). Express and friends leave
 * the unmatched prefix in `originalUrl` and the rest in `url`.
 */
function toHttpRequest(req: IncomingMessage, closed: ClientGone): HttpRequestLike {
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  let query: URLSearchParams | undefined;
  return {
    method: req.method ?? "GET",
    path: path || "/",
    get query() {
      query ??= new URLSearchParams(queryAt < 0 ? "" : url.slice(queryAt + 1));
      return query;
    },
    headers: req.headers,
    get signal() {
      return closed.signal;
    },
    get baseUrl() {
      const host = req.headers.host;
      if (!host) return undefined;
      const original = (req as { originalUrl?: string }).originalUrl ?? url;
      const mount = original.slice(0, original.length - url.length);
      const proto =
        (req.headers["x-forwarded-proto"] as string | undefined)?.split(",")[0]?.trim() ||
        ((req.socket as { encrypted?: boolean }).encrypted ? "https" : "http");
      return `${proto}://${host}${mount.replace(/\/?$/, "/")}`;
    },
    body: (maxBytes) => readBody(req, maxBytes),
  };
}

/**
 * The body, refused with `BodyTooLargeError` as soon as it passes `maxBytes`
 * (or at once when `Content-Length` says it will). A body a framework
 * already parsed (`req.body`) is used as is.
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const parsed = (req as { body?: unknown }).body;
  if (req.readableEnded && parsed !== undefined) {
    const bytes =
      parsed instanceof Uint8Array ? parsed : Buffer.from(typeof parsed === "string" ? parsed : JSON.stringify(parsed));
    return bytes.byteLength > maxBytes ? Promise.reject(new BodyTooLargeError(maxBytes)) : Promise.resolve(bytes);
  }
  const declared = Number(req.headers["content-length"]);
  if (declared > maxBytes) return Promise.reject(new BodyTooLargeError(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        reject(new BodyTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error("The client closed the connection before sending the whole body"));
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onError);
    req.once("close", onClose);
  });
}

async function writeReply(reply: HttpReply, res: ServerResponse, closed: ClientGone): Promise<void> {
  if (reply.kind === "body") {
    res.writeHead(reply.status, reply.headers).end(reply.body);
    return;
  }
  const signal = closed.signal;
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  const chunks = reply.chunks[Symbol.asyncIterator]();
  // Frames produced in one burst go out in one write: the socket is corked
  // until the burst yields to the event loop (or fills the buffer).
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
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
      }
    }
  } finally {
    if (corked) uncork();
    if (!completed) await chunks.return?.();
    if (!res.writableEnded) res.end();
  }
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
