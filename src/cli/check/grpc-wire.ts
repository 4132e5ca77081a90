/** The gRPC binding (spec §10) for the check: connect-es over the generated `A2AService`, cleartext or TLS. */
import { type DescMessage, fromJson, type JsonObject } from "@bufbuild/protobuf";
import { type CallOptions, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import {
  A2A_PROTOCOL_VERSION,
  A2AService,
  ErrorInfoSchema,
  grpcDialUrl,
  PROTOCOL_BINDING_GRPC,
  StreamResponseSchema,
} from "../../index.js";
import { type A2AMethodName, a2aServiceBindings, encodeMessage } from "../../protocol/index.js";
import {
  callHeaders,
  type HeaderOverrides,
  recordStream,
  type StreamItem,
  type Wire,
  type WireError,
  type WireReply,
} from "./wire.js";

type Rpc = (request: unknown, options: CallOptions) => unknown;

export function grpcError(error: unknown): WireError {
  const e = ConnectError.from(error);
  const info = e.findDetails(ErrorInfoSchema)[0];
  return {
    grpcCode: e.code,
    message: e.rawMessage,
    ...(info ? { reason: info.reason, domain: info.domain } : {}),
  };
}

export class GrpcWire implements Wire {
  readonly binding = PROTOCOL_BINDING_GRPC;
  readonly #session: Http2SessionManager;
  readonly #client: Record<string, Rpc>;
  readonly #timeoutMs: number;

  readonly #headers: Record<string, string>;

  /** `headers` (credentials, `--header`) go on every call as metadata. */
  constructor(url: string, timeoutMs: number, headers: Record<string, string> = {}) {
    const baseUrl = grpcDialUrl(url);
    this.#timeoutMs = timeoutMs;
    this.#headers = headers;
    this.#session = new Http2SessionManager(baseUrl);
    this.#client = createClient(A2AService, createGrpcTransport({ baseUrl, sessionManager: this.#session })) as never;
  }

  #rpc(method: A2AMethodName): Rpc {
    const rpc = this.#client[a2aServiceBindings[method].rpc.localName];
    if (!rpc) throw new Error(`no gRPC method for ${method}`);
    return rpc;
  }

  #input(method: A2AMethodName, request: JsonObject): unknown {
    return fromJson(a2aServiceBindings[method].input as DescMessage, request, { ignoreUnknownFields: true });
  }

  async call(method: A2AMethodName, request: JsonObject, overrides?: HeaderOverrides): Promise<WireReply> {
    try {
      const output = await this.#rpc(method)(this.#input(method, request), {
        headers: callHeaders({ "a2a-version": A2A_PROTOCOL_VERSION, ...this.#headers }, overrides),
        timeoutMs: this.#timeoutMs,
      });
      return {
        ok: true,
        json: encodeMessage(a2aServiceBindings[method].output as DescMessage, output as never) as JsonObject,
      };
    } catch (error) {
      return { ok: false, error: grpcError(error) };
    }
  }

  async stream(
    method: A2AMethodName,
    request: JsonObject,
    options: Parameters<Wire["stream"]>[2],
    overrides?: HeaderOverrides,
  ) {
    const abort = new AbortController();
    const frames = this.#rpc(method)(this.#input(method, request), {
      headers: callHeaders({ "a2a-version": A2A_PROTOCOL_VERSION, ...this.#headers }, overrides),
      signal: abort.signal,
    }) as AsyncIterable<unknown>;
    async function* items(): AsyncGenerator<StreamItem> {
      try {
        for await (const frame of frames)
          yield { frame: encodeMessage(StreamResponseSchema, frame as never) as JsonObject };
      } catch (error) {
        if (!abort.signal.aborted) yield { error: grpcError(error) };
      }
    }
    return recordStream(items(), abort, options);
  }

  async close(): Promise<void> {
    this.#session.abort();
  }
}
