/**
 * The JSON-RPC binding (spec §9): every call is a `POST` of a JSON-RPC 2.0
 * envelope to the interface URL, the method named as in the generated binding
 * table; streams come back as SSE whose events are JSON-RPC envelopes. An
 * agent may answer a streaming call with one plain JSON body instead (an
 * error, typically): that is read as the answer, never as an empty stream.
 */
import type { StreamResponse } from "../../gen/a2a_pb.js";
import { a2aServiceBindings } from "../a2a/bindings.js";
import { JSON_MEDIA_TYPE, PROTOCOL_BINDING_JSONRPC, SSE_MEDIA_TYPE } from "../a2a/constants.js";
import { InvalidAgentResponseError } from "../a2a/errors.js";
import { type JsonRpcId, jsonRpcRequestEnvelope, parseJsonRpcResponse } from "../a2a/jsonrpc.js";
import { encodeMessage } from "../a2a/protojson.js";
import type { SseEvent } from "../a2a/sse.js";
import { connectionError } from "../http/transport-failure.js";
import { errorFromHttpResponse } from "./http-errors.js";
import { isEventStream, parseEventJson, readFrames } from "./http-stream.js";
import type { HttpTransportOptions } from "./http-transport-options.js";
import { decodeFrame, decodeReply } from "./reply-decoding.js";
import { readJsonBody } from "./reply-json.js";
import type {
  ClientTransport,
  MethodInput,
  MethodOutput,
  StreamingMethod,
  TransportCall,
  UnaryMethod,
} from "./transport.js";

export class JsonRpcTransport implements ClientTransport {
  readonly binding = PROTOCOL_BINDING_JSONRPC;
  readonly #url: string;
  readonly #options: HttpTransportOptions;
  #nextId = 1;

  constructor(options: HttpTransportOptions) {
    this.#url = options.baseUrl;
    this.#options = options;
  }

  async unary<M extends UnaryMethod>(
    method: M,
    request: MethodInput<M>,
    call: TransportCall,
  ): Promise<MethodOutput<M>> {
    const id = this.#nextId++;
    const response = await this.#post(method, request, id, call, JSON_MEDIA_TYPE);
    return decodeReply(method, this.#result(await readJsonBody(response, this.#options.maxResponseBytes), id));
  }

  async *stream<M extends StreamingMethod>(
    method: M,
    request: MethodInput<M>,
    call: TransportCall,
  ): AsyncGenerator<readonly StreamResponse[], void, undefined> {
    const id = this.#nextId++;
    const response = await this.#post(method, request, id, call, `${SSE_MEDIA_TYPE}, ${JSON_MEDIA_TYPE}`);
    if (!isEventStream(response)) {
      yield [decodeFrame(this.#result(await readJsonBody(response, this.#options.maxResponseBytes), id))];
      return;
    }
    const readFrame = (event: SseEvent) => decodeFrame(this.#result(parseEventJson(event), id));
    yield* readFrames(response, readFrame, this.#options.maxSseEventBytes);
  }

  /** The fetch (and its connections) belongs to the client, which closes it. */
  async close(): Promise<void> {}

  /** The `result` of a reply envelope; its `error` is thrown as the typed error. */
  #result(body: unknown, id: JsonRpcId): unknown {
    const reply = parseJsonRpcResponse(body);
    if (reply.id !== undefined && reply.id !== null && reply.id !== id) {
      throw new InvalidAgentResponseError(`Reply id ${JSON.stringify(reply.id)} does not match request id ${id}`);
    }
    if (!reply.ok) throw reply.error;
    return reply.result;
  }

  async #post(method: string, request: unknown, id: number, call: TransportCall, accept: string): Promise<Response> {
    const binding = a2aServiceBindings[method as UnaryMethod | StreamingMethod];
    const params = encodeMessage(binding.input, request as MethodInput<typeof binding.name>);
    const headers = new Headers(call.headers);
    headers.set("content-type", JSON_MEDIA_TYPE);
    if (!headers.has("accept")) headers.set("accept", accept);
    let response: Response;
    try {
      response = await this.#options.fetch(this.#url, {
        method: "POST",
        headers,
        body: JSON.stringify(jsonRpcRequestEnvelope(method, params, id)),
        signal: call.signal,
        redirect: "error",
      });
    } catch (e) {
      throw connectionError(e, this.#url);
    }
    if (!response.ok) throw await errorFromHttpResponse(response, this.binding);
    return response;
  }
}
