/**
 * The request skeleton of the two HTTP bindings on the calling side, written
 * once: send the call's request with the caller's headers and signal (no
 * redirects), map a failed connection and a non-2xx answer to typed errors,
 * then read a unary reply as capped JSON, or a stream as SSE frames. An agent
 * may answer a streaming call with one plain JSON body instead (an error,
 * typically): that is read as the answer, never as an empty stream. A binding
 * says only what is its own (`HttpCallCodec`): the request it sends for a
 * call, and how it reads a result and a frame.
 */
import type { StreamResponse } from "../../gen/a2a_pb.js";
import { JSON_MEDIA_TYPE, type ProtocolBinding } from "../a2a/constants.js";
import type { SseEvent } from "../a2a/sse.js";
import { connectionError } from "../http/transport-failure.js";
import { errorFromHttpResponse } from "./http-errors.js";
import { isEventStream, readFrames } from "./http-stream.js";
import type { HttpTransportOptions } from "./http-transport-options.js";
import { decodeFrame, decodeReply } from "./reply-decoding.js";
import { readJsonBody } from "./reply-json.js";
import type * as transport from "./transport.js";

/** One call as its binding writes it and reads its answer. */
export interface HttpCallCodec {
  /** The HTTP method. */
  readonly method: string;
  /** Where it goes. */
  readonly url: string;
  /** The JSON body, if the call has one. */
  readonly body: string | undefined;
  /** The RPC's result (ProtoJSON) in a reply body; an error answer in it is thrown. */
  result(json: unknown): unknown;
  /** The frame of one SSE event (a promise where it takes the reflective path). */
  frame(event: SseEvent): StreamResponse | Promise<StreamResponse>;
}

/** An HTTP binding, as the skeleton sees it. */
export interface HttpBindingCodec {
  readonly binding: ProtocolBinding;
  /** `Accept` of unary calls, and of streaming calls. */
  readonly accept: { readonly unary: string; readonly stream: string };
  /** The codec of one call (a promise where its request takes the reflective path). */
  open(
    method: transport.UnaryMethod | transport.StreamingMethod,
    request: unknown,
  ): HttpCallCodec | Promise<HttpCallCodec>;
}

export class HttpTransport implements transport.ClientTransport {
  readonly binding: ProtocolBinding;
  readonly #codec: HttpBindingCodec;
  readonly #options: HttpTransportOptions;

  constructor(codec: HttpBindingCodec, options: HttpTransportOptions) {
    this.binding = codec.binding;
    this.#codec = codec;
    this.#options = options;
  }

  async unary<M extends transport.UnaryMethod>(
    method: M,
    request: transport.MethodInput<M>,
    call: transport.TransportCall,
  ): Promise<transport.MethodOutput<M>> {
    const codec = await this.#codec.open(method, request);
    const response = await this.#send(codec, call, this.#codec.accept.unary);
    return decodeReply(method, codec.result(await readJsonBody(response, this.#options.maxResponseBytes)));
  }

  async *stream<M extends transport.StreamingMethod>(
    method: M,
    request: transport.MethodInput<M>,
    call: transport.TransportCall,
  ): AsyncGenerator<readonly StreamResponse[], void, undefined> {
    const codec = await this.#codec.open(method, request);
    const response = await this.#send(codec, call, this.#codec.accept.stream);
    if (!isEventStream(response)) {
      yield [await decodeFrame(codec.result(await readJsonBody(response, this.#options.maxResponseBytes)))];
      return;
    }
    yield* readFrames(response, (event) => codec.frame(event), this.#options.maxSseEventBytes);
  }

  /** The fetch (and its connections) belongs to the client, which closes it. */
  async close(): Promise<void> {}

  async #send(codec: HttpCallCodec, call: transport.TransportCall, accept: string): Promise<Response> {
    const headers = new Headers(call.headers);
    if (codec.body !== undefined) headers.set("content-type", JSON_MEDIA_TYPE);
    if (!headers.has("accept")) headers.set("accept", accept);
    let response: Response;
    try {
      response = await this.#options.fetch(codec.url, {
        method: codec.method,
        headers,
        body: codec.body,
        signal: call.signal,
        // "manual", not "error": workerd refuses "error"; a browser answers "manual" with an opaque redirect.
        redirect: "manual",
      });
    } catch (e) {
      throw connectionError(e, codec.url);
    }
    if (isRedirect(response)) {
      await response.body?.cancel();
      throw connectionError(new Error(`redirect refused (HTTP ${response.status || "opaque"})`), codec.url);
    }
    if (!response.ok) throw await errorFromHttpResponse(response, this.binding);
    return response;
  }
}

/** A redirect answer (opaque in a browser): never followed, so credentials never go where the card did not say. */
function isRedirect(response: Response): boolean {
  return response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
}
