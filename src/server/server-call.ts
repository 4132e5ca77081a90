/**
 * The `ServerCallContext` of one HTTP request: its headers, a signal that
 * aborts when the caller goes away (or the adapter stops reading), and the
 * response headers the handler sets. `close()` stops listening to the request
 * once the call is over, so nothing stays attached to it.
 */
import type { ProtocolBinding } from "../a2a/constants.js";
import type { HeadersLike } from "../a2a/headers.js";
import type { ServerCallContext } from "./call-context.js";
import type { HttpRequestLike } from "./http-exchange.js";

export interface ServerCall {
  readonly context: ServerCallContext;
  /** The caller went away: aborts `context.signal` (the handler detaches; the task goes on). */
  detach(): void;
  /** The call ended normally. Idempotent. */
  close(): void;
  /** `base` plus every response header the handler set (`base` itself when it set none). */
  replyHeaders(base: Readonly<Record<string, string>>): Readonly<Record<string, string>>;
}

/**
 * The context of one call. Its `responseHeaders` are made when the handler
 * first touches them (most calls set none, and a `Headers` per request is a
 * measurable cost); its signal is the request's unless the binding gives it
 * one of its own.
 */
class CallContext implements ServerCallContext {
  readonly binding: ProtocolBinding;
  readonly headers: HeadersLike;
  /** Read through, so an adapter that makes its signal on demand makes none for a call that never looks. */
  readonly #signalSource: { readonly signal: AbortSignal };
  #responseHeaders: Headers | undefined;

  constructor(binding: ProtocolBinding, headers: HeadersLike, signalSource: { readonly signal: AbortSignal }) {
    this.binding = binding;
    this.headers = headers;
    this.#signalSource = signalSource;
  }

  get signal(): AbortSignal {
    return this.#signalSource.signal;
  }

  get responseHeaders(): Headers {
    this.#responseHeaders ??= new Headers();
    return this.#responseHeaders;
  }

  replyHeaders(base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    return this.#responseHeaders ? replyHeaders(base, this.#responseHeaders) : base;
  }
}

/** A unary call: nothing to detach or close, the request's own signal. */
class UnaryCall implements ServerCall {
  readonly context: CallContext;

  constructor(context: CallContext) {
    this.context = context;
  }

  detach(): void {}

  close(): void {}

  replyHeaders(base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    return this.context.replyHeaders(base);
  }
}

/**
 * A call whose `context.signal` the binding can abort on its own (`detach`),
 * for a stream the adapter may stop reading. A unary call (`streaming`
 * false) needs no signal of its own: it uses the request's, which saves an
 * AbortSignal per request on the hot path.
 */
export function openServerCall(
  request: HttpRequestLike,
  binding: ProtocolBinding,
  headers: HeadersLike = request.headers,
  streaming = true,
): ServerCall {
  if (!streaming) return new UnaryCall(new CallContext(binding, headers, request));
  const controller = new AbortController();
  const detach = () => {
    request.signal.removeEventListener("abort", detach);
    controller.abort(request.signal.reason);
  };
  if (request.signal.aborted) detach();
  else request.signal.addEventListener("abort", detach, { once: true });
  const context = new CallContext(binding, headers, controller);
  return {
    context,
    detach,
    close: () => request.signal.removeEventListener("abort", detach),
    replyHeaders: (base) => context.replyHeaders(base),
  };
}

/** `base` plus every response header the handler set. */
export function replyHeaders(base: Readonly<Record<string, string>>, extra: Headers): Record<string, string> {
  const out = { ...base };
  extra.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
