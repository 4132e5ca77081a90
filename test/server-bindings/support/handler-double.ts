/**
 * A request handler double for the binding tests: every RPC records what
 * reached it and answers with what the test installed. Built from the
 * generated table, so it has exactly the handler's methods.
 */
import type { Message } from "@bufbuild/protobuf";
import { type A2ABinding, type A2AMethodName, a2aBindingList } from "../../../src/a2a/bindings.js";
import { UnsupportedOperationError } from "../../../src/a2a/errors.js";
import type { ServerCallContext } from "../../../src/server/call-context.js";
import { type A2ARequestHandler, handlerMethodName } from "../../../src/server/request-handler.js";

export interface RecordedCall {
  readonly rpc: A2AMethodName;
  readonly request: Message;
  readonly context: ServerCallContext;
}

type Impl = (request: Message, context: ServerCallContext) => unknown;

export class HandlerDouble {
  readonly calls: RecordedCall[] = [];
  readonly #impls = new Map<A2AMethodName, Impl>();
  readonly #waiters: ((call: RecordedCall) => void)[] = [];
  readonly handler: A2ARequestHandler;

  constructor() {
    const methods: Record<string, Impl> = {};
    for (const binding of a2aBindingList) {
      methods[handlerMethodName(binding.name)] = (request, context) => this.#invoke(binding, request, context);
    }
    this.handler = methods as unknown as A2ARequestHandler;
  }

  /** What `rpc` answers from now on (return a message, an async iterable, or throw). */
  on(rpc: A2AMethodName, impl: Impl): this {
    this.#impls.set(rpc, impl);
    return this;
  }

  /** The last call, asserting there was one. */
  last(): RecordedCall {
    const call = this.calls.at(-1);
    if (!call) throw new Error("no call reached the handler");
    return call;
  }

  /** Resolves with the next call to reach the handler. */
  nextCall(): Promise<RecordedCall> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #invoke(binding: A2ABinding, request: Message, context: ServerCallContext): unknown {
    const call = { rpc: binding.name, request, context };
    this.calls.push(call);
    for (const wake of this.#waiters.splice(0)) wake(call);
    const impl = this.#impls.get(binding.name);
    if (impl) return impl(request, context);
    const error = new UnsupportedOperationError(`${binding.name} is not set up in this test`);
    if (binding.kind === "server_streaming") {
      return {
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
      };
    }
    return Promise.reject(error);
  }
}

/**
 * A stream the test feeds frame by frame. It records whether the binding let
 * go of it (`returned`), which is how detaching is observed without sleeps.
 */
export class FrameChannel<T> implements AsyncIterable<T> {
  readonly #queue: IteratorResult<T>[] = [];
  #failure: unknown;
  #wake: (() => void) | undefined;
  #onReturn: () => void = () => undefined;
  /** Resolves when the consumer calls `return()`. */
  readonly returned = new Promise<void>((resolve) => {
    this.#onReturn = resolve;
  });
  #pulled: () => void = () => undefined;
  /** Resolves when the consumer first waits for a frame that is not there yet. */
  readonly waiting = new Promise<void>((resolve) => {
    this.#pulled = resolve;
  });

  push(frame: T): void {
    this.#queue.push({ done: false, value: frame });
    this.#wake?.();
  }

  end(): void {
    this.#queue.push({ done: true, value: undefined });
    this.#wake?.();
  }

  fail(error: unknown): void {
    this.#failure = error;
    this.#wake?.();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: async () => {
        for (;;) {
          const item = this.#queue.shift();
          if (item) return item;
          if (this.#failure !== undefined) throw this.#failure;
          this.#pulled();
          await new Promise<void>((resolve) => {
            this.#wake = resolve;
          });
        }
      },
      return: async () => {
        this.#onReturn();
        return { done: true, value: undefined };
      },
    };
  }
}
