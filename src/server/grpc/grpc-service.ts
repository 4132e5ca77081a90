/**
 * The gRPC binding (spec §10): `lf.a2a.v1.A2AService` implemented with
 * connect-es over an `A2ARequestHandler`, built from the generated binding
 * table (the handler's methods are named like connect-es's `ServiceImpl`).
 * Service parameters and credentials are read from the request metadata;
 * a cancelled call detaches from the task, as on the HTTP bindings.
 */
import type { DescMessage, Message } from "@bufbuild/protobuf";
import type { ConnectError, ConnectRouter, HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { A2AService } from "../../../gen/a2a_pb.js";
import { type A2ABinding, a2aBindingList } from "../../a2a/bindings.js";
import { PROTOCOL_BINDING_GRPC } from "../../a2a/constants.js";
import { A2AError } from "../../a2a/errors.js";
import { checkRequiredFields } from "../../a2a/protojson.js";
import type { Logger } from "../../runtime/logger.js";
import type { ServerCallContext } from "../call-context.js";
import { detachable } from "../detachable-stream.js";
import {
  type StreamingHandlerMethod,
  streamingMethodOf,
  type UnaryHandlerMethod,
  unaryMethodOf,
} from "../handler-method.js";
import { type A2ARequestHandler, handlerMethodName } from "../request-handler.js";
import { toConnectError } from "./grpc-error.js";

interface Call {
  readonly context: ServerCallContext;
  /** The call is over: stop listening for cancellation. */
  close(): void;
}

/**
 * connect-es aborts its signal when the caller cancels or the deadline passes,
 * but also once the RPC completes; `context.signal` follows only the former.
 * It is made when first read: a unary call mostly never reads it, and an
 * AbortController and its listener per call are a measurable cost.
 */
function openCall(handlerContext: HandlerContext): Call {
  const outer = handlerContext.signal;
  let controller: AbortController | undefined;
  let closed = false;
  /** Set at close when the call was cancelled before it completed. */
  let cancelled: { reason: unknown } | undefined;
  const detach = () => controller?.abort(outer.reason);
  return {
    context: {
      binding: PROTOCOL_BINDING_GRPC,
      headers: handlerContext.requestHeader,
      get signal() {
        if (!controller) {
          controller = new AbortController();
          if (closed) {
            if (cancelled) controller.abort(cancelled.reason);
          } else if (outer.aborted) {
            detach();
          } else {
            outer.addEventListener("abort", detach, { once: true });
          }
        }
        return controller.signal;
      },
      responseHeaders: handlerContext.responseHeader,
    },
    close: () => {
      if (closed) return;
      closed = true;
      if (outer.aborted) cancelled = { reason: outer.reason };
      if (controller) outer.removeEventListener("abort", detach);
    },
  };
}

export interface A2AServiceImplOptions {
  /** Where unexpected handler failures are logged (they reach the caller as a bare INTERNAL). */
  readonly logger?: Logger;
}

/** Failures that are not A2A answers are bugs or outages: the caller sees INTERNAL, the log sees why. */
function failure(error: unknown, logger: Logger | undefined): ConnectError {
  if (!(error instanceof A2AError)) logger?.error({ err: error, binding: PROTOCOL_BINDING_GRPC }, "request failed");
  return toConnectError(error);
}

/**
 * One unary RPC of the service: its binding-table entry and how it answers a
 * decoded request within a call. Failures come out as the ConnectError to send.
 */
export interface GrpcUnaryMethod {
  readonly binding: A2ABinding;
  answer(request: Message, context: ServerCallContext): Promise<Message>;
}

function unaryMethod(binding: A2ABinding, method: UnaryHandlerMethod, logger: Logger | undefined): GrpcUnaryMethod {
  return {
    binding,
    async answer(request, context) {
      try {
        checkRequiredFields(binding.input as DescMessage, request as never);
        return await method(request, context);
      } catch (error) {
        throw failure(error, logger);
      }
    },
  };
}

/** The unary RPCs of `A2AService` over `handler`, by gRPC path (`/lf.a2a.v1.A2AService/GetTask`). */
export function grpcUnaryMethods(
  handler: A2ARequestHandler,
  options: A2AServiceImplOptions = {},
): ReadonlyMap<string, GrpcUnaryMethod> {
  const methods = new Map<string, GrpcUnaryMethod>();
  for (const binding of a2aBindingList) {
    if (binding.kind === "server_streaming") continue;
    methods.set(
      `/${A2AService.typeName}/${binding.name}`,
      unaryMethod(binding, unaryMethodOf(handler, binding), options.logger),
    );
  }
  return methods;
}

function unary(method: GrpcUnaryMethod) {
  return async (request: Message, handlerContext: HandlerContext): Promise<Message> => {
    const call = openCall(handlerContext);
    try {
      return await method.answer(request, call.context);
    } finally {
      call.close();
    }
  };
}

function serverStreaming(binding: A2ABinding, method: StreamingHandlerMethod, logger: Logger | undefined) {
  return async function* (request: Message, handlerContext: HandlerContext): AsyncGenerator<Message> {
    const call = openCall(handlerContext);
    try {
      checkRequiredFields(binding.input as DescMessage, request as never);
      yield* detachable(method(request, call.context), call.context.signal);
    } catch (error) {
      throw failure(error, logger);
    } finally {
      call.close();
    }
  };
}

/** The connect-es implementation of `A2AService` over `handler`. */
export function createA2AServiceImpl(
  handler: A2ARequestHandler,
  options: A2AServiceImplOptions = {},
  unaryMethods: ReadonlyMap<string, GrpcUnaryMethod> = grpcUnaryMethods(handler, options),
): ServiceImpl<typeof A2AService> {
  const impl: Record<string, unknown> = {};
  for (const method of unaryMethods.values()) impl[handlerMethodName(method.binding.name)] = unary(method);
  for (const binding of a2aBindingList) {
    if (binding.kind !== "server_streaming") continue;
    impl[handlerMethodName(binding.name)] = serverStreaming(
      binding,
      streamingMethodOf(handler, binding),
      options.logger,
    );
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
