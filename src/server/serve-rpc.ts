/**
 * The request skeleton every binding runs, written once: authenticate the
 * caller (before a byte of the request is read), decode the request, call
 * the handler (unary, or streaming), close the call, and turn a failure into
 * the binding's error answer. A binding says only what is its own, in an
 * `RpcExchange`: how it decodes a request and how it answers one.
 *
 * Failures are logged by one rule: an A2A error (or a body over its cap) is an
 * answer the protocol defines and is not logged; a caller that went away
 * before sending its whole request is a debug line, without a stack (it
 * happens, and nothing is wrong here); anything else is a bug or an outage,
 * which the caller sees only as an internal error and the log sees in full.
 */
import type { Message } from "@bufbuild/protobuf";
import type { A2ABinding } from "../a2a/bindings.js";
import type { ProtocolBinding } from "../a2a/constants.js";
import { A2AError } from "../a2a/errors.js";
import { BodyAbortedError, BodyTooLargeError } from "../http/capped-body.js";
import type { Logger } from "../runtime/logger.js";
import { streamingMethodOf, unaryMethodOf } from "./handler-method.js";
import type { A2ARequestHandler } from "./request-handler.js";
import type { ServerCall } from "./server-call.js";

/** A decoded request: the RPC it calls and its request message. */
export interface RpcRequest {
  readonly method: A2ABinding;
  readonly input: Message;
}

/** One request as its binding reads and answers it. */
export interface RpcExchange<Reply> {
  /** The request, or a thrown error to answer (an A2AError, or the binding's own refusal). */
  decode(): RpcRequest | Promise<RpcRequest>;
  /** The answer to a unary call. */
  unary(method: A2ABinding, output: Message): Reply;
  /**
   * The answer to a streaming call. It owns the stream from here: it closes
   * the call when the stream ends and answers a failure after the first frame
   * itself (through `logFailure`, so the rule stays the same). A failure before
   * the first frame may be thrown instead: it is answered as any other.
   */
  stream(method: A2ABinding, frames: AsyncIterable<Message>): Reply | Promise<Reply>;
  /** The answer to a failure; a binding that fails calls by throwing (connect-es) throws it. */
  error(error: unknown): Reply;
}

/** Runs one call of `handler` through `exchange`. */
export async function serveRpc<Reply>(
  handler: A2ARequestHandler,
  call: ServerCall,
  exchange: RpcExchange<Reply>,
  logger: Logger | undefined,
): Promise<Reply> {
  try {
    if (handler.authenticate) {
      const caller = handler.authenticate(call);
      call.identity = caller instanceof Promise ? await caller : caller;
    }
    const { method, input } = await exchange.decode();
    if (method.kind === "server_streaming") {
      return await exchange.stream(method, streamingMethodOf(handler, method)(input, call));
    }
    const output = await unaryMethodOf(handler, method)(input, call);
    call.close();
    return exchange.unary(method, output);
  } catch (error) {
    call.close();
    logFailure(logger, error, call.binding);
    return exchange.error(error);
  }
}

/** Logs `error` unless it is an answer the protocol defines (the rule above). */
export function logFailure(logger: Logger | undefined, error: unknown, binding: ProtocolBinding): void {
  if (error instanceof A2AError || error instanceof BodyTooLargeError) return;
  if (error instanceof BodyAbortedError)
    logger?.debug({ binding }, "the caller went away before sending its whole request");
  else logger?.error({ err: error, binding }, "request failed");
}
