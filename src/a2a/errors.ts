/**
 * Typed A2A errors. Each class is named after its row in the error table and
 * takes its code and default message from there.
 *
 * `instanceof` is decided by brands (see error-brand.ts), so it keeps working
 * when two copies of the SDK end up in one process.
 */
import { hasBrand, stampBrands } from "./error-brand.js";
import { A2A_ERRORS, type A2AErrorSpec, type A2AErrorType, errorSpecByCode } from "./error-table.js";

/** A google.rpc detail object in ProtoJSON `Any` form: `{"@type": "type.googleapis.com/…", …}`. */
export type ErrorDetail = { "@type": string } & Record<string, unknown>;

export interface A2AErrorOptions {
  /** Overrides the class's JSON-RPC code (only meaningful on the open base classes). */
  code?: number;
  /** `ErrorInfo.metadata`: string context such as `{ taskId }`. */
  metadata?: Record<string, string>;
  /** The task the error is about; kept as `metadata.taskId`. */
  taskId?: string;
  /** Further google.rpc details (e.g. `BadRequest`); the binding adds the `ErrorInfo` itself. */
  errorDetails?: readonly ErrorDetail[];
  /** Free-form context. Errors read from the wire keep the peer's raw payload at `details.data`. */
  details?: Record<string, unknown>;
  /** Seconds after which a retry may succeed, when the peer said so. */
  retryAfter?: number;
  cause?: unknown;
}

/** Any error that has a representation on the A2A wire. */
export class A2AError extends Error {
  static readonly brand: string = "A2AError";

  /** The JSON-RPC code: the error's identity on every binding. */
  readonly code: number;
  readonly metadata: Readonly<Record<string, string>>;
  readonly errorDetails: readonly ErrorDetail[];
  readonly details: Readonly<Record<string, unknown>>;
  readonly retryAfter: number | undefined;

  constructor(message?: string, options: A2AErrorOptions = {}) {
    const own = (new.target as typeof A2AError).brand;
    const spec: A2AErrorSpec | undefined = A2A_ERRORS[own as A2AErrorType];
    super(message ?? spec?.message ?? "A2A error", options.cause === undefined ? undefined : { cause: options.cause });
    this.name = own;
    this.code = options.code ?? spec?.jsonRpcCode ?? A2A_ERRORS.InternalError.jsonRpcCode;
    this.metadata =
      options.taskId === undefined ? (options.metadata ?? {}) : { ...options.metadata, taskId: options.taskId };
    this.errorDetails = options.errorDetails ?? [];
    this.details = options.details ?? {};
    this.retryAfter = options.retryAfter;
    stampBrands(this, new.target);
  }

  /** The table row of this error's code, if the code is a known one. */
  get spec(): A2AErrorSpec | undefined {
    return errorSpecByCode(this.code);
  }

  /** The task the error is about, when the peer named one (`ErrorInfo.metadata.taskId`). */
  get taskId(): string | undefined {
    return this.metadata.taskId;
  }

  /** Protocol errors are answers, not outages: retrying the same request gives the same answer. */
  get isRetryable(): boolean {
    return false;
  }

