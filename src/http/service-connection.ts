/**
 * What every JSON platform client (Memory, run observability, heartbeats, the
 * MCP Gateway) does around one call, so each client says only what is its
 * own (its routes, bodies and error classes):
 *
 * - the base URL from the option or the service's environment variable;
 * - an openapi-fetch client over the service's generated `paths`, with the
 *   caller's headers, credentials and trace context (platform-client.ts);
 * - the one `ResiliencePolicy` of the client: retries of idempotent calls,
 *   the breaker, a deadline per attempt (runtime/resilience.ts);
 * - a CLIENT span per attempt (`tracedGatewayCall`), so the trace headers an
 *   attempt sends name that attempt;
 * - the answer read defensively: a non-2xx status becomes the client's typed
 *   error, a 2xx answer must be JSON (its Content-Type), at most
 *   `maxResponseBytes`, and parse; anything else is a NovaOSServerError,
 *   and a connection lost midway a retryable NovaOSConnectionError;
 * - ownership: a `fetch` the caller passes is never closed; the undici
 *   dispatcher the connection makes without one is closed by `close()`.
 */

import type { Client as OpenApiClient } from "openapi-fetch";
import { NovaOSError, NovaOSServerError } from "../errors/novaos-errors.js";
import { type ResilienceOptions, ResiliencePolicy } from "../runtime/resilience.js";
import { tracedGatewayCall } from "../runtime/tracing.js";
import type { AuthProvider } from "./auth.js";
import { BodyTooLargeError, readStreamBody } from "./capped-body.js";
import { isJsonMediaType } from "./json-media-type.js";
import { lazyOwnedFetch } from "./lazy-owned-fetch.js";
import type { OwnedFetch } from "./owned-fetch.js";
import { createPlatformClient } from "./platform-client.js";
import { serviceBaseUrl } from "./service-url.js";
import { connectionError } from "./transport-failure.js";

/** The largest 2xx answer a platform client reads. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Options every platform client takes. */
export interface ServiceClientOptions {
  /** The service's base URL. Default: the service's environment variable (each client names it). */
  baseUrl?: string | undefined;
  /** The credentials, read afresh on every call. */
  auth?: AuthProvider | undefined;
  /** Sent on every call; credentials win over them. */
  headers?: Record<string, string> | undefined;
  /** Default: undici's, on connections the client owns and `close()` releases. A fetch given here is never closed. */
  fetch?: typeof fetch | undefined;
  /** Retries, breaker and the per-attempt deadline (`timeoutMs`); the defaults are the platform's (docs/platform-services.md). */
  resilience?: ResilienceOptions | undefined;
  /** The largest answer read (bytes). Default 10 MiB. */
  maxResponseBytes?: number | undefined;
  /** Where the base URL variable is read from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * The trace calls continue when no OpenTelemetry span is active: a run's
   * inbound `traceparent` (what `ctx.memory.client()` passes), read per call.
   * Default the `TRACEPARENT` environment variable.
   */
  traceparent?: string | (() => string | undefined) | undefined;
}

/** Options of one call of a platform client. */
export interface ServiceCallOptions {
  /** Ends the call, and any wait between attempts, with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** This call's deadline per attempt (ms); `0` for none. */
  timeoutMs?: number | undefined;
  /** W3C trace context for this call; default the current one (docs/platform-services.md, Tracing). */
  traceparent?: string | undefined;
}

/** Who a connection talks to. */
export interface ServiceDescription {
  /** For messages: "Memory Service". */
  readonly name: string;
  /** The environment variable holding the base URL. */
  readonly urlVariable: string;
  /** The per-attempt deadline when the caller sets none (ms). Default the policy's, 30 s. */
  readonly timeoutMs?: number | undefined;
}

/** What openapi-fetch answers for a call made with `parseAs: "stream"`. */
export interface StreamExchange {
  readonly data?: ReadableStream<Uint8Array> | null | undefined;
  readonly error?: unknown;
  readonly response: Response;
}

export interface JsonCall {
  /** `POST`. */
  readonly method: string;
  /** The route template, for spans and messages: `/api/v1/runs/{runId}/events`. */
  readonly route: string;
  /** False when a repeat could take effect twice: one attempt only (the breaker still applies). */
  readonly idempotent: boolean;
  /** Sends the request with `parseAs: "stream"`, the attempt's signal and `headers` (the explicit traceparent). */
  send(signal: AbortSignal, headers: Record<string, string>): Promise<StreamExchange>;
  /** The typed error for a non-2xx answer (`body`: its first 64 KiB, parsed when JSON). */
  error(response: Response, body: unknown): NovaOSError;
}

