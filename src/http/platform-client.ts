/**
 * An `openapi-fetch` client over the generated `paths` of one platform
 * service, with what every platform call carries: the caller's fixed
 * headers, credentials read afresh per request (a rotated token takes effect
 * on the next call), and the current trace context (trace-headers.ts). Bodies
 * are typed by the OpenAPI file; nothing here restates one. An error answer's
 * body is cut to its first 64 KiB before openapi-fetch reads it whole: it is
 * read for a message only, and a service (or a proxy before it) may answer
 * an endless one.
 */
import createClient, { type Client } from "openapi-fetch";
import type { AuthProvider } from "./auth.js";
import { withBodyHead } from "./capped-body.js";
import { injectTraceContext } from "./trace-headers.js";

export interface PlatformClientOptions {
  baseUrl: string;
  auth?: AuthProvider | undefined;
  /** Sent on every request; credentials win over them. */
  headers?: Record<string, string> | undefined;
  /** Default: the global fetch. */
  fetch?: typeof fetch | undefined;
  /** The run's own trace, sent when no span is active (trace-headers.ts). */
  traceparent?: (() => string | undefined) | undefined;
}

export function createPlatformClient<Paths extends {}>(options: PlatformClientOptions): Client<Paths> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const client = createClient<Paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: options.headers,
    fetch: (request) => fetchRequest(fetchImpl, request),
  });
  client.use({
    async onRequest({ request }) {
      injectTraceContext(request.headers, options.traceparent?.());
      for (const [name, value] of Object.entries((await options.auth?.headers()) ?? {})) {
        request.headers.set(name, value);
      }
      return request;
    },
  });
  return client;
}

/**
 * Sends an openapi-fetch `Request` through a fetch that takes a URL and an
 * init: undici's own fetch (a dispatcher the SDK owns, a guarded one) does not
 * accept another realm's Request. The body is buffered (platform bodies are
 * small JSON), which also lets a 307/308 redirect resend it.
 */
async function fetchRequest(fetchImpl: typeof fetch, request: Request): Promise<Response> {
  const response = await fetchImpl(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body ? await request.arrayBuffer() : undefined,
    redirect: request.redirect,
    signal: request.signal,
  });
  return response.status >= 400 && response.body !== null ? withBodyHead(response) : response;
}
