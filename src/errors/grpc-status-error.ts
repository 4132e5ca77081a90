/**
 * A gRPC status as the SDK's typed error, the one rule for the gRPC binding
 * (the client's transport and `toA2AError` both use it): an A2A
 * `google.rpc.ErrorInfo` in the details decides the class, as on the other
 * bindings; without one the status code does (mirrors decision P10).
 */
import { A2A_ERRORS, GRPC_STATUS_CODES } from "../a2a/error-table.js";
import { errorFromDetails, findErrorInfo } from "../a2a/error-wire.js";
import type { ErrorDetail } from "../a2a/errors.js";
import { NovaOSAuthenticationError, NovaOSConnectionError, NovaOSRateLimitError } from "./novaos-errors.js";

/** connect-es's name of a status (`PermissionDenied`), as `details.grpcCode` has always carried it. */
const STATUS_NAMES = new Map<number, string>(
  Object.entries(GRPC_STATUS_CODES).map(([name, code]) => [
    code,
    name.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _sep: string, c: string) => c.toUpperCase()),
  ]),
);

/** The JSON-RPC code a status stands for when no ErrorInfo says better. */
function fallbackCode(code: number): number {
  switch (code) {
    case GRPC_STATUS_CODES.NOT_FOUND:
      return A2A_ERRORS.TaskNotFoundError.jsonRpcCode;
    case GRPC_STATUS_CODES.UNIMPLEMENTED:
      return A2A_ERRORS.MethodNotFoundError.jsonRpcCode;
    case GRPC_STATUS_CODES.INTERNAL:
    case GRPC_STATUS_CODES.UNKNOWN:
    case GRPC_STATUS_CODES.DATA_LOSS:
      return A2A_ERRORS.InternalError.jsonRpcCode;
    default:
      return A2A_ERRORS.InvalidRequestError.jsonRpcCode;
  }
}

export interface GrpcStatus {
  readonly code: number;
  readonly message: string;
  /** The status details as ProtoJSON `Any` objects (`@type` first). */
  readonly details: readonly ErrorDetail[];
  readonly cause?: unknown;
}

/** The typed error of a gRPC status; `where` (the agent's URL) prefixes the messages of transport-level errors. */
export function errorFromGrpcStatus(status: GrpcStatus, where?: string): Error {
  const { code, message, details } = status;
  if (findErrorInfo(details)) return errorFromDetails(fallbackCode(code), message, details);
  const options = { code, details: { grpcCode: STATUS_NAMES.get(code) ?? String(code) }, cause: status.cause };
  const at = where ? `${where}: ` : "";
  switch (code) {
    case GRPC_STATUS_CODES.UNAUTHENTICATED:
    case GRPC_STATUS_CODES.PERMISSION_DENIED:
      return new NovaOSAuthenticationError(`${at}${message}`, options);
    case GRPC_STATUS_CODES.RESOURCE_EXHAUSTED:
      return new NovaOSRateLimitError(`${at}${message}`, options);
    case GRPC_STATUS_CODES.UNAVAILABLE:
    case GRPC_STATUS_CODES.CANCELLED:
    case GRPC_STATUS_CODES.ABORTED:
    case GRPC_STATUS_CODES.DEADLINE_EXCEEDED:
      return new NovaOSConnectionError(where ? `Connection to ${where} failed: ${message}` : message, options);
    default:
      return errorFromDetails(fallbackCode(code), message, details);
  }
}
