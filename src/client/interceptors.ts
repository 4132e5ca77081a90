/**
 * Cross-cutting behaviour around every client call (auth, logging, tracing,
 * caching). `before` hooks run in list order ahead of the transport and may
 * change the request message and the headers, or answer the call themselves
 * (`respondWith`), which skips the remaining `before` hooks and the transport.
 * `after` hooks run in reverse list order — each interceptor wraps the ones
 * after it, as middleware does — once per call, and for a stream once per
 * frame, then once more if the stream fails. Only the interceptors whose
 * `before` ran see the `after`.
 */
import type { AgentCard, StreamResponse } from "../../gen/a2a_pb.js";
import type { A2AMethodName } from "../a2a/bindings.js";
import type { ProtocolBinding } from "../a2a/constants.js";
import type { MethodInput, MethodOutput, StreamingMethod } from "./transport.js";

/** One call's scratch space, shared by its interceptors and credential services. */
export interface ClientCallContext {
  readonly state: Record<string, unknown>;
}

export function createCallContext(state: Record<string, unknown> = {}): ClientCallContext {
  return { state };
}

/** What a call yields: the reply, or one frame of a stream. */
export type CallResult<M extends A2AMethodName> = M extends StreamingMethod ? StreamResponse : MethodOutput<M>;

interface CallArgs<M extends A2AMethodName> {
  readonly method: M;
  readonly binding: ProtocolBinding;
  /** The request message; `before` may change it in place. */
  readonly request: MethodInput<M>;
  readonly agentCard: AgentCard | undefined;
  readonly context: ClientCallContext;
}

export interface BeforeArgsOf<M extends A2AMethodName> extends CallArgs<M> {
  /** The outgoing headers (gRPC: metadata), service parameters and credentials included; mutable. */
  readonly headers: Headers;
  /** The call's signal (caller cancellation and deadline), for hooks that do I/O. */
  readonly signal: AbortSignal;
  /** Answers the call with `result` (for a stream: its one frame) without calling the agent. */
  respondWith(result: CallResult<M>): void;
}

export interface AfterArgsOf<M extends A2AMethodName> extends CallArgs<M> {
  /** The reply or frame; undefined when the call failed. */
  readonly result: CallResult<M> | undefined;
  /** The typed error the call fails with; undefined on success. */
  readonly error: unknown;
}

/** `before` arguments, discriminated by `method`. */
export type BeforeArgs = { [M in A2AMethodName]: BeforeArgsOf<M> }[A2AMethodName];
/** `after` arguments, discriminated by `method`. */
export type AfterArgs = { [M in A2AMethodName]: AfterArgsOf<M> }[A2AMethodName];

export interface ClientCallInterceptor {
  /** Throwing fails the call before any I/O. */
  before?(args: BeforeArgs): void | Promise<void>;
  /** A notification: it cannot change the result; throwing fails the call with that error. */
  after?(args: AfterArgs): void | Promise<void>;
}

/**
 * Runs the `before` hooks in order until one answers, and returns that answer
 * (undefined when the transport must be called). Each hook is pushed to `ran`
 * before it runs, so when one throws the caller still knows whose `after`
 * must see the call end.
 */
export async function runBefore<M extends A2AMethodName>(
  interceptors: readonly ClientCallInterceptor[],
  args: Omit<BeforeArgsOf<M>, "respondWith">,
  ran: ClientCallInterceptor[],
): Promise<{ readonly value: CallResult<M> } | undefined> {
  let early: { value: CallResult<M> } | undefined;
  const full: BeforeArgsOf<M> = {
    ...args,
    respondWith(value) {
      early = { value };
    },
  };
  for (const interceptor of interceptors) {
    ran.push(interceptor);
    await interceptor.before?.(full as unknown as BeforeArgs);
    if (early) return early;
  }
  return undefined;
}

/** Runs the `after` hooks of `ran` in reverse order. */
export async function runAfter<M extends A2AMethodName>(
  ran: readonly ClientCallInterceptor[],
  args: AfterArgsOf<M>,
): Promise<void> {
  for (let i = ran.length - 1; i >= 0; i--) await ran[i]?.after?.(args as unknown as AfterArgs);
}
