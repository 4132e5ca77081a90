/**
 * `toA2AError(reason)`: any failure of a call to an agent, on any binding, as
 * the SDK's typed error — what `ConnectError.from` is to connect-es, for a
 * caller that talks to an agent without `Client` (connect-es over the
 * generated `A2AService`, a fetch of its own):
 *
 * - an SDK error (the A2A classes, the NovaOSError family) is returned as it is;
 * - a connect-es `ConnectError` (gRPC): the A2A ErrorInfo in its details
 *   decides the class, else its status code (errorFromGrpcStatus);
 * - a JSON-RPC `error` member `{ code, message, data }`: its code decides;
 * - an HTTP+JSON error body `{ error: { code, status, message, details } }`:
 *   its ErrorInfo, else its HTTP status;
 * - anything else becomes a NovaOSError with the reason as its cause.
 *
 * A ConnectError is recognised by shape, so this entry never loads connect-es.
 */
import type { DescMessage, JsonObject, MessageShape } from "@bufbuild/protobuf";
import { toJson } from "@bufbuild/protobuf";
import { BadRequestSchema, ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { BAD_REQUEST_TYPE, ERROR_INFO_TYPE, fromHttpError } from "../a2a/error-wire.js";
import { A2AError, type ErrorDetail } from "../a2a/errors.js";
import { errorFromJsonRpc } from "./error-mapping.js";
import { errorFromGrpcStatus } from "./grpc-status-error.js";
import { NovaOSError } from "./novaos-errors.js";

/** What this file reads of a connect-es ConnectError. */
interface ConnectErrorLike {
  readonly code: number;
  readonly rawMessage: string;
  findDetails<S extends DescMessage>(schema: S): MessageShape<S>[];
}

function isConnectError(value: object): value is ConnectErrorLike {
  const v = value as Partial<ConnectErrorLike>;
  return typeof v.code === "number" && typeof v.rawMessage === "string" && typeof v.findDetails === "function";
}

/** A ConnectError's A2A details as ProtoJSON `Any` objects, the form the protocol layer reads. */
export function connectErrorDetails(error: ConnectErrorLike): ErrorDetail[] {
  const any = <S extends DescMessage>(schema: S, type: string) =>
    error.findDetails(schema).map((d) => ({ "@type": type, ...(toJson(schema, d) as JsonObject) }));
  return [...any(ErrorInfoSchema, ERROR_INFO_TYPE), ...any(BadRequestSchema, BAD_REQUEST_TYPE)];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

export function toA2AError(reason: unknown): A2AError | NovaOSError | Error {
  if (reason instanceof A2AError || reason instanceof NovaOSError) return reason;
  if (isObject(reason) && isConnectError(reason)) {
    return errorFromGrpcStatus({
      code: reason.code,
      message: reason.rawMessage,
      details: connectErrorDetails(reason),
      cause: reason,
    });
  }
  if (isObject(reason) && typeof reason.code === "number" && typeof reason.message === "string") {
    return errorFromJsonRpc(reason);
  }
  if (isObject(reason) && isObject(reason.error) && typeof reason.error.code === "number") {
    return fromHttpError(reason.error.code, reason);
  }
  const message = reason instanceof Error ? reason.message : String(reason);
  return new NovaOSError(message, { cause: reason });
}
