/**
 * The `fetch` the `openai` package is given for the LLM Gateway (decision
 * D134): everything the SDK adds to an OpenAI request happens here, so
 * `openai` keeps its wire and its types and the SDK keeps its own rules.
 *
 * - the run's token as the bearer (read per request; none without one), the
 *   `X-NovaOS-*` correlation headers, and the current trace context;
 * - the client's one resilience policy: an answer of 502, 503, 504 or a 429
 *   other than `insufficient_quota` (the budget is spent: no retry helps),
 *   or a lost connection, is retried; the last answer is handed to `openai`
 *   as it came, for `openai` to turn into its error;
 * - a CLIENT span per attempt;
 * - bounded answers: an error body is cut to 64 KiB, a JSON body to
 *   `maxResponseBytes`, each line of an event stream to 1 MiB; a 2xx answer
 *   of another media type than the request asked for is a NovaOSServerError.
 *
 * A streamed completion is retried only until its answer starts: after
 * that, the body belongs to `openai`'s stream.
 */
import { type NovaOSErrorOptions, NovaOSServerError } from "../errors/novaos-errors.js";
import { withBodyHead } from "../http/capped-body.js";
import { boundedBody } from "../http/capped-stream.js";
import { parseRetryAfter } from "../http/http-status-errors.js";
import { isRecord } from "../http/json-fields.js";
import { isJsonMediaType } from "../http/json-media-type.js";
import { injectTraceContext } from "../http/trace-headers.js";
import type { ResiliencePolicy } from "../runtime/resilience.js";
import { tracedGatewayCall } from "../runtime/tracing.js";

/** The longest line of an event stream read. */
export const MAX_EVENT_LINE_BYTES = 1024 * 1024;

const TRANSIENT: ReadonlySet<number> = new Set([429, 502, 503, 504]);
const SSE_MEDIA = /^text\/event-stream\s*(?:;|$)/i;

export interface GatewayFetchOptions {
  /** The fetch that sends (the caller's, or the client's own). */
  readonly send: typeof fetch;
  readonly policy: ResiliencePolicy;
  /** Credentials and correlation headers, read per request; they replace what `openai` set. */
  headers(): Promise<Record<string, string>>;
  /** The run's trace, sent when no span is active. */
  traceparent(): string | undefined;
  readonly maxResponseBytes: number;
}

/**
 * A transient answer, kept (its first 64 KiB) so that the last one can be
 * handed to `openai` once the attempts run out.
 */
class TransientAnswer extends NovaOSServerError {
  static override readonly brand: string = "TransientAnswer";
  constructor(
    readonly answer: Response,
    options: NovaOSErrorOptions & { statusCode: number },
  ) {
    super(`LLM Gateway answered HTTP ${options.statusCode}`, options);
  }
}

/** OpenAI's `{error: {code}}` of a 429 says whether waiting helps: `insufficient_quota` never does. */
async function isQuotaSpent(response: Response): Promise<boolean> {
  try {
    const body: unknown = await response.clone().json();
    return isRecord(body) && isRecord(body.error) && body.error.code === "insufficient_quota";
  } catch {
    return false;
  }
}

/** Whether a request body asks for a streamed answer (`"stream": true`). */
function asksForStream(body: unknown): boolean {
  if (typeof body !== "string" || !body.includes('"stream"')) return false;
  try {
    const parsed: unknown = JSON.parse(body);
    return isRecord(parsed) && parsed.stream === true;
  } catch {
    return false;
  }
}

export function createGatewayFetch(options: GatewayFetchOptions): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const method = (init.method ?? "GET").toUpperCase();
    const stream = asksForStream(init.body);
    const headers = new Headers(init.headers);
    headers.delete("authorization");
    for (const [name, value] of Object.entries(await options.headers())) headers.set(name, value);
    if (stream) headers.set("accept", "text/event-stream");
    injectTraceContext(headers, options.traceparent());
    const caller = init.signal ?? undefined;
    try {
      return await options.policy.execute(
        (signal) =>
          tracedGatewayCall(method, url.href, async (span) => {
            const response = await options.send(url.href, {
              ...init,
              headers,
              signal: caller ? AbortSignal.any([caller, signal]) : signal,
            });
            span.setAttribute("http.response.status_code", response.status);
            return answerOf(response, stream, options.maxResponseBytes);
          }),
        { signal: caller, idempotent: true, operation: `${method} ${url.pathname}` },
      );
    } catch (error) {
      if (error instanceof TransientAnswer) return error.answer;
      throw error;
    }
  }) as typeof fetch;
}

/** What `openai` gets for one attempt's response, or the error that makes the policy try again. */
async function answerOf(response: Response, stream: boolean, maxResponseBytes: number): Promise<Response> {
  if (!response.ok) {
    const answer = response.body === null ? response : await withBodyHead(response);
    if (TRANSIENT.has(response.status) && !(response.status === 429 && (await isQuotaSpent(answer)))) {
      throw new TransientAnswer(answer, {
        statusCode: response.status,
        code: response.status,
        retryAfter: parseRetryAfter(response.headers.get("retry-after")),
      });
    }
    return answer;
  }
  const contentType = response.headers.get("content-type") ?? "";
  if (response.body === null || response.status === 204) return response;
  if (!(stream ? SSE_MEDIA.test(contentType) : isJsonMediaType(contentType))) {
    await response.body.cancel().catch(() => undefined);
    throw new NovaOSServerError(
      `LLM Gateway answered ${contentType || "no Content-Type"}, not ${stream ? "text/event-stream" : "JSON"}`,
      { details: { status: response.status, contentType } },
    );
  }
  const body = boundedBody(
    response.body,
    stream ? { maxLineBytes: MAX_EVENT_LINE_BYTES } : { maxBytes: maxResponseBytes },
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
