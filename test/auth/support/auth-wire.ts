/**
 * Callers of every binding that keep what an authentication test looks at:
 * the status (HTTP status, or gRPC code), the ErrorInfo reason, the message,
 * the `WWW-Authenticate` challenge, and the whole answer as text (to show
 * that nothing of another caller's task is in it). gRPC is called three
 * ways: a plain unary call (answered by the unary fast path), a unary call
 * with a deadline (which connect-node answers), and streams (connect-node).
 */
import { type DescMessage, fromJson, type JsonObject } from "@bufbuild/protobuf";
import { ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { A2AService, StreamResponseSchema } from "../../../gen/a2a_pb.js";
import { ErrorInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { type A2AMethodName, a2aServiceBindings } from "../../../src/a2a/bindings.js";
import { encodeMessage } from "../../../src/a2a/protojson.js";
import { readSseEvents } from "../../../src/a2a/sse.js";
import { handlerMethodName } from "../../../src/server/request-handler.js";
import { httpRequest } from "../../server-bindings/support/binding-drivers.js";

export interface Answer {
  readonly ok: boolean;
  /** The HTTP status, or the gRPC status code. */
  readonly status: number;
  /** The result (a unary call's response, a stream's first frame); undefined for a refusal. */
  readonly result: JsonObject | undefined;
  /** The ErrorInfo reason of a refusal, "" for a success. */
  readonly reason: string;
  readonly message: string;
  readonly challenge: string | null;
  /** Everything the caller received, as text. */
  readonly text: string;
}

export interface AuthWire {
  readonly name: string;
  /** The gRPC ones answer with gRPC codes. */
  readonly grpc: boolean;
  unary(rpc: A2AMethodName, request: JsonObject, headers: Record<string, string>): Promise<Answer>;
  /** Opens a stream and hangs up after its first frame. */
  stream(rpc: A2AMethodName, request: JsonObject, headers: Record<string, string>): Promise<Answer>;
  close(): void;
}

const V1 = { "A2A-Version": "1.0" };

function reasonOf(details: unknown): string {
  return (Array.isArray(details) ? (details[0] as { reason?: string } | undefined)?.reason : undefined) ?? "";
}

async function httpAnswer(
  response: Response,
  abort: AbortController,
  errorOf: (body: JsonObject) => JsonObject | undefined,
  resultOf: (body: JsonObject) => JsonObject,
): Promise<Answer> {
  const challenge = response.headers.get("www-authenticate");
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    for await (const event of readSseEvents(response.body!)) {
      abort.abort();
      const data = JSON.parse(event.data) as JsonObject;
      const error = errorOf(data);
      return error
        ? {
            ok: false,
            status: response.status,
            result: undefined,
            reason: reasonOf(error.data ?? error.details),
            message: String(error.message),
            challenge,
            text: event.data,
          }
        : {
            ok: true,
            status: response.status,
            result: resultOf(data),
            reason: "",
            message: "",
            challenge,
            text: event.data,
          };
    }
    throw new Error("the stream ended without a frame");
  }
  const text = await response.text();
  const body = JSON.parse(text) as JsonObject;
  const error = errorOf(body);
  if (error) {
    const message = String(error.message);
    return {
      ok: false,
      status: response.status,
      result: undefined,
      reason: reasonOf(error.data ?? error.details),
      message,
      challenge,
      text,
    };
  }
  return { ok: true, status: response.status, result: resultOf(body), reason: "", message: "", challenge, text };
}

export function jsonRpcWire(url: string): AuthWire {
  let id = 0;
  const call = (rpc: string, params: JsonObject, headers: Record<string, string>, stream: boolean) => {
    const abort = new AbortController();
    const sent = fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(stream ? { accept: "text/event-stream" } : {}),
        ...V1,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: rpc, params }),
      signal: abort.signal,
    });
    return sent.then((response) =>
      httpAnswer(
        response,
        abort,
        (body) => body.error as JsonObject | undefined,
        (body) => body.result as JsonObject,
      ),
    );
  };
  return {
    name: "JSON-RPC",
    grpc: false,
    unary: (rpc, request, headers) => call(rpc, request, headers, false),
    stream: (rpc, request, headers) => call(rpc, request, headers, true),
    close() {},
  };
}

