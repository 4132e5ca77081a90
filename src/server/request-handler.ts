/**
 * The transport-neutral A2A service: one method per RPC of `A2AService`,
 * typed from the generated binding table (method names are the proto's
 * lowerCamel local names, as in connect-es). Every binding decodes its wire
 * form into the request message, calls the handler, and encodes the result or
 * the thrown `A2AError` in its own way.
 *
 * Streaming methods return an async iterable of frames. Errors thrown before
 * the first frame are ordinary error responses; a binding stops reading by
 * calling the iterator's `return()`, which detaches and never cancels.
 *
 * A handler that authenticates its callers says so with `authenticate`:
 * every binding calls it first, before it reads the request, and hands the
 * identity to the method on the call context.
 */
import type { MessageShape } from "@bufbuild/protobuf";
import type { A2ABindingOf, A2AMethodName } from "../a2a/bindings.js";
import type { CallerIdentity } from "./auth/caller-identity.js";
import type { ServerCallContext } from "./call-context.js";

type Input<M extends A2AMethodName> = MessageShape<A2ABindingOf<M>["input"]>;
type Output<M extends A2AMethodName> = MessageShape<A2ABindingOf<M>["output"]>;

/** The handler method of one RPC. */
export type A2AHandlerMethod<M extends A2AMethodName> = A2ABindingOf<M>["kind"] extends "server_streaming"
  ? (request: Input<M>, context: ServerCallContext) => AsyncIterable<Output<M>>
  : (request: Input<M>, context: ServerCallContext) => Promise<Output<M>>;

/** Handler method name of an RPC: `SendMessage` → `sendMessage`. */
export type A2AHandlerMethodName<M extends A2AMethodName> = Uncapitalize<M>;

export type A2ARequestHandler = {
  readonly [M in A2AMethodName as A2AHandlerMethodName<M>]: A2AHandlerMethod<M>;
} & {
  /** The caller of a call, or a thrown refusal (an A2A error: 401, 403). Runs before the request is read. */
  readonly authenticate?: (context: ServerCallContext) => CallerIdentity | Promise<CallerIdentity>;
};

/** `SendMessage` → `sendMessage`, the handler (and connect-es) method name of an RPC. */
export function handlerMethodName<M extends A2AMethodName>(rpc: M): A2AHandlerMethodName<M> {
  return `${rpc.charAt(0).toLowerCase()}${rpc.slice(1)}` as A2AHandlerMethodName<M>;
}
