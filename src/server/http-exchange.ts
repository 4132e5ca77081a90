/**
 * The seam between the HTTP bindings (JSON-RPC, HTTP+JSON) and the servers
 * they are mounted on (node:http, Fetch API). A binding reads an
 * `HttpRequestLike` and answers an `HttpReply`; adapters translate both to
 * their framework without the bindings knowing which one it is.
 */
import type { ProtocolBinding } from "../a2a/constants.js";
import type { HeadersLike } from "../a2a/headers.js";

export interface HttpRequestLike {
  readonly method: string;
  /** The path relative to where the agent is mounted, starting with "/". */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: HeadersLike;
  /** The client's IP address as the socket sees it, when the adapter knows it (node:http does, Fetch does not). */
  readonly remoteAddress?: string | undefined;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /**
   * The absolute URL the agent is mounted at (ends with "/"), when the adapter
   * knows it: what a served agent card names as the interface URL.
   */
  readonly baseUrl?: string;
  /**
   * The request body. Rejects with `BodyTooLargeError` (src/http/capped-body.ts)
   * as soon as more than `maxBytes` arrive, without buffering the rest.
   */
  body(maxBytes: number): Promise<Uint8Array>;
}

/** A complete response. */
export interface HttpBodyReply {
  readonly kind: "body";
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
}

/**
 * A streamed response (SSE). Adapters send the head, then each chunk as it is
 * produced, honouring backpressure; when the client goes away they call the
 * iterator's `return()`.
 */
export interface HttpStreamReply {
  readonly kind: "stream";
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly chunks: AsyncIterable<string>;
}

export type HttpReply = HttpBodyReply | HttpStreamReply;

/** One HTTP binding: answers the requests it routes, and `undefined` for the others. */
export interface HttpBinding {
  /** The A2A protocol binding it serves, for the `supportedInterfaces` of a served card (none for other routes). */
  readonly protocolBinding?: ProtocolBinding;
  handle(request: HttpRequestLike): Promise<HttpReply | undefined>;
}
