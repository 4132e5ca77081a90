/**
 * A handler method looked up by its binding-table entry, for bindings that
 * dispatch on the table rather than on a hand-written list of RPCs. The
 * table's types say which request and response messages flow; this erases
 * them to one signature, checked once here instead of at every call site.
 */
import type { Message } from "@bufbuild/protobuf";
import type { A2ABinding } from "../a2a/bindings.js";
import type { ServerCallContext } from "./call-context.js";
import { type A2ARequestHandler, handlerMethodName } from "./request-handler.js";

export type UnaryHandlerMethod = (request: Message, context: ServerCallContext) => Promise<Message>;
export type StreamingHandlerMethod = (request: Message, context: ServerCallContext) => AsyncIterable<Message>;

/** The method of `handler` serving `binding`, bound to the handler. */
export function unaryMethodOf(handler: A2ARequestHandler, binding: A2ABinding): UnaryHandlerMethod {
  return methodOf(handler, binding) as UnaryHandlerMethod;
}

/** The method of `handler` serving the server-streaming `binding`, bound to the handler. */
export function streamingMethodOf(handler: A2ARequestHandler, binding: A2ABinding): StreamingHandlerMethod {
  return methodOf(handler, binding) as StreamingHandlerMethod;
}

type AnyHandlerMethod = UnaryHandlerMethod | StreamingHandlerMethod;

/** Bound methods by handler and RPC: looked up on every request, bound once. */
const bound = new WeakMap<A2ARequestHandler, Map<A2ABinding, AnyHandlerMethod>>();

function methodOf(handler: A2ARequestHandler, binding: A2ABinding): AnyHandlerMethod {
  let methods = bound.get(handler);
  if (!methods) {
    methods = new Map();
    bound.set(handler, methods);
  }
  let method = methods.get(binding);
  if (!method) {
    const name = handlerMethodName(binding.name);
    const fn = handler[name] as unknown as AnyHandlerMethod;
    if (typeof fn !== "function") throw new TypeError(`The request handler has no method ${name}`);
    method = fn.bind(handler) as AnyHandlerMethod;
    methods.set(binding, method);
  }
  return method;
}
