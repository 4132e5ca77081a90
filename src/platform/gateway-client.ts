/**
 * `GatewayClient`: the NovaOS Execution Gateway's REST/SSE front door, for
 * applications that drive agent runs without speaking A2A (a marketplace
 * frontend, a bot). It talks platform nouns only — an instance to run, a run
 * to follow — over openapi-fetch and the generated `paths` of
 * openapi/gateway.yaml, authenticated with a NovaOS IAM bearer token.
 *
 *   await using gw = new GatewayClient({ baseUrl, auth: new BearerTokenAuth(token) });
 *   const { runId } = await gw.execute({ instanceId, inputText: "Hello!" });
 *   for await (const event of gw.eventsWithReconnect(runId)) {
 *     if (event.type === "chunk") process.stdout.write(event.content ?? "");
 *     if (event.isTerminal && event.isFailure) console.error("run failed:", event.content);
 *   }
 *
 * A run has no cancel call: abort the signal (or close the client) to end a
 * subscription.
 */
import type { Client as OpenApiClient } from "openapi-fetch";
import type { components, paths } from "../../gen/openapi/gateway.js";
import { SSE_MEDIA_TYPE } from "../a2a/constants.js";
import { readSseEvents, SseEventTooLargeError } from "../a2a/sse.js";
import {
  NovaOSConnectionError,
  NovaOSError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../errors/novaos-errors.js";
import type { AuthProvider } from "../http/auth.js";
import { checkBaseUrl } from "../http/base-url.js";
import { CallScope } from "../http/call-scope.js";
import { createOwnedFetch, type OwnedFetch } from "../http/owned-fetch.js";
import { createPlatformClient } from "../http/platform-client.js";
import { platformHttpError } from "../http/platform-http-error.js";
import { connectionError } from "../http/transport-failure.js";
import { sleep } from "../runtime/clock.js";
import { Attachment, type AttachmentInit } from "./attachment.js";
import { reconnectDelayMs } from "./backoff.js";
import { StreamEvent } from "./stream-event.js";

/** Deadline of a unary gateway call (execute, health, service run). Streams have none. */
export const DEFAULT_GATEWAY_TIMEOUT_MS = 30_000;
/** The gateway refuses longer input; checked here first so the call fails before the network. */
export const MAX_INPUT_TEXT_CHARS = 100_000;
/** Consecutive failed attempts, with no event between them, after which `eventsWithReconnect` gives up. */
export const DEFAULT_RECONNECT_MAX_RETRIES = 5;
export const DEFAULT_RECONNECT_INITIAL_BACKOFF_MS = 1_000;
export const DEFAULT_RECONNECT_MAX_BACKOFF_MS = 30_000;

export type ExecuteResponseJson = components["schemas"]["ExecuteResponse"];
export type ServiceRun = components["schemas"]["ServiceRun"];

export interface GatewayClientOptions {
  /** The gateway, e.g. `http://execution-gateway:8081`. */
  baseUrl: string;
  /** Typically `BearerTokenAuth` with a NovaOS IAM token; read afresh on every call. */
  auth?: AuthProvider;
  /** Deadline of a unary call (ms); `0` for none. Default 30 000. */
  timeoutMs?: number;
  /** Sent on every call; credentials win over them. */
  headers?: Record<string, string>;
  /** Sent as `X-Tenant-ID` on every call. */
  tenantId?: string;
  /** Default: undici's, on connections the client owns and `close()` releases. */
  fetch?: typeof fetch;
  /** Cap on one SSE event. Default 10 MiB. */
  maxSseEventBytes?: number;
}

export interface GatewayCallOptions {
  signal?: AbortSignal;
  /** Overrides the client's deadline for this call (ms); `0` for none. */
  timeoutMs?: number;
  /** W3C trace context for this call (default: the active OpenTelemetry context, if any). */
  traceparent?: string;
}

export interface ExecuteOptions extends GatewayCallOptions {
  /** The installed agent instance (a UUID), not an agent name. */
  instanceId: string;
  /** The input, at most 100 000 characters. */
  inputText: string;
  /** Continues a conversation thread (UUID). */
  threadId?: string;
  /** Groups runs into a conversation (UUID). */
  conversationId?: string;
  /** Files for the run; omitted from the request when empty. */
  attachments?: readonly (Attachment | AttachmentInit)[];
  /** Service accounts only: delivered to the pod as request headers. */
  customHeaders?: Record<string, string>;
}

export interface ExecuteResult {
  runId: string;
  /** E.g. `started`, or `completed` for a run that finished synchronously. */
  status: string | undefined;
  /** The output, when the run finished synchronously. */
  output: unknown;
  /** The whole response body. */
  raw: ExecuteResponseJson;
}

export interface EventsOptions {
  /** Resume strictly after this SSE id (a previous event's `id`, never its `sequence`). */
  lastEventId?: string;
  signal?: AbortSignal;
  traceparent?: string;
}

export interface ReconnectOptions extends EventsOptions {
  /** Consecutive failed attempts with no event between them before giving up. Default 5. */
  maxRetries?: number;
  /** Delay before the first reconnect (ms). Default 1 000. */
  initialBackoffMs?: number;
  /** Upper bound of a reconnect delay (ms). Default 30 000. */
  maxBackoffMs?: number;
  /** The jitter source, in [0, 1). Default `Math.random`. */
  random?: () => number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requireUuid(value: unknown, field: string): string {
  if (typeof value !== "string" || !UUID.test(value)) {
    throw new NovaOSValidationError(`${field} must be a UUID, got ${JSON.stringify(value)}`, { field });
  }
  return value;
}

/** Code points, as JSON Schema `maxLength` counts them; stops counting past the limit. */
function exceedsChars(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let count = 0;
  for (const _ of text) if (++count > limit) return true;
  return false;
}

export class GatewayClient implements AsyncDisposable {
  readonly baseUrl: string;
  readonly #options: GatewayClientOptions;
  readonly #ownedFetch: OwnedFetch | undefined;
  readonly #api: OpenApiClient<paths>;
  #closed = false;

  constructor(options: GatewayClientOptions) {
    this.baseUrl = checkBaseUrl(options.baseUrl, "Execution Gateway");
    this.#options = options;
    this.#ownedFetch = options.fetch ? undefined : createOwnedFetch();
    this.#api = createPlatformClient<paths>({
      baseUrl: options.baseUrl,
      auth: options.auth,
      headers: { ...options.headers, ...(options.tenantId ? { "X-Tenant-ID": options.tenantId } : {}) },
      fetch: options.fetch ?? this.#ownedFetch?.fetch,
    });
  }

  /**
   * Starts a run and returns as soon as it exists. Bad arguments fail before
   * any request (NovaOSValidationError); 401/403 NovaOSAuthenticationError,
   * 404 (no such instance) NovaOSAgentNotFoundError, 429 NovaOSRateLimitError,
   * 5xx NovaOSServerError, no answer NovaOSConnectionError. Never retried: a
   * run is not idempotent.
   */
  async execute(options: ExecuteOptions): Promise<ExecuteResult> {
    const instanceId = requireUuid(options.instanceId, "instanceId");
    if (typeof options.inputText !== "string") {
      throw new NovaOSValidationError("inputText is required", { field: "inputText" });
    }
    if (exceedsChars(options.inputText, MAX_INPUT_TEXT_CHARS)) {
      throw new NovaOSValidationError(`inputText exceeds ${MAX_INPUT_TEXT_CHARS} characters`, { field: "inputText" });
    }
    const attachments = (options.attachments ?? []).map((a) => (a instanceof Attachment ? a : new Attachment(a)));
    const body = {
      instance_id: instanceId,
      input_text: options.inputText,
      ...(options.threadId !== undefined ? { thread_id: requireUuid(options.threadId, "threadId") } : {}),
      ...(options.conversationId !== undefined
        ? { conversation_id: requireUuid(options.conversationId, "conversationId") }
        : {}),
      ...(attachments.length > 0 ? { attachments: attachments.map((a) => a.toWire()) } : {}),
      ...(options.customHeaders ? { custom_headers: options.customHeaders } : {}),
    };
    const raw = await this.#unary("POST /api/v1/execute", "instance", options, (signal) =>
      this.#api.POST("/api/v1/execute", { body, params: { header: this.#traceHeader(options) }, signal }),
    );
    if (typeof raw.run_id !== "string" || raw.run_id === "") {
      throw new NovaOSServerError("The Execution Gateway started a run without a run_id", { details: { body: raw } });
    }
    return { runId: raw.run_id, status: raw.status, output: raw.output, raw };
  }

  /**
   * The run's events as they arrive, ending after the terminal one (see
   * `StreamEvent.isTerminal`), which is always yielded. A stream that ends
   * before a terminal event is a NovaOSConnectionError (retryable), never a
   * quiet end: the run has not finished. Pass `lastEventId` to resume after
   * a previous event; most callers want `eventsWithReconnect`.
   */
  async *events(runId: string, options: EventsOptions = {}): AsyncGenerator<StreamEvent, void, undefined> {
    if (typeof runId !== "string" || runId === "") {
      throw new NovaOSValidationError("runId is required", { field: "runId" });
    }
    const operation = `GET /api/v1/events/${runId}`;
    using scope = new CallScope(options.signal, 0);
    let body: ReadableStream<Uint8Array>;
    try {
      this.#checkOpen();
      const { data, error, response } = await this.#api.GET("/api/v1/events/{runId}", {
        params: {
          path: { runId },
          header: {
            ...(options.lastEventId !== undefined ? { "Last-Event-ID": options.lastEventId } : {}),
            ...this.#traceHeader(options),
          },
        },
        headers: { Accept: SSE_MEDIA_TYPE },
        parseAs: "stream",
        signal: scope.signal,
      });
      if (!response.ok) throw this.#httpError(response, error, operation, "run");
      if (!data || !(response.headers.get("content-type") ?? "").toLowerCase().startsWith(SSE_MEDIA_TYPE)) {
        await data?.cancel();
        throw new NovaOSServerError(`${operation} did not answer with ${SSE_MEDIA_TYPE}`, {
          details: { contentType: response.headers.get("content-type") },
        });
      }
      body = data;
    } catch (error) {
      throw this.#failure(scope, error, operation);
    }
    try {
      for await (const sse of readSseEvents(body, { maxEventBytes: this.#options.maxSseEventBytes })) {
        const event = StreamEvent.fromSse(sse);
        yield event;
        if (event.isTerminal) return;
      }
    } catch (error) {
      throw this.#failure(scope, error, operation);
    }
    throw this.#failure(
      scope,
      new NovaOSConnectionError(`${operation}: the stream ended before the run finished`, { details: { runId } }),
      operation,
    );
  }

  /**
   * `events`, reconnecting after a retryable failure (a dropped connection,
   * a stream cut short, 429, 502/503/504) with `Last-Event-ID` set to the SSE
   * id of the last event yielded, so each event is yielded exactly once and
   * in order. Delays grow from `initialBackoffMs` to `maxBackoffMs` with
   * jitter (and honour a longer `Retry-After`). After `maxRetries`
   * consecutive failures with no event between them it throws a
   * NovaOSConnectionError carrying the last failure; a non-retryable error
   * (401, 403, 404, a malformed event) is thrown at once.
   */
  async *eventsWithReconnect(
    runId: string,
    options: ReconnectOptions = {},
  ): AsyncGenerator<StreamEvent, void, undefined> {
    const maxRetries = options.maxRetries ?? DEFAULT_RECONNECT_MAX_RETRIES;
    const initialMs = options.initialBackoffMs ?? DEFAULT_RECONNECT_INITIAL_BACKOFF_MS;
    const maxMs = options.maxBackoffMs ?? DEFAULT_RECONNECT_MAX_BACKOFF_MS;
    let lastEventId = options.lastEventId;
    let failures = 0;
    while (true) {
      try {
        for await (const event of this.events(runId, { ...options, lastEventId })) {
          failures = 0;
          if (event.id !== undefined) lastEventId = event.id;
          yield event;
        }
        return;
      } catch (error) {
        if (options.signal?.aborted || this.#closed || !(error instanceof NovaOSError) || !error.isRetryable) {
          throw error;
        }
        failures++;
        if (failures > maxRetries) {
          throw new NovaOSConnectionError(
            `Gave up on the events of run ${runId} after ${failures} consecutive failed attempts: ${error.message}`,
            { cause: error, details: { runId, lastEventId, attempts: failures } },
          );
        }
        const delay = reconnectDelayMs(failures, { initialMs, maxMs, random: options.random }, error.retryAfter);
        await sleep(delay, options.signal);
      }
    }
  }

  /** Whether the real-time event subsystem is up (200 → its `healthy`, 503 → false); other failures throw. */
  async streamingHealth(options: GatewayCallOptions = {}): Promise<boolean> {
    const operation = "GET /api/v1/streaming/health";
    using scope = new CallScope(
      options.signal,
      options.timeoutMs ?? this.#options.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS,
    );
    try {
      this.#checkOpen();
      const { data, error, response } = await this.#api.GET("/api/v1/streaming/health", {
        params: { header: this.#traceHeader(options) },
        signal: scope.signal,
      });
      if (response.status === 503) return false;
      if (!response.ok || data === undefined) throw this.#httpError(response, error, operation, "run");
      return data.healthy === true;
    } catch (error) {
      throw this.#failure(scope, error, operation);
    }
  }

  /** A run as a service account sees it, artifacts' skill metadata included. 404 is NovaOSValidationError. */
  async getServiceRun(runId: string, options: GatewayCallOptions = {}): Promise<ServiceRun> {
    if (typeof runId !== "string" || runId === "") {
      throw new NovaOSValidationError("runId is required", { field: "runId" });
    }
    return this.#unary(`GET /api/v1/service/runs/${runId}`, "run", options, (signal) =>
      this.#api.GET("/api/v1/service/runs/{id}", {
        params: { path: { id: runId }, header: this.#traceHeader(options) },
        signal,
      }),
    );
  }

  /** Whether `close()` has been called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Releases the connections the client owns; open subscriptions end with a NovaOSError, calls after it throw. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#ownedFetch?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #checkOpen(): void {
    if (this.#closed) throw new NovaOSError("The gateway client is closed");
  }

  #traceHeader(options: { traceparent?: string | undefined }): { traceparent?: string } {
    return options.traceparent !== undefined ? { traceparent: options.traceparent } : {};
  }

  async #unary<T>(
    operation: string,
    missing: "instance" | "run",
    options: GatewayCallOptions,
    call: (signal: AbortSignal) => Promise<{ data?: T; error?: unknown; response: Response }>,
  ): Promise<T> {
    using scope = new CallScope(
      options.signal,
      options.timeoutMs ?? this.#options.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS,
    );
    try {
      this.#checkOpen();
      const { data, error, response } = await call(scope.signal);
      if (!response.ok || data === undefined) throw this.#httpError(response, error, operation, missing);
      return data;
    } catch (error) {
      throw this.#failure(scope, error, operation);
    }
  }

  #httpError(response: Response, body: unknown, operation: string, missing: "instance" | "run"): NovaOSError {
    return platformHttpError(response, body, {
      operation: `Execution Gateway ${operation}`,
      ...(missing === "run"
        ? { notFound: (message, o) => new NovaOSValidationError(message, { ...o, reason: "not_found" }) }
        : {}),
    });
  }

  /** The error a call ends with: the caller's abort, a closed client, an SDK error as is, else a lost connection. */
  #failure(scope: CallScope, error: unknown, operation: string): unknown {
    const aborted = scope.abortError();
    if (aborted !== undefined) return aborted;
    if (this.#closed && !(error instanceof NovaOSValidationError)) {
      return new NovaOSError("The gateway client is closed", { cause: error });
    }
    if (error instanceof SseEventTooLargeError) {
      return new NovaOSServerError(`${operation}: ${error.message}`, { cause: error });
    }
    return connectionError(error, `${this.baseUrl} (${operation})`);
  }
}
