/**
 * The `ServerCallContext` of one call, the same on every binding (JSON-RPC,
 * HTTP+JSON, gRPC through connect-es and the gRPC unary fast path): the
 * request's headers or metadata, the caller's address and identity, a signal
 * that aborts when the caller goes away, and the response headers the
 * handler sets.
 *
 * Both the signal and the response headers are made when first read. A unary
 * call mostly reads neither, and an AbortController with its listeners, or a
 * `Headers`, per request is a measurable cost on the hot path; until the
 * signal is read, nothing listens for the caller at all. `close()` ends the
 * call: the signal stays as it is from then on (a signal first read after the
 * call closed is not aborted), and nothing stays attached to the request.
 */
import type { ProtocolBinding } from "../a2a/constants.js";
import type { HeadersLike } from "../a2a/headers.js";
import type { CallerIdentity } from "./auth/caller-identity.js";
import type { ServerCallContext } from "./call-context.js";

/**
 * How a call hears that its caller went away: starts listening, calls
 * `onGone` (at once when the caller is already gone), and returns how to stop.
 */
export type CallerWatch = (onGone: (reason: unknown) => void) => () => void;

const NOT_WATCHING = () => undefined;

/**
 * Watches `source.signal`, read only when watching starts (a node request
 * makes its client-gone signal on demand).
 */
export function watchSignal(source: { readonly signal: AbortSignal }): CallerWatch {
  return (onGone) => {
    const signal = source.signal;
    if (signal.aborted) {
      onGone(signal.reason);
      return NOT_WATCHING;
    }
    const listener = () => onGone(signal.reason);
    signal.addEventListener("abort", listener, { once: true });
    return () => signal.removeEventListener("abort", listener);
  };
}

export class ServerCall implements ServerCallContext {
  readonly binding: ProtocolBinding;
  readonly headers: HeadersLike;
  readonly remoteAddress: string | undefined;
  /** Set once the call is authenticated (serve-rpc.ts), before the request is read. */
  identity: CallerIdentity | undefined = undefined;
  readonly #watch: CallerWatch;
  #controller: AbortController | undefined;
  #unwatch: (() => void) | undefined;
  #responseHeaders: Headers | undefined;
  #closed = false;

  /**
   * @param watch where the caller's going away is heard.
   * @param responseHeaders the binding's own response headers, when it has
   *   them already (connect-es sends its `HandlerContext.responseHeader`).
   * @param remoteAddress the caller's address as the socket sees it, when the runtime says.
   */
  constructor(
    binding: ProtocolBinding,
    headers: HeadersLike,
    watch: CallerWatch,
    responseHeaders?: Headers,
    remoteAddress?: string,
  ) {
    this.binding = binding;
    this.headers = headers;
    this.#watch = watch;
    this.#responseHeaders = responseHeaders;
    this.remoteAddress = remoteAddress;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (!this.#closed) this.#unwatch = this.#watch((reason) => this.detach(reason));
    }
    return this.#controller.signal;
  }

  get responseHeaders(): Headers {
    this.#responseHeaders ??= new Headers();
    return this.#responseHeaders;
  }

  /**
   * The caller went away, or the binding stopped answering it: aborts the
   * signal, so the handler lets go (the task goes on). Also after `close()`.
   */
  detach(reason?: unknown): void {
    this.#stopWatching();
    this.#controller ??= new AbortController();
    this.#controller.abort(reason);
  }

  /** The call is over: stop listening for the caller. Idempotent. */
  close(): void {
    this.#closed = true;
    this.#stopWatching();
  }

  /** `base` plus every response header the handler set (`base` itself when it set none). */
  replyHeaders(base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    const extra = this.#responseHeaders;
    if (!extra) return base;
    const out = { ...base };
    extra.forEach((value, name) => {
      out[name] = value;
    });
    return out;
  }

  #stopWatching(): void {
    const unwatch = this.#unwatch;
    this.#unwatch = undefined;
    unwatch?.();
  }
}
