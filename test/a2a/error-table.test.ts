import { describe, expect, it, vi } from "vitest";
import { A2A_ERRORS, errorSpecByCode, errorSpecByReason, GRPC_STATUS_CODES } from "../../src/a2a/error-table.js";
import * as errors from "../../src/a2a/errors.js";

// Transcribed from spec v1.0.1 §5.4 (A2A errors) and §9.5 (JSON-RPC standard errors).
const SPEC_5_4 = [
  ["TaskNotFoundError", -32001, "NOT_FOUND", 404],
  ["TaskNotCancelableError", -32002, "FAILED_PRECONDITION", 400],
  ["PushNotificationNotSupportedError", -32003, "FAILED_PRECONDITION", 400],
  ["UnsupportedOperationError", -32004, "FAILED_PRECONDITION", 400],
  ["ContentTypeNotSupportedError", -32005, "INVALID_ARGUMENT", 400],
  ["InvalidAgentResponseError", -32006, "INTERNAL", 500],
  ["ExtendedAgentCardNotConfiguredError", -32007, "FAILED_PRECONDITION", 400],
  ["ExtensionSupportRequiredError", -32008, "FAILED_PRECONDITION", 400],
  ["VersionNotSupportedError", -32009, "FAILED_PRECONDITION", 400],
] as const;

const SPEC_9_5 = [
  ["JSONParseError", -32700, "Invalid JSON payload"],
  ["InvalidRequestError", -32600, "Request payload validation error"],
  ["MethodNotFoundError", -32601, "Method not found"],
  ["InvalidParamsError", -32602, "Invalid parameters"],
  ["InternalError", -32603, "Internal error"],
] as const;

const upperSnakeWithoutError = (type: string) =>
  type
    .replace(/Error$/, "")
    .replace(/^JSON/, "Json")
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toUpperCase();

describe("error table", () => {
  it("has exactly the nine A2A errors of §5.4 with their codes, gRPC and HTTP statuses", () => {
    const a2a = Object.values(A2A_ERRORS).filter((s) => s.family === "a2a");
    expect(a2a.map((s) => [s.type, s.jsonRpcCode, s.grpcStatus, s.httpStatus])).toEqual(SPEC_5_4);
  });

  it("has exactly the five JSON-RPC standard errors of §9.5 with their standard messages", () => {
    const std = Object.values(A2A_ERRORS).filter((s) => s.family === "jsonrpc");
    expect(std.map((s) => [s.type, s.jsonRpcCode, s.message])).toEqual(SPEC_9_5);
  });

  it("derives every ErrorInfo reason by the §10.6 rule (UPPER_SNAKE_CASE, no Error suffix)", () => {
    for (const spec of Object.values(A2A_ERRORS)) expect(spec.reason).toBe(upperSnakeWithoutError(spec.type));
    expect(A2A_ERRORS.TaskNotFoundError.reason).toBe("TASK_NOT_FOUND");
    expect(A2A_ERRORS.TaskNotCancelableError.reason).toBe("TASK_NOT_CANCELABLE");
  });

  it("maps the standard errors as the peers do: 400/INVALID_ARGUMENT, 404/NOT_FOUND, 500/INTERNAL", () => {
    expect(
      [-32700, -32600, -32601, -32602, -32603].map((c) => [
        errorSpecByCode(c)?.httpStatus,
        errorSpecByCode(c)?.grpcStatus,
      ]),
    ).toEqual([
      [400, "INVALID_ARGUMENT"],
      [400, "INVALID_ARGUMENT"],
      [404, "NOT_FOUND"],
      [400, "INVALID_ARGUMENT"],
      [500, "INTERNAL"],
    ]);
  });

  it("looks rows up by code and by reason, and knows nothing else", () => {
    for (const spec of Object.values(A2A_ERRORS)) {
      expect(errorSpecByCode(spec.jsonRpcCode)).toBe(spec);
      expect(errorSpecByReason(spec.reason)).toBe(spec);
    }
    expect(errorSpecByCode(-32010)).toBeUndefined();
    expect(errorSpecByReason("NOPE")).toBeUndefined();
    expect(GRPC_STATUS_CODES.FAILED_PRECONDITION).toBe(9);
  });
});

describe("error classes", () => {
  it("exist for every row, named after it, carrying its code and standard message", () => {
    for (const spec of Object.values(A2A_ERRORS)) {
      const ErrorClass = errors.A2A_ERROR_CLASSES[spec.type as keyof typeof A2A_ERRORS];
      const e = new ErrorClass();
      expect(e.name).toBe(spec.type);
      expect(e.code).toBe(spec.jsonRpcCode);
      expect(e.message).toBe(spec.message);
      expect(e.spec).toBe(spec);
      expect(e).toBeInstanceOf(Error);
      expect(e).toBeInstanceOf(errors.A2AError);
      expect(e).toBeInstanceOf(spec.family === "jsonrpc" ? errors.JsonRpcError : errors.A2AProtocolError);
      expect(e).not.toBeInstanceOf(spec.family === "jsonrpc" ? errors.A2AProtocolError : errors.JsonRpcError);
    }
  });

  it("keep unknown codes instead of collapsing them", () => {
    const a2a = errors.a2aErrorFromCode(-32042, "from a newer spec");
    expect(a2a).toBeInstanceOf(errors.A2AProtocolError);
    expect(a2a.code).toBe(-32042);
    expect(a2a.spec).toBeUndefined();
    const reserved = errors.a2aErrorFromCode(-32650);
    expect(reserved).toBeInstanceOf(errors.A2AProtocolError);
    expect(reserved).not.toBeInstanceOf(errors.JsonRpcError);
    expect(reserved.code).toBe(-32650);
    expect(errors.a2aErrorFromCode(-32001)).toBeInstanceOf(errors.TaskNotFoundError);
  });

  it("survive instanceof across two copies of the module (two bundles in one process)", async () => {
    vi.resetModules();
    const second = "../../src/a2a/errors.js?copy";
    const copy = (await import(/* @vite-ignore */ second)) as typeof errors;
    expect(copy.TaskNotFoundError).not.toBe(errors.TaskNotFoundError);
    const foreign = new copy.TaskNotFoundError("t");
    expect(foreign).toBeInstanceOf(errors.TaskNotFoundError);
    expect(foreign).toBeInstanceOf(errors.A2AProtocolError);
    expect(foreign).not.toBeInstanceOf(errors.TaskNotCancelableError);
    expect(new errors.InternalError()).toBeInstanceOf(copy.JsonRpcError);
  });

  it("let user subclasses use ordinary instanceof", () => {
    class MyError extends errors.TaskNotFoundError {}
    expect(new MyError()).toBeInstanceOf(MyError);
    expect(new errors.TaskNotFoundError()).not.toBeInstanceOf(MyError);
    expect(new MyError()).toBeInstanceOf(errors.TaskNotFoundError);
  });

  it("do not treat plain objects or other errors as A2A errors", () => {
    expect(new Error("x")).not.toBeInstanceOf(errors.A2AError);
    expect({ code: -32001 }).not.toBeInstanceOf(errors.TaskNotFoundError);
    expect(null).not.toBeInstanceOf(errors.A2AError);
  });
});
