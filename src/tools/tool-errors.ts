/**
 * What a platform tool call ends with when it does not answer a result.
 * Transport failures are the SDK's usual classes (NovaOSConnectionError,
 * NovaOSServerError, NovaOSRateLimitError, NovaOSAuthenticationError,
 * NovaOSValidationError for a bad argument); these are the ones only a tool
 * call has.
 */
import {
  NovaOSError,
  type NovaOSErrorOptions,
  NovaOSServerError,
  NovaOSValidationError,
} from "../errors/novaos-errors.js";

/** The environment variable naming the MCP Gateway that `ctx.tools` calls. */
export const MCP_GATEWAY_URL_ENV = "MCP_GATEWAY_URL";

/** A tool was called with no MCP Gateway to call: `MCP_GATEWAY_URL` is not set and no gateway was given. */
export class ToolsNotConfiguredError extends NovaOSError {
  static override readonly brand: string = "ToolsNotConfiguredError";
  constructor(
    message = `The platform tools have no MCP Gateway: set ${MCP_GATEWAY_URL_ENV} to its URL (the platform sets it ` +
      "in every agent pod), or pass `tools` to new AgentBuilder({ ... })",
    options: NovaOSErrorOptions = {},
  ) {
    super(message, options);
  }
}

interface ToolErrorOptions extends NovaOSErrorOptions {
  /** The tool's fully qualified name. */
  toolName?: string | undefined;
  /** The call's id, as its tool events and the gateway name it. */
  callId?: string | undefined;
}

/** An error about one tool call, naming the tool and the call. */
export class ToolCallError extends NovaOSError {
  static override readonly brand: string = "ToolCallError";
  readonly toolName: string;
  readonly callId: string;
  constructor(message?: string, options: ToolErrorOptions = {}) {
    super(message, options);
    this.toolName = options.toolName ?? "";
    this.callId = options.callId ?? "";
  }
}

/** The tool ran and failed (`isError`): the message is the tool's own explanation. Never retried. */
export class ToolError extends ToolCallError {
  static override readonly brand: string = "ToolError";
}

/** The gateway knows no tool of that name for this caller (-32602 `TOOL_NOT_FOUND`). */
export class ToolNotFoundError extends NovaOSValidationError {
  static override readonly brand: string = "ToolNotFoundError";
  readonly toolName: string;
  constructor(message?: string, options: ToolErrorOptions = {}) {
    super(message, { ...options, reason: "TOOL_NOT_FOUND" });
    this.toolName = options.toolName ?? "";
  }
}

/**
 * A write-class call needs the user's confirmation first (-32042): pause the
 * run for it with `createWriteConfirmationRequiredMessage(text, error.callId,
 * error.toolName)` and call again once it is resumed.
 */
export class WriteConfirmationRequiredError extends ToolCallError {
  static override readonly brand: string = "WriteConfirmationRequiredError";
}

/** The tool's service is switched off in this environment (-32043 `SERVICE_DISABLED`); the message says so. */
export class ServiceDisabledError extends NovaOSServerError {
  static override readonly brand: string = "ServiceDisabledError";
  /** The disabled service, e.g. `connector-host`. */
  readonly service: string;
  constructor(message?: string, options: NovaOSErrorOptions & { service?: string } = {}) {
    super(message, options);
    this.service = options.service ?? "";
  }
}

/** A poller gave up: the job or build was still not finished after `maxWaitS`. */
export class PollTimeoutError extends NovaOSError {
  static override readonly brand: string = "PollTimeoutError";
}

/** `hitl.requestInput`: the platform has no human-input service behind the gateway, so it fails closed. */
export class HitlUnavailableError extends NovaOSError {
  static override readonly brand: string = "HitlUnavailableError";
}
