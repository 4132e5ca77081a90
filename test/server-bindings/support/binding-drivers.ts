/**
 * One caller per A2A binding, speaking the raw wire (JSON-RPC envelopes,
 * HTTP+JSON routes from the generated table, gRPC through connect-es), with
 * one shape for every outcome: a result is the RPC's response in canonical
 * ProtoJSON, an error is its ErrorInfo reason. The equivalence suite runs the
 * same scenario through each and compares.
 */
import { type DescMessage, fromJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { type Client, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { A2AService, StreamResponseSchema } from "../../../gen/a2a_pb.js";
import { BadRequestSchema, ErrorInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { type A2AMethodName, a2aServiceBindings, httpRoutesOf } from "../../../src/a2a/bindings.js";
import { encodeMessage } from "../../../src/a2a/protojson.js";
import { readSseEvents } from "../../../src/a2a/sse.js";
import { handlerMethodName } from "../../../src/server/request-handler.js";

/**
 * An error answer, by its ErrorInfo reason (`TASK_NOT_FOUND`…), with what
 * the binding said beside it: its own status (the JSON-RPC code, the HTTP
 * status, the gRPC code), the error's message and its BadRequest field
 * violations.
 */
export class WireError extends Error {
  constructor(
    readonly reason: string,
    readonly detail: { status?: number; message?: string; fields?: string[]; descriptions?: string[] } = {},
  ) {
    super(reason);
  }
}

/** What a wire error says beside its reason, from its message, status and `google.rpc` details. */
function detailOf(status: number, message: unknown, details: unknown): WireError["detail"] {
  const violations = (
    (details as { fieldViolations?: { field: string; description: string }[] }[] | undefined) ?? []
  ).flatMap((d) => d.fieldViolations ?? []);
  return {
    status,
    message: typeof message === "string" ? message : "",
    fields: violations.map((v) => v.field),
    descriptions: violations.map((v) => v.description),
  };
}

export const V1: Readonly<Record<string, string>> = { "A2A-Version": "1.0" };

export interface BindingDriver {
  /** Which binding (and client) it drives, for failure messages. */
  readonly name: string;
  /** A unary RPC: its response in canonical ProtoJSON, or a thrown WireError. */
  call(rpc: A2AMethodName, request: JsonObject, headers?: Record<string, string>): Promise<JsonObject>;
  /** A streaming RPC: its frames; `return()` hangs up; a failed call throws WireError. */
  stream(rpc: A2AMethodName, request: JsonObject, headers?: Record<string, string>): AsyncIterableIterator<JsonObject>;
  close(): void;
}

/** Canonical ProtoJSON of `schema` (REQUIRED zeros included), whatever wire it came from. */
export function canonical(schema: DescMessage, json: unknown): JsonObject {
  return encodeMessage(schema, fromJson(schema, json as JsonValue, { ignoreUnknownFields: true })) as JsonObject;
}

const outputOf = (rpc: A2AMethodName) => a2aServiceBindings[rpc].output as DescMessage;

/** Reads SSE frames, `event: error` ending the stream with its reason; hanging up aborts the request. */
async function* sseFrames(
  response: Promise<Response>,
  abort: AbortController,
  unwrap: (data: JsonObject) => JsonObject,
  failure: (response: Response) => Promise<WireError>,
): AsyncGenerator<JsonObject> {
  const res = await response;
  if (!res.ok || !res.headers.get("content-type")?.startsWith("text/event-stream")) throw await failure(res);
  try {
    for await (const event of readSseEvents(res.body!)) {
      const data = JSON.parse(event.data) as JsonObject;
      if (event.event === "error") {
        const error = data.error as JsonObject;
        const details = error.details ?? error.data;
        throw new WireError(reasonOf(details), detailOf(Number(error.code), error.message, details));
      }
      yield canonical(StreamResponseSchema, unwrap(data));
    }
  } finally {
    abort.abort();
  }
}

function reasonOf(details: unknown): string {
  return ((details as { reason?: string }[] | undefined)?.[0]?.reason as string | undefined) ?? "(no ErrorInfo)";
}

export function jsonRpcDriver(url: string): BindingDriver {
  let id = 0;
  const post = (rpc: string, params: JsonObject, headers: Record<string, string>, signal?: AbortSignal) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: rpc, params }),
      ...(signal ? { signal } : {}),
    });
  const unwrap = (envelope: JsonObject): JsonObject => {
    const error = envelope.error as JsonObject | undefined;
    if (error) throw new WireError(reasonOf(error.data), detailOf(Number(error.code), error.message, error.data));
    return envelope.result as JsonObject;
  };
  return {
    name: "JSONRPC",
    async call(rpc, request, headers = V1) {
      return canonical(outputOf(rpc), unwrap(await (await post(rpc, request, headers)).json()));
    },
    stream(rpc, request, headers = V1) {
      const abort = new AbortController();
      return sseFrames(post(rpc, request, headers, abort.signal), abort, unwrap, async (res) => {
        const error = (await res.json()).error as JsonObject;
        return new WireError(reasonOf(error.data), detailOf(Number(error.code), error.message, error.data));
      });
    },
    close() {},
  };
}

