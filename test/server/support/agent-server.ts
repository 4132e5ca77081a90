/**
 * Test support: an AgentBuilder served on a real socket (port 0), a raw
 * JSON-RPC caller, an SSE stream reader that can hang up mid-stream, and
 * deferred promises for gating skills. No sleeps: tests await events.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { create, fromJson, type JsonObject } from "@bufbuild/protobuf";
import { MessageSchema, SendMessageRequestSchema, type SendMessageResponse } from "../../../gen/a2a_pb.js";
import { readSseEvents } from "../../../src/a2a/sse.js";
import { type NodeRequestListener, nodeHandler } from "../../../src/node/index.js";
import { createLogger } from "../../../src/runtime/logger.js";
import { AgentBuilder, type ServeOptions } from "../../../src/server/agent-builder.js";
import type { TaskStore } from "../../../src/server/task-store.js";

export interface Deferred<T = void> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface RunningServer {
  readonly url: string;
  readonly server: http.Server;
  /** Resolves when the server has seen the response of the n-th request (1-based) close. */
  responseClosed(n: number): Promise<void>;
  close(): Promise<void>;
}

/** Serves `nodeHandler(agent)` on 127.0.0.1:0; `wrap` may surround the listener. */
export async function serveAgent(
  // biome-ignore lint/suspicious/noExplicitAny: any tools type.
  agent: AgentBuilder<any>,
  options: ServeOptions & {
    wrap?: (listener: NodeRequestListener) => http.RequestListener;
  } = {},
): Promise<RunningServer> {
  const listener = nodeHandler(agent, options);
  const closes: Deferred[] = [];
  const closeOf = (n: number) => {
    while (closes.length < n) closes.push(deferred());
    return closes[n - 1] as Deferred;
  };
  let count = 0;
  const inner = options.wrap
    ? options.wrap(listener)
    : (req: IncomingMessage, res: ServerResponse) => void listener(req, res);
  const server = http.createServer((req, res) => {
    const n = ++count;
    inner(req, res);
    // Registered after the adapter's own listener, so it runs once the adapter has reacted.
    res.once("close", () => closeOf(n).resolve());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    server,
    responseClosed: (n) => closeOf(n).promise,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const V1 = { "A2A-Version": "1.0" } as const;

/** An agent on `store` that answers every caller and logs nothing, for tests of the harness and its stores. */
export function agentOnStore(name: string, store: TaskStore): AgentBuilder {
  return new AgentBuilder({ name, auth: "none", taskStore: store, logger: createLogger({ level: "silent" }) });
}

/** SendMessage with a user message of `text`, straight to the agent's request handler (no socket), as version 1.0. */
export function sendDirect(
  agent: AgentBuilder,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<SendMessageResponse> {
  const request = create(SendMessageRequestSchema, {
    message: fromJson(MessageSchema, userMessage(text, extra) as JsonObject),
  });
  return agent.requestHandler().sendMessage(request, {
    binding: "JSONRPC",
    headers: new Headers(V1),
    signal: new AbortController().signal,
    responseHeaders: new Headers(),
  });
}

let nextId = 1;

export interface RpcReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected freely in tests.
  body: any;
}

/** One JSON-RPC call; `headers` default to `A2A-Version: 1.0`. */
export async function rpc(
  url: string,
  method: string,
  params: unknown = {},
  headers: Record<string, string> = V1,
): Promise<RpcReply> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** The `result` of a call, or a thrown Error naming the JSON-RPC error. */
// biome-ignore lint/suspicious/noExplicitAny: JSON results are inspected freely in tests.
export async function result(url: string, method: string, params: unknown = {}): Promise<any> {
  const reply = await rpc(url, method, params);
  if (reply.body.error) throw new Error(`${method} failed: ${JSON.stringify(reply.body.error)}`);
  return reply.body.result;
}

export interface OpenStream {
  readonly status: number;
  readonly contentType: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: JSON envelopes are inspected freely in tests.
  next(): Promise<any | undefined>;
  /** Every remaining envelope until the server ends the stream. */
  // biome-ignore lint/suspicious/noExplicitAny: JSON envelopes are inspected freely in tests.
  rest(): Promise<any[]>;
  /** The SSE `event:` field of each envelope read so far. */
  readonly eventTypes: (string | undefined)[];
  /** Hangs up (the client goes away). */
  abort(): void;
}

/** Opens a streaming call and reads its SSE envelopes one by one. */
export async function openStream(
  url: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = V1,
): Promise<OpenStream> {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    signal: controller.signal,
  });
  const eventTypes: (string | undefined)[] = [];
  const events = res.body ? readSseEvents(res.body)[Symbol.asyncIterator]() : undefined;
  const next = async () => {
    if (!events) return undefined;
    const event = await events.next();
    if (event.done) return undefined;
    eventTypes.push(event.value.event);
    return JSON.parse(event.value.data);
  };
  return {
    status: res.status,
    contentType: res.headers.get("content-type"),
    next,
    async rest() {
      const out = [];
      for (let e = await next(); e !== undefined; e = await next()) out.push(e);
      return out;
    },
    eventTypes,
    abort: () => controller.abort(),
  };
}

/** A user message in ProtoJSON. */
export function userMessage(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text }], ...extra };
}

/** The state a stream envelope reports, if any. */
// biome-ignore lint/suspicious/noExplicitAny: JSON envelopes are inspected freely in tests.
export function frameStateOf(envelope: any): string | undefined {
  const r = envelope?.result;
  return r?.task?.status?.state ?? r?.statusUpdate?.status?.state;
}
