/**
 * Typed A2A errors. Each class is named after its row in the error table and
 * takes its code and default message from there.
 *
 * `instanceof` is decided by a brand (a `Symbol.for` key), not by prototype
 * identity, so it keeps working when two copies of the SDK end up in one
 * process (two bundles, ESM and CJS side by side): a2a-js lost every typed
 * error to that once (a2a-js#612).
 */
import { A2A_ERRORS, type A2AErrorSpec, type A2AErrorType, errorSpecByCode } from "./error-table.js";

const BRANDS = Symbol.for("@novaos/client-sdk/error-brands");

/** A google.rpc detail object in ProtoJSON `Any` form: `{"@type": "type.googleapis.com/…", …}`. */
export type ErrorDetail = { "@type": string } & Record<string, unknown>;

export interface A2AErrorOptions {
  /** Overrides the class's JSON-RPC code (only meaningful on the open base classes). */
  code?: number;
  /** `ErrorInfo.metadata`: string context such as `{ taskId }`. */
  metadata?: Record<string, string>;
  /** Further google.rpc details (e.g. `BadRequest`); the binding adds the `ErrorInfo` itself. */
  details?: readonly ErrorDetail[];
  /** The raw `error.data` / `details` a peer sent, kept verbatim. */
  data?: unknown;
  cause?: unknown;
}

type Branded = { [BRANDS]?: readonly string[] };

/** Any error that has a representation on the A2A wire. */
export class A2AError extends Error {
  static readonly brand: string = "A2AError";

  /** The JSON-RPC code: the error's identity on every binding. */
  readonly code: number;
  readonly metadata: Readonly<Record<string, string>>;
  readonly details: readonly ErrorDetail[];
  readonly data: unknown;

  constructor(message?: string, options: A2AErrorOptions = {}) {
    const own = (new.target as typeof A2AError).brand;
    const spec: A2AErrorSpec | undefined = A2A_ERRORS[own as A2AErrorType];
    super(message ?? spec?.message ?? "A2A error", options.cause === undefined ? undefined : { cause: options.cause });
    this.name = own;
    this.code = options.code ?? spec?.jsonRpcCode ?? A2A_ERRORS.InternalError.jsonRpcCode;
    this.metadata = options.metadata ?? {};
    this.details = options.details ?? [];
    this.data = options.data;
    const brands: string[] = [];
    for (let c = new.target as unknown; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, "brand")) brands.push((c as typeof A2AError).brand);
    }
    Object.defineProperty(this, BRANDS, { value: brands, enumerable: false });
  }

  /** The table row of this error's code, if the code is a known one. */
  get spec(): A2AErrorSpec | undefined {
    return errorSpecByCode(this.code);
  }

  /** `this` is the class on the right of `instanceof`: a subclass without its own brand checks prototypes. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is whichever subclass is on the right of instanceof.
    const target = this as typeof A2AError;
    if (!Object.hasOwn(target, "brand")) return Function.prototype[Symbol.hasInstance].call(target, value);
    const brands = (value as Branded | null)?.[BRANDS];
    return Array.isArray(brands) && brands.includes(target.brand);
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
};

/**
 * The class for a wire code. Unknown codes are kept: those in the A2A range
 * (-32001…-32099) and any other unknown code become the open base classes
 * carrying the code, never a silent InternalError.
 */
export function errorClassForCode(code: number): typeof A2AError {
  const spec = errorSpecByCode(code);
  if (spec) return A2A_ERROR_CLASSES[spec.type as A2AErrorType];
  return code <= -32600 && code >= -32768 ? JsonRpcError : A2AProtocolError;
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
