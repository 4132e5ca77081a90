/**
 * Serving HTTP bindings as a Fetch handler, `(Request) => Promise<Response>`:
 * Hono, Bun, Deno, Cloudflare Workers, Next.js route handlers. Streams are
 * pull-based `ReadableStream`s (backpressure for free); when the client goes
 * away the runtime cancels the body (or aborts `request.signal`), which
 * detaches the call and returns the chunk iterator.
 */
import { BodyAbortedError, BodyTooLargeError, readStreamBody } from "../http/capped-body.js";
import type { Logger } from "../runtime/logger.js";
import type { HttpBinding, HttpReply, HttpRequestLike } from "./http-exchange.js";
import { nextTurn, overSlice } from "./turn-slice.js";

export type FetchHandler = (request: Request) => Promise<Response>;

export interface FetchHandlerOptions {
  readonly logger?: Logger;
}

export function createFetchHandler(
  bindings: () => readonly HttpBinding[],
  options: FetchHandlerOptions = {},
): FetchHandler {
  return (request) => serveFetchRequest(bindings(), request, options.logger);
}

async function serveFetchRequest(
  bindings: readonly HttpBinding[],
  request: Request,
  logger: Logger | undefined,
): Promise<Response> {
  // Aborted when the runtime aborts the request or cancels the response body.
  const controller = new AbortController();
  const onAbort = () => controller.abort(request.signal.reason);
  request.signal.addEventListener("abort", onAbort, { once: true });
  const release = () => request.signal.removeEventListener("abort", onAbort);
  try {
    const exchange = toHttpRequest(request, controller.signal);
    for (const binding of bindings) {
      const reply = await binding.handle(exchange);
      if (reply) return toResponse(reply, controller, release);
    }
    release();
    return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
  } catch (error) {
    release();
    logger?.error({ err: error }, "HTTP request failed");
    return new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } });
  }
}

function toHttpRequest(request: Request, signal: AbortSignal): HttpRequestLike {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    headers: request.headers,
    signal,
    baseUrl: `${url.origin}/`,
    body: (maxBytes) =>
      readStreamBody(request.body, { maxBytes, declaredLength: Number(request.headers.get("content-length")) }).catch(
        (error: unknown) => {
          // A request body only fails to read when its sender went away.
          throw error instanceof BodyTooLargeError ? error : new BodyAbortedError(error);
        },
      ),
  };
}

function toResponse(reply: HttpReply, controller: AbortController, release: () => void): Response {
  if (reply.kind === "body") {
    release();
    const body = reply.status === 204 || reply.status === 304 ? null : reply.body;
    return new Response(body as BodyInit | null, { status: reply.status, headers: reply.headers });
  }
  const chunks = reply.chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      try {
        // Chunks are pulled on microtasks: past this turn's slice of stream work, the next waits a turn.
        if (overSlice()) await nextTurn();
        const next = await chunks.next();
        if (next.done) {
          release();
          stream.close();
        } else {
          stream.enqueue(encoder.encode(next.value));
        }
      } catch (error) {
        release();
        stream.error(error);
      }
    },
    async cancel(reason) {
      release();
      controller.abort(reason);
      await chunks.return?.();
    },
  });
  return new Response(body, { status: reply.status, headers: reply.headers });
}
