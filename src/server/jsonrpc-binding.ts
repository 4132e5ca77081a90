/**
 * The JSON-RPC binding (spec §9) as an `HttpBinding` over an
 * `A2ARequestHandler`: `POST` at the mount point, the JSON-RPC envelope
 * decoded by the protocol layer, params decoded to the method's request
 * message, replies and errors as JSON-RPC envelopes, streams as SSE whose
 * every event is a JSON-RPC response envelope. The rest of a request's life
 * is the skeleton's (http-rpc.ts).
 *
 * JSON-RPC errors are answered with HTTP 200 (the envelope carries the
 * error), the convention of both reference SDKs; only transport-level
 * refusals differ (405 for another method), and so do refused credentials
 * (401, 403): HTTP clients and proxies act on those statuses, whatever the
 * body. See docs/decisions.md.
 */
import type { DescMessage, Message } from "@bufbuild/protobuf";
import { StreamResponseSchema } from "../../gen/a2a_pb.js";
import type { A2ABinding } from "../a2a/bindings.js";
import { A2A_JSONRPC_PATH, JSON_MEDIA_TYPE, PROTOCOL_BINDING_JSONRPC } from "../a2a/constants.js";
import { A2AError, InvalidRequestError } from "../a2a/errors.js";
import { type HeadersLike, headerValue } from "../a2a/headers.js";
import { decodeJsonRpcRequest, encodeJsonRpcError, encodeJsonRpcResultText, type JsonRpcId } from "../a2a/jsonrpc.js";
import { decodeMessage, encodeMessageText } from "../a2a/protojson.js";
import type { HttpBodyReply, HttpRequestLike } from "./http-exchange.js";
import {
  HttpRpcBinding,
  type HttpRpcCodec,
  type HttpRpcOptions,
  type HttpRpcProtocol,
  type RequestLimits,
} from "./http-rpc.js";
import { checkRequestContentType } from "./json-content-type.js";
import type { A2ARequestHandler } from "./request-handler.js";
import type { RpcRequest } from "./serve-rpc.js";

/** `maxBodyBytes` (default 10 MiB; over it is -32700), `maxRequestValues` and the logger of unexpected failures (-32603 to the caller). */
export type JsonRpcBindingOptions = HttpRpcOptions;

/**
 * One JSON-RPC request. The id is known once the envelope is decoded; every
 * answer before that (an unreadable body, a refused Content-Type) echoes null.
 */
class JsonRpcCodec implements HttpRpcCodec {
  readonly #request: HttpRequestLike;
  #id: JsonRpcId = null;

  constructor(request: HttpRequestLike) {
    this.#request = request;
  }

  get headers(): HeadersLike {
    return this.#request.headers;
  }

  /** A missing Content-Type is read as JSON: the body of a JSON-RPC request is never anything else. */
  async decode(limits: RequestLimits): Promise<RpcRequest> {
    const contentType = headerValue(this.#request.headers, "content-type");
    if (contentType !== undefined) {
      const refused = checkRequestContentType(contentType);
      if (refused) throw refused;
    }
    // The limits are the options of both decodes as they are: no object of options per request.
    const decoded = decodeJsonRpcRequest(await this.#request.body(limits.maxBodyBytes), limits);
    if (!decoded.ok) {
      this.#id = decoded.id;
      throw decoded.error;
    }
    const { id, binding, params } = decoded.request;
    this.#id = id;
    return { method: binding, input: decodeMessage(binding.input as DescMessage, params, limits) };
  }

  result(method: A2ABinding, output: Message): string {
    return encodeJsonRpcResultText(this.#id, encodeMessageText(method.output as DescMessage, output));
  }

  frame(frame: Message): string {
    return encodeJsonRpcResultText(this.#id, encodeMessageText(StreamResponseSchema, frame as never));
  }

  error(error: unknown): { status: number; body: string } {
    return { status: refusalStatus(error) ?? 200, body: encodeJsonRpcError(this.#id, error) };
  }
}

/** 401 or 403 for a refusal of the caller's credentials; undefined for every other error. */
function refusalStatus(error: unknown): number | undefined {
  const spec = error instanceof A2AError ? error.spec : undefined;
  return spec?.family === "auth" ? spec.httpStatus : undefined;
}

function methodNotAllowed(request: HttpRequestLike): HttpBodyReply {
  const error = new InvalidRequestError(`JSON-RPC requests are POSTed; got ${request.method}`);
  return {
    kind: "body",
    status: 405,
    headers: { "content-type": JSON_MEDIA_TYPE, allow: "POST" },
    body: encodeJsonRpcError(null, error),
  };
}

const JSONRPC: HttpRpcProtocol = {
  binding: PROTOCOL_BINDING_JSONRPC,
  mediaType: JSON_MEDIA_TYPE,
  route(request) {
    if (request.path !== A2A_JSONRPC_PATH) return undefined;
    return request.method === "POST" ? new JsonRpcCodec(request) : methodNotAllowed(request);
  },
};

/** Serves JSON-RPC at the mount point; answers `undefined` for every other path. */
export class JsonRpcBinding extends HttpRpcBinding {
  constructor(handler: A2ARequestHandler, options: JsonRpcBindingOptions = {}) {
    super(JSONRPC, handler, options);
  }
}