  /** `this` is the class on the right of `instanceof`: a subclass without its own brand checks prototypes. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is whichever subclass is on the right of instanceof.
    const target = this as typeof A2AError;
    return hasBrand(target, value);
  }
}

/** The A2A errors of spec §5.4 (-32001…-32099). Unknown codes in that range arrive as this base class. */
export class A2AProtocolError extends A2AError {
  static override readonly brand: string = "A2AProtocolError";
}

/** -32001: the task id does not name an existing, accessible task. */
export class TaskNotFoundError extends A2AProtocolError {
  static override readonly brand: string = "TaskNotFoundError";
}
/** -32002: the task is in a state that cannot be canceled (a terminal one). */
export class TaskNotCancelableError extends A2AProtocolError {
  static override readonly brand: string = "TaskNotCancelableError";
}
/** -32003: the agent does not support push notifications. */
export class PushNotificationNotSupportedError extends A2AProtocolError {
  static override readonly brand: string = "PushNotificationNotSupportedError";
}
/** -32004: the operation, or an aspect of it, is not supported. */
export class UnsupportedOperationError extends A2AProtocolError {
  static override readonly brand: string = "UnsupportedOperationError";
}
/** -32005: a media type of the request is not supported. */
export class ContentTypeNotSupportedError extends A2AProtocolError {
  static override readonly brand: string = "ContentTypeNotSupportedError";
}
/** -32006: an agent's response does not conform to the spec (also raised by clients about a reply). */
export class InvalidAgentResponseError extends A2AProtocolError {
  static override readonly brand: string = "InvalidAgentResponseError";
}
/** -32007: no extended agent card is configured. */
export class ExtendedAgentCardNotConfiguredError extends A2AProtocolError {
  static override readonly brand: string = "ExtendedAgentCardNotConfiguredError";
}
/** -32008: the agent requires an extension the caller did not activate. */
export class ExtensionSupportRequiredError extends A2AProtocolError {
  static override readonly brand: string = "ExtensionSupportRequiredError";
}
/** -32009: the requested A2A version is not served. */
export class VersionNotSupportedError extends A2AProtocolError {
  static override readonly brand: string = "VersionNotSupportedError";
}

/**
 * -32060: the call carries no credentials, or credentials the agent refused
 * (HTTP 401 with a `WWW-Authenticate` challenge, gRPC UNAUTHENTICATED).
 */
export class UnauthenticatedError extends A2AProtocolError {
  static override readonly brand: string = "UnauthenticatedError";
}
/**
 * -32061: the caller is authenticated but may not make this call (HTTP 403,
 * gRPC PERMISSION_DENIED). Never used for another caller's task: that is
 * answered as an unknown task, so its existence is not revealed.
 */
export class PermissionDeniedError extends A2AProtocolError {
  static override readonly brand: string = "PermissionDeniedError";
}

/** The JSON-RPC 2.0 standard errors (-32700, -32600…-32603). */
export class JsonRpcError extends A2AError {
  static override readonly brand: string = "JsonRpcError";
}
/** -32700: the body is not JSON (or is over the size cap). */
export class JSONParseError extends JsonRpcError {
  static override readonly brand: string = "JSONParseError";
}
/** -32600: valid JSON, but not a JSON-RPC request object. */
export class InvalidRequestError extends JsonRpcError {
  static override readonly brand: string = "InvalidRequestError";
}
/** -32601: the method does not exist (v0.3 names such as `message/send` included). */
export class MethodNotFoundError extends JsonRpcError {
  static override readonly brand: string = "MethodNotFoundError";
}
/** -32602: the params do not decode to the method's request message. */
export class InvalidParamsError extends JsonRpcError {
  static override readonly brand: string = "InvalidParamsError";
}
/** -32603: the server failed; the message never carries internals. */
export class InternalError extends JsonRpcError {
  static override readonly brand: string = "InternalError";
}

/** Error classes by table type; the factory below and the bindings resolve codes through it. */
export const A2A_ERROR_CLASSES: Readonly<Record<A2AErrorType, typeof A2AError>> = {
  TaskNotFoundError,
  TaskNotCancelableError,
  PushNotificationNotSupportedError,
  UnsupportedOperationError,
  ContentTypeNotSupportedError,
  InvalidAgentResponseError,
  ExtendedAgentCardNotConfiguredError,
  ExtensionSupportRequiredError,
  VersionNotSupportedError,
  JSONParseError,
  InvalidRequestError,
  MethodNotFoundError,
  InvalidParamsError,
  InternalError,
  UnauthenticatedError,
  PermissionDeniedError,
};

/**
 * The class for a wire code. An unknown code is kept on an A2AProtocolError
 * (most likely a newer spec revision's), never collapsed to InternalError.
 */
export function errorClassForCode(code: number): typeof A2AError {
  const spec = errorSpecByCode(code);
  return spec ? A2A_ERROR_CLASSES[spec.type as A2AErrorType] : A2AProtocolError;
}

/** Builds the typed error for a wire code. */
export function a2aErrorFromCode(
  code: number,
  message?: string,
  options: Omit<A2AErrorOptions, "code"> = {},
): A2AError {
  const ErrorClass = errorClassForCode(code);
  return new ErrorClass(message, { ...options, code });
}
