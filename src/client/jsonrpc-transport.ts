/**
 * The JSON-RPC binding (spec §9): every call is a `POST` of a JSON-RPC 2.0
 * envelope to the interface URL, the method named as in the generated binding
 * table; streams come back as SSE whose events are JSON-RPC envelopes. The
 * rest of a call is the HTTP transport's (http-transport.ts).
 */
import type { JsonValue } from "@bufbuild/protobuf";
import type { StreamResponse } from "../../gen/a2a_pb.js";
import { JSON_MEDIA_TYPE, PROTOCOL_BINDING_JSONRPC, SSE_MEDIA_TYPE } from "../a2a/constants.js";
import { InvalidAgentResponseError } from "../a2a/errors.js";
import { type JsonRpcId, jsonRpcRequestEnvelope, parseJsonRpcResponse } from "../a2a/jsonrpc.js";
import type { SseEvent } from "../a2a/sse.js";
import { requestJson } from "./codecs.js";
import { parseEventJson } from "./http-stream.js";
import { type HttpCallCodec, HttpTransport } from "./http-transport.js";
import type { HttpTransportOptions } from "./http-transport-options.js";
import { decodeFrame } from "./reply-decoding.js";
import type { StreamingMethod, UnaryMethod } from "./transport.js";

/** One call: its envelope, and the id every reply envelope must echo. */
class JsonRpcCall implements HttpCallCodec {
  readonly method = "POST";
  readonly url: string;
  readonly body: string;
  readonly #id: JsonRpcId;

  constructor(url: string, rpc: UnaryMethod | StreamingMethod, params: JsonValue, id: number) {
    this.url = url;
    this.body = JSON.stringify(jsonRpcRequestEnvelope(rpc, params, id));
    this.#id = id;
  }

  /** The `result` of a reply envelope; its `error` is thrown as the typed error. */
  result(json: unknown): unknown {
    const reply = parseJsonRpcResponse(json);
    if (reply.id !== undefined && reply.id !== null && reply.id !== this.#id) {
      throw new InvalidAgentResponseError(`Reply id ${JSON.stringify(reply.id)} does not match request id ${this.#id}`);
    }
    if (!reply.ok) throw reply.error;
    return reply.result;
  }

  frame(event: SseEvent): StreamResponse | Promise<StreamResponse> {
    return decodeFrame(this.result(parseEventJson(event)));
  }
}

export class JsonRpcTransport extends HttpTransport {
  constructor(options: HttpTransportOptions) {
    let nextId = 1;
    super(
      {
        binding: PROTOCOL_BINDING_JSONRPC,
        accept: { unary: JSON_MEDIA_TYPE, stream: `${SSE_MEDIA_TYPE}, ${JSON_MEDIA_TYPE}` },
        open: async (rpc, request) => {
          const id = nextId++;
          return new JsonRpcCall(options.baseUrl, rpc, await requestJson(rpc, request as never), id);
        },
      },
      options,
    );
  }
}