/** The HTTP request of an RPC: its plain (or `/{tenant}`) route from the generated table. */
export function httpRequest(rpc: A2AMethodName, request: JsonObject): { method: string; path: string; body?: string } {
  const routes = httpRoutesOf(a2aServiceBindings[rpc]);
  const route = (request.tenant ? routes.find((r) => r.tenant) : routes.find((r) => !r.tenant))!;
  const rest: JsonObject = { ...request };
  const segments = route.segments.map((segment) => {
    if ("literal" in segment) return segment.literal;
    const key = segment.jsonPath[0] as string;
    const value = String(rest[key]);
    delete rest[key];
    return encodeURIComponent(value);
  });
  const path = `/${segments.join("/")}${route.verb ? `:${route.verb}` : ""}`;
  if (route.body === "*") return { method: route.method, path, body: JSON.stringify(rest) };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(rest)) {
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
  }
  return { method: route.method, path: query.size ? `${path}?${query}` : path };
}

export function httpJsonDriver(baseUrl: string): BindingDriver {
  const send = (rpc: A2AMethodName, request: JsonObject, headers: Record<string, string>, signal?: AbortSignal) => {
    const { method, path, body } = httpRequest(rpc, request);
    return fetch(`${baseUrl.replace(/\/$/, "")}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/a2a+json" }), ...headers },
      ...(body === undefined ? {} : { body }),
      ...(signal ? { signal } : {}),
    });
  };
  const failure = async (res: Response) => {
    const error = (await res.json()).error;
    return new WireError(reasonOf(error?.details), detailOf(res.status, error?.message, error?.details));
  };
  return {
    name: "HTTP+JSON",
    async call(rpc, request, headers = V1) {
      const res = await send(rpc, request, headers);
      if (!res.ok) throw await failure(res);
      return canonical(outputOf(rpc), await res.json());
    },
    stream(rpc, request, headers = V1) {
      const abort = new AbortController();
      return sseFrames(send(rpc, request, headers, abort.signal), abort, (data) => data, failure);
    },
    close() {},
  };
}

export function grpcDriver(target: string): BindingDriver {
  const baseUrl = `http://${target}`;
  const sessionManager = new Http2SessionManager(baseUrl);
  const client = createClient(A2AService, createGrpcTransport({ baseUrl, sessionManager })) as unknown as Record<
    string,
    (request: unknown, options: { headers: Record<string, string>; signal?: AbortSignal }) => unknown
  > &
    Client<typeof A2AService>;
  const rethrow = (error: unknown): never => {
    const e = ConnectError.from(error);
    const violations = e.findDetails(BadRequestSchema).flatMap((d) => d.fieldViolations);
    throw new WireError(e.findDetails(ErrorInfoSchema)[0]?.reason ?? `(gRPC ${e.code}, no ErrorInfo)`, {
      status: e.code,
      message: e.rawMessage,
      fields: violations.map((v) => v.field),
      descriptions: violations.map((v) => v.description),
    });
  };
  const input = (rpc: A2AMethodName, request: JsonObject): never =>
    fromJson(a2aServiceBindings[rpc].input as DescMessage, request) as never;
  return {
    name: "GRPC",
    async call(rpc, request, headers = V1) {
      try {
        const output = await (client[handlerMethodName(rpc)]!(input(rpc, request), { headers }) as Promise<never>);
        return encodeMessage(outputOf(rpc), output) as JsonObject;
      } catch (error) {
        return rethrow(error);
      }
    },
    async *stream(rpc, request, headers = V1) {
      const abort = new AbortController();
      try {
        const frames = client[handlerMethodName(rpc)]!(input(rpc, request), { headers, signal: abort.signal });
        for await (const frame of frames as AsyncIterable<never>)
          yield encodeMessage(StreamResponseSchema, frame) as JsonObject;
      } catch (error) {
        rethrow(error);
      } finally {
        abort.abort();
      }
    },
    close() {
      sessionManager.abort();
    },
  };
}
