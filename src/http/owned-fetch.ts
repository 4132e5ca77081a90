/**
 * The fetch a client uses when the caller brings none: undici's, on a
 * dispatcher the client owns, so disposing the client closes its sockets.
 * undici's own header and body timeouts are off: a blocking SendMessage may
 * legitimately wait minutes for its task and a stream may idle between
 * frames; the client's `timeoutMs` deadline is what bounds a call.
 */
import { Agent, fetch as undiciFetch } from "undici";

export interface OwnedFetch {
  readonly fetch: typeof fetch;
  /** Destroys the dispatcher: open connections close, calls still in flight fail. */
  close(): Promise<void>;
}

export function createOwnedFetch(): OwnedFetch {
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  const ownedFetch = ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;
  return { fetch: ownedFetch, close: () => dispatcher.destroy() };
}
