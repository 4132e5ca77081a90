/**
 * An `openapi-fetch` client over the generated `paths` of one platform
 * service, with what every platform call carries: the caller's fixed
 * headers, credentials read afresh per request (a rotated token takes effect
 * on the next call), and the active trace context (`traceparent`) when an
 * OpenTelemetry SDK is installed. Bodies are typed by the OpenAPI file;
 * nothing here restates one.
 */
import createClient, { type Client } from "openapi-fetch";
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import { otel } from "../runtime/otel.js";
import type { AuthProvider } from "./auth.js";

export interface PlatformClientOptions {
  baseUrl: string;
  auth?: AuthProvider | undefined;
  /** Sent on every request; credentials win over them. */
  headers?: Record<string, string> | undefined;
  /** Default: the global fetch. */
  fetch?: typeof fetch | undefined;
}

/**
 * `baseUrl` when it is an http(s) URL, else NovaOSValidationError naming
 * `service`. `new URL("execution-gateway:8081")` parses, with the host read as
 * a scheme, so parsing alone is not enough.
 */
export function checkBaseUrl(baseUrl: string, service: string): string {
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new NovaOSValidationError(`${service} baseUrl ${JSON.stringify(baseUrl)} is not an http(s) URL`, {
      field: "baseUrl",
    });
  }
  return baseUrl;
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
      const api = otel();
      if (api && !request.headers.has("traceparent")) {
        api.propagation.inject(api.context.active(), request.headers, {
          set: (headers, key, value) => headers.set(key, value),
        });
      }
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
  return fetchImpl(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body ? await request.arrayBuffer() : undefined,
    redirect: request.redirect,
    signal: request.signal,
  });
}
