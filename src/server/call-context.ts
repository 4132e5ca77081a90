/**
 * What a binding knows about one call, handed to the request handler with the
 * decoded request. The same for JSON-RPC, HTTP+JSON and gRPC, so the handler
 * behaves identically on all three (spec §5.1).
 */
import type { ProtocolBinding } from "../a2a/constants.js";
import type { HeadersLike } from "../a2a/headers.js";
import type { CallerIdentity } from "./auth/caller-identity.js";

export interface ServerCallContext {
  /** The binding the call arrived on. */
  readonly binding: ProtocolBinding;
  /**
   * Request headers (HTTP) or metadata (gRPC): service parameters
   * (`A2A-Version`, `A2A-Extensions`), credentials, NovaOS pod headers.
   */
  readonly headers: HeadersLike;
  /**
   * The caller's IP address as the socket sees it (never a forwarded
   * header); undefined where the runtime does not say (Fetch) or the call
   * was made in process.
   */
  readonly remoteAddress?: string | undefined;
  /**
   * Who is calling, as the agent's authentication decided: set by the
   * binding before the request is read. A context made in process may carry
   * its caller; without one, the agent authenticates the call itself.
   */
  readonly identity?: CallerIdentity | undefined;
  /**
   * Aborted when the caller goes away (client disconnect, gRPC cancel). It
   * detaches the caller from the task; it never cancels the task.
   */
  readonly signal: AbortSignal;
  /**
   * Response headers (HTTP) or metadata (gRPC) the handler wants sent, e.g.
   * `A2A-Extensions` naming the activated extensions. Bindings send them with
   * the response head, so the handler sets them before returning or before
   * the first stream frame.
   */
  readonly responseHeaders: Headers;
}
