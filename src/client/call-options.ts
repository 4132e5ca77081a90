/**
 * What every client method takes besides its own arguments. `signal` and
 * `timeoutMs` become the call's scope (`CallScope`); `headers` and `context`
 * reach the interceptors and the transport.
 */
import type { ClientCallContext } from "./interceptors.js";

/**
 * Headers as a caller gives them: what `new Headers()` takes, spelled out so
 * that the published types need neither the DOM lib nor undici's.
 */
export type HeadersInput = Headers | Record<string, string> | [string, string][];

export interface CallOptions {
  /** Aborting it ends the call: a pending request is cancelled, a stream and its connection are closed. */
  signal?: AbortSignal;
  /**
   * A deadline for the whole call, in milliseconds (for a stream: until its
   * last frame). Overrides the client's default; `0` means no deadline.
   */
  timeoutMs?: number;
  /** Extra headers (gRPC: metadata) for this call; they win over the client's own. */
  headers?: HeadersInput;
  /** Per-call state read by interceptors and credential services; a fresh one by default. */
  context?: ClientCallContext;
}
