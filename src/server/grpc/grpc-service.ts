/**
 * The gRPC binding (spec §10): `lf.a2a.v1.A2AService` implemented with
 * connect-es over an `A2ARequestHandler`, built from the generated binding
 * table (the handler's methods are named like connect-es's `ServiceImpl`).
 * Service parameters and credentials are read from the request metadata;
 * a cancelled call detaches from the task, as on the HTTP bindings.
 */
import type { DescMessage, Message } from "@bufbuild/protobuf";
import {
  type ConnectRouter,
  type ContextValues,
  createContextKey,
  createContextValues,
  type HandlerContext,
  type ServiceImpl,
} from "@connectrpc/connect";
import { A2AService } from "../../../gen/a2a_pb.js";
import { type A2ABinding, a2aBindingList } from "../../a2a/bindings.js";
import { PROTOCOL_BINDING_GRPC } from "../../a2a/constants.js";
import { checkRequiredFields } from "../../a2a/protojson.js";
import type { Logger } from "../../runtime/logger.js";
import { detachable } from "../detachable-stream.js";
import { type A2ARequestHandler, handlerMethodName } from "../request-handler.js";
import { logFailure, type RpcExchange, type RpcRequest, serveRpc } from "../serve-rpc.js";
import { ServerCall, watchSignal } from "../server-call.js";
import { toConnectError } from "./grpc-error.js";

export interface A2AServiceImplOptions {
  /** Where unexpected handler failures are logged (they reach the caller as a bare INTERNAL). */
  readonly logger?: Logger;
  /** Requests holding more JSON values are refused with INVALID_ARGUMENT. Default `MAX_REQUEST_VALUES`. */
  readonly maxRequestValues?: number;
}

type GrpcReply = Message | AsyncIterable<Message>;

/**
 * One call whose request message is already decoded (by connect-es, or by the
 * unary fast path): decoding is the REQUIRED-field check (binary protobuf has
 * none); a failure is thrown as the ConnectError connect-es sends.
 */
class DecodedGrpcCall implements RpcExchange<GrpcReply> {
  readonly #method: A2ABinding;
  readonly #request: Message;
  readonly #call: ServerCall;
  readonly #options: A2AServiceImplOptions;

  constructor(method: A2ABinding, request: Message, call: ServerCall, options: A2AServiceImplOptions) {
    this.#method = method;
    this.#request = request;
    this.#call = call;
    this.#options = options;
  }

  decode(): RpcRequest {
    checkRequiredFields(this.#method.input as DescMessage, this.#request as never, this.#options.maxRequestValues);
    return { method: this.#method, input: this.#request };
  }

  unary(_method: A2ABinding, output: Message): Message {
    return output;
  }

  /** The frames until the caller cancels (the handler lets go at once); a failure ends the call with its status. */
  async *stream(_method: A2ABinding, frames: AsyncIterable<Message>): AsyncGenerator<Message> {
    try {
      yield* detachable(frames, this.#call.signal);
    } catch (error) {
      logFailure(this.#options.logger, error, PROTOCOL_BINDING_GRPC);
      throw toConnectError(error);
    } finally {
      this.#call.close();
    }
  }

  error(error: unknown): never {
    throw toConnectError(error);
  }
}

function serveDecoded(
  handler: A2ARequestHandler,
  binding: A2ABinding,
  request: Message,
  call: ServerCall,
  options: A2AServiceImplOptions,
): Promise<GrpcReply> {
  return serveRpc<GrpcReply>(handler, call, new DecodedGrpcCall(binding, request, call, options), options.logger);
}

/**
 * One unary RPC of the service: its binding-table entry and how it answers a
 * decoded request within a call. Failures come out as the ConnectError to send.
 */
export interface GrpcUnaryMethod {
  readonly binding: A2ABinding;
  answer(request: Message, call: ServerCall): Promise<Message>;
}

/** The unary RPCs of `A2AService` over `handler`, by gRPC path (`/lf.a2a.v1.A2AService/GetTask`). */
export function grpcUnaryMethods(
  handler: A2ARequestHandler,
  options: A2AServiceImplOptions = {},
): ReadonlyMap<string, GrpcUnaryMethod> {
  const methods = new Map<string, GrpcUnaryMethod>();
  for (const binding of a2aBindingList) {
    if (binding.kind === "server_streaming") continue;
    methods.set(`/${A2AService.typeName}/${binding.name}`, {
      binding,
      // The binding is unary: the answer is the handler's reply message.
      answer: (request, call) => serveDecoded(handler, binding, request, call, options) as Promise<Message>,
    });
  }
  return methods;
}

/** The caller's address, which connect-es does not carry: the Node adapter puts it in the context values. */
const REMOTE_ADDRESS = createContextKey<string | undefined>(undefined, { description: "remote address" });

/** connect-node's `contextValues` for a request: its caller's address. */
export function remoteAddressValues(req: { readonly socket?: { readonly remoteAddress?: string } }): ContextValues {
  return createContextValues().set(REMOTE_ADDRESS, req.socket?.remoteAddress);
}

/**
 * The call of one connect-es handler context. connect-es aborts its signal
 * when the caller cancels or the deadline passes, but also once the RPC
 * completes; the call's signal follows it only until the call closes.
 */
function callOf(handlerContext: HandlerContext): ServerCall {
  return new ServerCall(
    PROTOCOL_BINDING_GRPC,
    handlerContext.requestHeader,
    watchSignal(handlerContext),
    handlerContext.responseHeader,
    handlerContext.values.get(REMOTE_ADDRESS),
  );
}

function serverStreaming(binding: A2ABinding, handler: A2ARequestHandler, options: A2AServiceImplOptions) {
  return async function* (request: Message, handlerContext: HandlerContext): AsyncGenerator<Message> {
    const call = callOf(handlerContext);
    // The binding is streaming: the answer is the frames.
    yield* (await serveDecoded(handler, binding, request, call, options)) as AsyncIterable<Message>;
  };
}

/** The connect-es implementation of `A2AService` over `handler`. */
export function createA2AServiceImpl(
  handler: A2ARequestHandler,
  options: A2AServiceImplOptions = {},
  unaryMethods: ReadonlyMap<string, GrpcUnaryMethod> = grpcUnaryMethods(handler, options),
): ServiceImpl<typeof A2AService> {
  const impl: Record<string, unknown> = {};
  for (const method of unaryMethods.values()) {
    impl[handlerMethodName(method.binding.name)] = (request: Message, handlerContext: HandlerContext) =>
      method.answer(request, callOf(handlerContext));
  }
  for (const binding of a2aBindingList) {
    if (binding.kind === "server_streaming") {
      impl[handlerMethodName(binding.name)] = serverStreaming(binding, handler, options);
    }
  }
  return impl as ServiceImpl<typeof A2AService>;
}

/** Routes for `connectNodeAdapter` (or any connect-es server) serving `A2AService` over `handler`. */
export function a2aGrpcRoutes(
  handler: A2ARequestHandler,
  options: A2AServiceImplOptions = {},
  unaryMethods?: ReadonlyMap<string, GrpcUnaryMethod>,
): (router: ConnectRouter) => void {
  const impl = createA2AServiceImpl(handler, options, unaryMethods);
  return (router) => {
    router.service(A2AService, impl);
  };
}
