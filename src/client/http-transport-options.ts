/** What the two HTTP bindings share: where to send, how to fetch, and how much to read. */
export interface HttpTransportOptions {
  /** The interface URL (`AgentInterface.url`). */
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  /** Cap on one reply body; a larger one is an InvalidAgentResponseError. */
  readonly maxResponseBytes: number;
  /** Cap on one SSE event (default: the protocol layer's). */
  readonly maxSseEventBytes?: number | undefined;
}
