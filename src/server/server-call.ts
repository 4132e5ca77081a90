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
}

const NOTHING = () => undefined;

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
  if (!streaming) {
    return {
      context: {
        binding,
        headers,
        // Read through, so an adapter that makes its signal on demand makes none for a call that never looks.
        get signal() {
          return request.signal;
        },
        responseHeaders: new Headers(),
      },
      detach: NOTHING,
      close: NOTHING,
    };
  }
  const controller = new AbortController();
  const detach = () => {
    request.signal.removeEventListener("abort", detach);
    controller.abort(request.signal.reason);
  };
  if (request.signal.aborted) detach();
  else request.signal.addEventListener("abort", detach, { once: true });
  return {
    context: { binding, headers, signal: controller.signal, responseHeaders: new Headers() },
    detach,
    close: () => request.signal.removeEventListener("abort", detach),
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
