/**
 * The JSON-RPC binding (spec §9) as an `HttpBinding` over an
 * `A2ARequestHandler`: `POST` at the mount point, the JSON-RPC envelope
 * decoded by the protocol layer, params decoded to the method's request
 * message, replies and errors as JSON-RPC envelopes, streams as SSE whose
 * every event is a JSON-RPC response envelope.
 *
 * JSON-RPC errors are answered with HTTP 200 (the envelope carries the
 * error), the convention of both reference SDKs; only transport-level
 * refusals differ (405 for another method). See docs/decisions.md.
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { StreamResponseSchema } from "../../gen/a2a_pb.js";
import { A2A_JSONRPC_PATH, JSON_MEDIA_TYPE, PROTOCOL_BINDING_JSONRPC } from "../a2a/constants.js";
import { A2AError, ContentTypeNotSupportedError, InvalidRequestError, JSONParseError } from "../a2a/errors.js";
import { headerValue } from "../a2a/headers.js";
import {
  DEFAULT_MAX_BODY_BYTES,
  decodeJsonRpcRequest,
  encodeJsonRpcError,
  encodeJsonRpcResultText,
  type JsonRpcId,
} from "../a2a/jsonrpc.js";
import { decodeMessage, encodeMessageText } from "../a2a/protojson.js";
import type { Logger } from "../runtime/logger.js";
import { streamingMethodOf, unaryMethodOf } from "./handler-method.js";
import {
  BodyTooLargeError,
  type HttpBinding,
  type HttpBodyReply,
  type HttpReply,
  type HttpRequestLike,
} from "./http-exchange.js";
import type { A2ARequestHandler } from "./request-handler.js";
import { openServerCall, type ServerCall } from "./server-call.js";
import { sseReply } from "./sse-reply.js";

export interface JsonRpcBindingOptions {
  /** Request bodies above this many bytes are refused with -32700 before parsing. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  /** Where unexpected handler failures are logged (they reach the caller as a bare -32603). */
  readonly logger?: Logger;
}

/** Request media types accepted (parameters ignored); no Content-Type at all is accepted too. */
const ACCEPTED_MEDIA_TYPES: ReadonlySet<string> = new Set([JSON_MEDIA_TYPE, "application/a2a+json"]);

function jsonReply(body: string, headers: Readonly<Record<string, string>>): HttpBodyReply {
  return { kind: "body", status: 200, headers, body };
}

const JSON_HEADERS: Readonly<Record<string, string>> = { "content-type": JSON_MEDIA_TYPE };

function errorReply(id: JsonRpcId, error: unknown, call?: ServerCall): HttpBodyReply {
  return jsonReply(encodeJsonRpcError(id, error), call ? call.replyHeaders(JSON_HEADERS) : JSON_HEADERS);
}

/** Serves JSON-RPC at the mount point; answers `undefined` for every other path. */
export class JsonRpcBinding implements HttpBinding {
  readonly protocolBinding = PROTOCOL_BINDING_JSONRPC;
  readonly #handler: A2ARequestHandler;
  readonly #maxBodyBytes: number;
  readonly #logger: Logger | undefined;

  constructor(handler: A2ARequestHandler, options: JsonRpcBindingOptions = {}) {
    this.#handler = handler;
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#logger = options.logger;
  }

  async handle(request: HttpRequestLike): Promise<HttpReply | undefined> {
    if (request.path !== A2A_JSONRPC_PATH) return undefined;
    if (request.method !== "POST") {
      const reply = errorReply(null, new InvalidRequestError(`JSON-RPC requests are POSTed; got ${request.method}`));
      return { ...reply, status: 405, headers: { ...reply.headers, allow: "POST" } };
    }
    const contentType = headerValue(request.headers, "content-type");
    const mediaType = contentType?.split(";", 1)[0]?.trim().toLowerCase();
    if (mediaType !== undefined && !ACCEPTED_MEDIA_TYPES.has(mediaType)) {
      return errorReply(
        null,
        new ContentTypeNotSupportedError(`Unsupported Content-Type '${contentType}'; send ${JSON_MEDIA_TYPE}`, {
          metadata: { contentType: contentType ?? "" },
        }),
      );
    }
    let body: Uint8Array;
    try {
      body = await request.body(this.#maxBodyBytes);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      const refused = errorReply(
        null,
        new JSONParseError(`Request body exceeds ${error.maxBytes} bytes`, {
          metadata: { maxBodyBytes: String(error.maxBytes) },
        }),
      );
      // The rest of the body was not read: the connection cannot carry another request.
      return { ...refused, headers: { ...refused.headers, connection: "close" } };
    }
    const decoded = decodeJsonRpcRequest(body, { maxBodyBytes: this.#maxBodyBytes });
    if (!decoded.ok) return errorReply(decoded.id, decoded.error);
    const { id, binding, params } = decoded.request;
    const call = openServerCall(
      request,
      PROTOCOL_BINDING_JSONRPC,
      request.headers,
      binding.kind === "server_streaming",
    );
    try {
      const input = decodeMessage(binding.input as DescMessage, params);
      if (binding.kind === "server_streaming") {
        const stream = streamingMethodOf(this.#handler, binding)(input, call.context);
        return await sseReply(stream, call, {
          frame: (frame) => encodeJsonRpcResultText(id, encodeMessageText(StreamResponseSchema, frame as never)),
          error: (error) => {
            this.#logUnexpected(error);
            return encodeJsonRpcError(id, error);
          },
        });
      }
      const output = await unaryMethodOf(this.#handler, binding)(input, call.context);
      call.close();
      return jsonReply(
        encodeJsonRpcResultText(id, encodeMessageText(binding.output as DescMessage, output)),
        call.replyHeaders(JSON_HEADERS),
      );
    } catch (error) {
      call.close();
      this.#logUnexpected(error, call);
      return errorReply(id, error, call);
    }
  }

  /** Failures that are not A2A answers are bugs or outages: the caller sees -32603, the log sees why. */
  #logUnexpected(error: unknown, call?: ServerCall): void {
    if (error instanceof A2AError) return;
    this.#logger?.error({ err: error, binding: call?.context.binding ?? PROTOCOL_BINDING_JSONRPC }, "request failed");
  }
}
