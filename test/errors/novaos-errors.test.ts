import { describe, expect, it } from "vitest";
import * as a2a from "../../src/a2a/errors.js";
import * as errors from "../../src/errors/index.js";

const {
  NovaOSError,
  NovaOSConnectionError,
  NovaOSAuthenticationError,
  MissingExecutionTokenError,
  NovaOSAgentNotFoundError,
  NovaOSValidationError,
  NovaOSServerError,
  NovaOSRateLimitError,
  NovaOSDNSError,
  NovaOSDNSConnectionError,
  NovaOSDNSAgentNotFoundError,
  NovaOSDNSRateLimitError,
  AgentCardSignatureError,
  InvalidAgentCardSignatureError,
  NoAgentCardSignatureError,
  SealedEnvelopeError,
  RecipientKeyUnavailableError,
  SealedEnvelopeFormatError,
  SecretNotDeliveredError,
} = errors;

// [class, parent, retryable]
const HIERARCHY = [
  [NovaOSConnectionError, NovaOSError, true],
  [NovaOSAuthenticationError, NovaOSError, false],
  [MissingExecutionTokenError, NovaOSAuthenticationError, false],
  [NovaOSAgentNotFoundError, NovaOSError, false],
  [NovaOSValidationError, NovaOSError, false],
  [NovaOSServerError, NovaOSError, false],
  [NovaOSRateLimitError, NovaOSError, true],
  [NovaOSDNSError, NovaOSError, false],
  [NovaOSDNSConnectionError, NovaOSDNSError, true],
  [NovaOSDNSAgentNotFoundError, NovaOSDNSError, false],
  [NovaOSDNSRateLimitError, NovaOSDNSError, true],
  [a2a.A2AProtocolError, NovaOSError, false],
  [a2a.TaskNotFoundError, a2a.A2AProtocolError, false],
  [a2a.TaskNotCancelableError, a2a.A2AProtocolError, false],
  [a2a.PushNotificationNotSupportedError, a2a.A2AProtocolError, false],
  [a2a.UnsupportedOperationError, a2a.A2AProtocolError, false],
  [a2a.ContentTypeNotSupportedError, a2a.A2AProtocolError, false],
  [a2a.InvalidAgentResponseError, a2a.A2AProtocolError, false],
  [a2a.ExtendedAgentCardNotConfiguredError, a2a.A2AProtocolError, false],
  [a2a.ExtensionSupportRequiredError, a2a.A2AProtocolError, false],
  [a2a.VersionNotSupportedError, a2a.A2AProtocolError, false],
  [AgentCardSignatureError, NovaOSError, false],
  [InvalidAgentCardSignatureError, AgentCardSignatureError, false],
  [NoAgentCardSignatureError, AgentCardSignatureError, false],
  [SealedEnvelopeError, NovaOSError, false],
  [RecipientKeyUnavailableError, SealedEnvelopeError, false],
  [SealedEnvelopeFormatError, SealedEnvelopeError, false],
  [SecretNotDeliveredError, NovaOSError, false],
] as const;

describe("the NovaOS error hierarchy", () => {
  it("has the reference's 29 classes", () => {
    expect(HIERARCHY.length + 1).toBe(29);
  });

  it.each(HIERARCHY.map(([c, p, r]) => [c.brand, c, p, r] as const))(
    "%s: parent, root and retryability",
    (_, ErrorClass, Parent, retryable) => {
      const e = new (ErrorClass as typeof NovaOSError)("m", { retryAfter: 1.5, details: { k: 1 } } as never);
      expect(e).toBeInstanceOf(Error);
      expect(e).toBeInstanceOf(Parent);
      expect(e).toBeInstanceOf(NovaOSError);
      expect(e.message).toBe("m");
      expect(e.retryAfter).toBe(1.5);
      expect(e.details).toEqual({ k: 1 });
      expect(e.isRetryable).toBe(retryable);
      expect(typeof e.isRetryable).toBe("boolean");
      expect(e.name).toBe(ErrorClass.brand);
    },
  );

  it("binds a second positional argument to nothing but options (no LSP trap)", () => {
    const v = new NovaOSValidationError("m", { field: "x", reason: "bad", retryAfter: 2 });
    expect([v.field, v.reason, v.retryAfter]).toEqual(["x", "bad", 2]);
  });

  it("retries server errors only on the transient statuses", () => {
    expect(new NovaOSServerError("m", { statusCode: 503 }).isRetryable).toBe(true);
    expect(new NovaOSServerError("m", { statusCode: 500 }).isRetryable).toBe(false);
    expect(new NovaOSServerError("m", { statusCode: 404 }).isRetryable).toBe(false);
  });

  it("keeps the DNS not-found apart from the agent not-found", () => {
    expect(new NovaOSDNSAgentNotFoundError("m", { agentName: "a" })).not.toBeInstanceOf(NovaOSAgentNotFoundError);
    expect(new NovaOSDNSAgentNotFoundError("m", { agentName: "a" }).agentName).toBe("a");
  });

  it("sees the JSON-RPC standard errors as validation / server errors, never as A2A errors", () => {
    for (const E of [a2a.JSONParseError, a2a.InvalidRequestError, a2a.MethodNotFoundError, a2a.InvalidParamsError]) {
      const e = new E();
      expect(e).toBeInstanceOf(NovaOSValidationError);
      expect(e).toBeInstanceOf(NovaOSError);
      expect(e).not.toBeInstanceOf(a2a.A2AProtocolError);
      expect(e).not.toBeInstanceOf(NovaOSServerError);
    }
    expect(new a2a.InternalError()).toBeInstanceOf(NovaOSServerError);
    expect(new a2a.InternalError()).not.toBeInstanceOf(NovaOSValidationError);
  });

  it("does not let the A2A view leak into unrelated branches", () => {
    expect(new a2a.TaskNotFoundError()).not.toBeInstanceOf(NovaOSValidationError);
    expect(new NovaOSValidationError()).not.toBeInstanceOf(a2a.A2AError);
    expect(new SealedEnvelopeFormatError()).not.toBeInstanceOf(a2a.A2AProtocolError);
  });

  it("gives each A2A class its own code and the open base none of the nine", () => {
    const nine = HIERARCHY.filter(([, parent]) => parent === a2a.A2AProtocolError);
    expect(nine.map(([c]) => new (c as typeof a2a.A2AProtocolError)("m").code)).toEqual([
      -32001, -32002, -32003, -32004, -32005, -32006, -32007, -32008, -32009,
    ]);
    // Decision E1: an A2AProtocolError built without a code goes on the wire as the generic -32603.
    expect(new a2a.A2AProtocolError("m").code).toBe(-32603);
    expect(new a2a.A2AProtocolError("m", { code: -32077 }).code).toBe(-32077);
  });

  it("takes taskId as an option on the A2A classes", () => {
    const e = new a2a.TaskNotFoundError("gone", { taskId: "t-1", metadata: { other: "x" } });
    expect([e.taskId, e.metadata]).toEqual(["t-1", { other: "x", taskId: "t-1" }]);
  });

  it("gives MissingExecutionTokenError its default message", () => {
    expect(new MissingExecutionTokenError().message).toContain("NOVAOS_EXECUTION_TOKEN");
    expect(new MissingExecutionTokenError(undefined, { details: { a: 1 } }).details).toEqual({ a: 1 });
  });
});