export function httpJsonWire(baseUrl: string): AuthWire {
  const call = async (rpc: A2AMethodName, request: JsonObject, headers: Record<string, string>) => {
    const { method, path, body } = httpRequest(rpc, request);
    const abort = new AbortController();
    const response = await fetch(`${baseUrl.replace(/\/$/, "")}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...V1, ...headers },
      ...(body === undefined ? {} : { body }),
      signal: abort.signal,
    });
    return httpAnswer(
      response,
      abort,
      (data) => (response.ok && !("error" in data) ? undefined : (data.error as JsonObject)),
      (data) => data,
    );
  };
  return { name: "HTTP+JSON", grpc: false, unary: call, stream: call, close() {} };
}

type LooseClient = Record<
  string,
  (request: unknown, options: { headers: Record<string, string>; timeoutMs?: number; signal?: AbortSignal }) => unknown
>;

function grpcRefusal(error: unknown): Answer {
  const e = ConnectError.from(error);
  const challenge = e.metadata.get("www-authenticate");
  const info = e.findDetails(ErrorInfoSchema)[0];
  const reason = info?.reason ?? "";
  // What the status says: its message and details, and every header but the transport's own.
  const headers = [...e.metadata].filter(([name]) => name !== "date" && !name.startsWith("grpc-"));
  const text = JSON.stringify({ message: e.rawMessage, reason, info: info?.metadata, headers });
  return { ok: false, status: e.code, result: undefined, reason, message: e.rawMessage, challenge, text };
}

/**
 * gRPC through connect-es. `deadline` sends `grpc-timeout`, which keeps a
 * unary call off the fast path (connect-node answers it).
 */
export function grpcWire(target: string, options: { deadline?: boolean } = {}): AuthWire {
  const baseUrl = `http://${target}`;
  const sessionManager = new Http2SessionManager(baseUrl);
  const client = createClient(A2AService, createGrpcTransport({ baseUrl, sessionManager })) as unknown as LooseClient;
  const input = (rpc: A2AMethodName, request: JsonObject) =>
    fromJson(a2aServiceBindings[rpc].input as DescMessage, request);
  const success = (result: JsonObject): Answer => ({
    ok: true,
    status: 0,
    result,
    reason: "",
    message: "",
    challenge: null,
    text: JSON.stringify(result),
  });
  return {
    name: options.deadline ? "gRPC (connect-node, deadline)" : "gRPC (unary fast path)",
    grpc: true,
    async unary(rpc, request, headers) {
      try {
        const call = client[handlerMethodName(rpc)]!(input(rpc, request), {
          headers: { ...V1, ...headers },
          ...(options.deadline ? { timeoutMs: 60_000 } : {}),
        });
        const output = await (call as Promise<never>);
        return success(encodeMessage(a2aServiceBindings[rpc].output as DescMessage, output) as JsonObject);
      } catch (error) {
        return grpcRefusal(error);
      }
    },
    async stream(rpc, request, headers) {
      const abort = new AbortController();
      try {
        const frames = client[handlerMethodName(rpc)]!(input(rpc, request), {
          headers: { ...V1, ...headers },
          signal: abort.signal,
        }) as AsyncIterable<never>;
        for await (const frame of frames) return success(encodeMessage(StreamResponseSchema, frame) as JsonObject);
        throw new Error("the stream ended without a frame");
      } catch (error) {
        return grpcRefusal(error);
      } finally {
        abort.abort();
      }
    },
    close() {
      sessionManager.abort();
    },
  };
}
