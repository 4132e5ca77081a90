/**
 * One contract server per spec, answering every operation with the reply the
 * test names for the next request, so a test can send a request and a reply
 * through the spec's validators over a real socket and read what they found.
 */
import { expect } from "vitest";
import {
  type ContractServer,
  type JsonReply,
  type OperationHandler,
  startContractServer,
} from "../platform/contract-server.js";

export const TOKEN = "spec-token";

export interface SpecExchange {
  readonly server: ContractServer;
  /** Sends a request and answers it with `answer`; resolves to the violations this exchange produced. */
  send(
    method: string,
    path: string,
    options?: { body?: unknown; answer?: JsonReply | OperationHandler; headers?: Record<string, string> },
  ): Promise<string[]>;
}

export async function startSpecExchange(
  spec: string,
  operationIds: readonly string[],
  /** Schema name checking each SSE event a handler writes. */
  eventSchema?: string,
): Promise<SpecExchange> {
  let answer: JsonReply | OperationHandler = { status: 500 };
  const handler: OperationHandler = (ctx) => (typeof answer === "function" ? answer(ctx) : answer);
  const server = await startContractServer({
    spec,
    bearerToken: TOKEN,
    ...(eventSchema ? { eventSchema } : {}),
    handlers: Object.fromEntries(operationIds.map((id) => [id, handler])),
  });
  return {
    server,
    async send(method, path, options = {}) {
      answer = options.answer ?? { status: 500 };
      const before = server.violations.length;
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
          ...options.headers,
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      });
      await response.arrayBuffer();
      return server.violations.slice(before);
    },
  };
}

/** The exchange's request broke the spec (the server's 400 reply may then break it too, which is not the point). */
export function expectRefused(violations: string[], label?: string): void {
  expect(violations[0] ?? "none", label).toMatch(/ request: /);
}
