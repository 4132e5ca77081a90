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
import { invalidParams } from "../../a2a/protojson.js";
import { requiredFieldViolations } from "../../a2a/required-fields.js";
import type { Logger } from "../../runtime/logger.js";
import type { ServerCallContext } from "../call-context.js";
import { detachable } from "../http-json/detachable-stream.js";
import {
  type StreamingHandlerMethod,
  streamingMethodOf,
  type UnaryHandlerMethod,
  unaryMethodOf,
} from "../http-json/handler-method.js";
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
 */
function openCall(handlerContext: HandlerContext): Call {
  const controller = new AbortController();
  const detach = () => controller.abort(handlerContext.signal.reason);
  if (handlerContext.signal.aborted) detach();
  else handlerContext.signal.addEventListener("abort", detach, { once: true });
  return {
    context: {
      binding: PROTOCOL_BINDING_GRPC,
      headers: handlerContext.requestHeader,
      signal: controller.signal,
      responseHeaders: handlerContext.responseHeader,
    },
    close: () => handlerContext.signal.removeEventListener("abort", detach),
  };
}

/** Binary protobuf has no notion of REQUIRED: check it as the JSON bindings do (§5.7). */
function checkRequired(schema: DescMessage, request: Message): void {
  const violations = requiredFieldViolations(schema, request);
  if (violations.length > 0) throw invalidParams(violations);
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

function unary(binding: A2ABinding, method: UnaryHandlerMethod, logger: Logger | undefined) {
  return async (request: Message, handlerContext: HandlerContext): Promise<Message> => {
    const call = openCall(handlerContext);
    try {
      checkRequired(binding.input, request);
      return await method(request, call.context);
    } catch (error) {
      throw failure(error, logger);
    } finally {
      call.close();
    }
  };
}

function serverStreaming(binding: A2ABinding, method: StreamingHandlerMethod, logger: Logger | undefined) {
  return async function* (request: Message, handlerContext: HandlerContext): AsyncGenerator<Message> {
    const call = openCall(handlerContext);
    try {
      checkRequired(binding.input, request);
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
): ServiceImpl<typeof A2AService> {
  const impl: Record<string, unknown> = {};
  for (const binding of a2aBindingList) {
    impl[handlerMethodName(binding.name)] =
      binding.kind === "server_streaming"
        ? serverStreaming(binding, streamingMethodOf(handler, binding), options.logger)
        : unary(binding, unaryMethodOf(handler, binding), options.logger);
  }
  return impl as ServiceImpl<typeof A2AService>;
}

/** Routes for `connectNodeAdapter` (or any connect-es server) serving `A2AService` over `handler`. */
export function a2aGrpcRoutes(
  handler: A2ARequestHandler,
  options: A2AServiceImplOptions = {},
): (router: ConnectRouter) => void {
  const impl = createA2AServiceImpl(handler, options);
  return (router) => {
    router.service(A2AService, impl);
  };
}