export interface JsonAnswer {
  /** The parsed JSON body. */
  readonly body: unknown;
  readonly response: Response;
}

export class ServiceConnection<Paths extends {}> {
  readonly service: ServiceDescription;
  readonly baseUrl: string;
  readonly policy: ResiliencePolicy;
  readonly api: OpenApiClient<Paths>;
  /** What sends: the caller's `fetch`, or the one the connection owns. */
  readonly fetch: typeof fetch;
  readonly #ownedFetch: OwnedFetch | undefined;
  readonly #maxResponseBytes: number;
  #closed = false;

  constructor(service: ServiceDescription, options: ServiceClientOptions) {
    this.service = service;
    this.baseUrl = serviceBaseUrl(service.name, service.urlVariable, options.baseUrl, options.env);
    this.policy = new ResiliencePolicy({
      name: service.name,
      ...options.resilience,
      timeoutMs: options.resilience?.timeoutMs ?? service.timeoutMs,
    });
    this.#ownedFetch = options.fetch ? undefined : lazyOwnedFetch();
    this.fetch = options.fetch ?? (this.#ownedFetch as OwnedFetch).fetch;
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const run = options.traceparent;
    this.api = createPlatformClient<Paths>({
      baseUrl: this.baseUrl,
      auth: options.auth,
      headers: options.headers,
      fetch: this.fetch,
      traceparent: typeof run === "string" ? () => run : run,
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Throws when the connection is closed. */
  checkOpen(): void {
    if (this.#closed) throw new NovaOSError(`The ${this.service.name} client is closed`);
  }

  /** One call under the policy: its JSON answer, or the typed error of its last attempt. */
  async json(call: JsonCall, options: ServiceCallOptions = {}): Promise<JsonAnswer> {
    this.checkOpen();
    const operation = `${call.method} ${call.route}`;
    const headers: Record<string, string> = options.traceparent ? { traceparent: options.traceparent } : {};
    return this.policy.execute(
      (signal) =>
        tracedGatewayCall(call.method, call.route, async (span) => {
          try {
            this.checkOpen();
            const { data, error, response } = await call.send(signal, headers);
            span.setAttribute("http.response.status_code", response.status);
            if (!response.ok) throw call.error(response, error);
            return { body: await this.#readJson(response, data, operation), response };
          } catch (error) {
            throw this.#failure(error, operation);
          }
        }),
      { signal: options.signal, timeoutMs: options.timeoutMs, idempotent: call.idempotent, operation },
    );
  }

  /** Releases the connections the client owns (never a fetch the caller gave); calls after it throw. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#ownedFetch?.close();
  }

  async #readJson(
    response: Response,
    body: ReadableStream<Uint8Array> | null | undefined,
    operation: string,
  ): Promise<unknown> {
    const where = `${this.service.name} ${operation}`;
    const contentType = response.headers.get("content-type") ?? "";
    if (!isJsonMediaType(contentType)) {
      await body?.cancel().catch(() => undefined);
      throw new NovaOSServerError(`${where} answered ${contentType || "no Content-Type"}, not JSON`, {
        details: { status: response.status, contentType },
      });
    }
    let bytes: Uint8Array;
    try {
      bytes = await readStreamBody(body ?? null, { maxBytes: this.#maxResponseBytes });
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      throw new NovaOSServerError(`${where} answered more than ${error.maxBytes} bytes`, {
        cause: error,
        details: { status: response.status, maxBytes: error.maxBytes },
      });
    }
    try {
      return JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      throw new NovaOSServerError(`${where} answered a body that is not JSON`, {
        cause: error,
        details: { status: response.status },
      });
    }
  }

  /** An SDK error as is; a closed client says so; anything else is a lost connection (retryable). */
  #failure(error: unknown, operation: string): unknown {
    if (error instanceof NovaOSError) return error;
    if (this.#closed) return new NovaOSError(`The ${this.service.name} client is closed`, { cause: error });
    return connectionError(error, `${this.baseUrl} (${operation})`);
  }
}
