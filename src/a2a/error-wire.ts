/**
 * Errors to and from their wire forms: the JSON-RPC error object (§9.5) and
 * the `google.rpc.Status` JSON of HTTP+JSON (§11.6). Both carry a
 * `google.rpc.ErrorInfo` in ProtoJSON `Any` form; the gRPC binding carries the
 * same ErrorInfo as a status detail. Reading prefers the ErrorInfo reason
 * (domain `a2a-protocol.org`) and falls back to the numeric code.
 */
import { A2A_ERROR_DOMAIN, A2A_ERRORS, errorSpecByReason, GRPC_STATUS_CODES } from "./error-table.js";
import { A2AError, a2aErrorFromCode, type ErrorDetail, InternalError } from "./errors.js";

export const ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";
export const BAD_REQUEST_TYPE = "type.googleapis.com/google.rpc.BadRequest";

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** `google.rpc.Status` as HTTP+JSON carries it, wrapped in `{ error }`. */
export interface HttpErrorBody {
  error: { code: number; status: string; message: string; details: ErrorDetail[] };
}

/** An unexpected exception becomes a generic InternalError: internals never reach the wire. */
export function asWireError(error: unknown): A2AError {
  return error instanceof A2AError ? error : new InternalError(undefined, { cause: error });
}

export function errorInfoOf(error: A2AError): ErrorDetail {
  const reason = error.spec?.reason ?? "UNKNOWN";
  const info: ErrorDetail = { "@type": ERROR_INFO_TYPE, reason, domain: A2A_ERROR_DOMAIN };
  if (Object.keys(error.metadata).length > 0) info.metadata = { ...error.metadata };
  return info;
}

/** ErrorInfo first, then the error's own details (spec §9.5 `data` array). */
export function wireDetailsOf(error: A2AError): ErrorDetail[] {
  return [errorInfoOf(error), ...error.errorDetails];
}

export function toJsonRpcErrorObject(error: unknown): JsonRpcErrorObject {
  const e = asWireError(error);
  return { code: e.code, message: e.message, data: wireDetailsOf(e) };
}

export function httpStatusOf(error: A2AError): number {
  return error.spec?.httpStatus ?? A2A_ERRORS.InternalError.httpStatus;
}

export function grpcStatusOf(error: A2AError): number {
  return GRPC_STATUS_CODES[error.spec?.grpcStatus ?? "INTERNAL"];
}

export function toHttpErrorBody(error: unknown): { status: number; body: HttpErrorBody } {
  const e = asWireError(error);
  const status = httpStatusOf(e);
  return {
    status,
    body: {
      error: { code: status, status: e.spec?.grpcStatus ?? "INTERNAL", message: e.message, details: wireDetailsOf(e) },
    },
  };
}

function isDetail(value: unknown): value is ErrorDetail {
  return typeof value === "object" && value !== null && typeof (value as ErrorDetail)["@type"] === "string";
}

/** The A2A ErrorInfo among details, if any. */
export function findErrorInfo(details: readonly unknown[]): ErrorDetail | undefined {
  return details.find(
    (d): d is ErrorDetail => isDetail(d) && d["@type"] === ERROR_INFO_TYPE && d.domain === A2A_ERROR_DOMAIN,
  );
}

interface ParsedDetails {
  info: ErrorDetail | undefined;
  metadata: Record<string, string> | undefined;
  errorDetails: ErrorDetail[];
}

function parseDetails(raw: unknown): ParsedDetails {
  const all = Array.isArray(raw) ? raw : [];
  const info = findErrorInfo(all);
  const metadata = info && typeof info.metadata === "object" && info.metadata !== null ? info.metadata : undefined;
  return {
    info,
    metadata: metadata as Record<string, string> | undefined,
    errorDetails: all.filter((d): d is ErrorDetail => isDetail(d) && d !== info),
  };
}

/**
 * Builds the typed error from wire details (HTTP+JSON, gRPC): the A2A
 * ErrorInfo reason decides the class; without one, `fallbackCode` does. The
 * raw details stay available as `details.data`.
 */
export function errorFromDetails(fallbackCode: number, message: string | undefined, rawDetails: unknown): A2AError {
  const { info, metadata, errorDetails } = parseDetails(rawDetails);
  const spec = typeof info?.reason === "string" ? errorSpecByReason(info.reason) : undefined;
  return a2aErrorFromCode(spec?.jsonRpcCode ?? fallbackCode, message || undefined, {
    metadata,
    errorDetails,
    details: { data: rawDetails },
  });
}

/** Reads a JSON-RPC `error` member: its code decides the class (§5.4). */
export function fromJsonRpcErrorObject(value: unknown): A2AError {
  const obj = (typeof value === "object" && value !== null ? value : {}) as Partial<JsonRpcErrorObject>;
  const code = Number.isInteger(obj.code) ? (obj.code as number) : A2A_ERRORS.InternalError.jsonRpcCode;
  const { metadata, errorDetails } = parseDetails(obj.data);
  const message = typeof obj.message === "string" && obj.message !== "" ? obj.message : undefined;
  return a2aErrorFromCode(code, message, { metadata, errorDetails, details: { data: obj.data } });
}

/**
 * Reads an HTTP+JSON error response. Without an A2A ErrorInfo the status
 * decides: 404 is TaskNotFoundError (the only A2A error on 404), 5xx
 * InternalError, any other status InvalidRequestError.
 */
export function fromHttpError(status: number, body: unknown): A2AError {
  const err = (body as Partial<HttpErrorBody> | undefined)?.error;
  const fallback =
    status === 404
      ? A2A_ERRORS.TaskNotFoundError
      : status >= 500
        ? A2A_ERRORS.InternalError
        : A2A_ERRORS.InvalidRequestError;
  return errorFromDetails(
    fallback.jsonRpcCode,
    typeof err?.message === "string" ? err.message : undefined,
    err?.details,
  );
}
