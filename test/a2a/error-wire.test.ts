import { describe, expect, it } from "vitest";
import { A2A_ERRORS, type A2AErrorType } from "../../src/a2a/error-table.js";
import {
  BAD_REQUEST_TYPE,
  ERROR_INFO_TYPE,
  fromHttpError,
  fromJsonRpcErrorObject,
  grpcStatusOf,
  toHttpErrorBody,
  toJsonRpcErrorObject,
} from "../../src/a2a/error-wire.js";
import { A2A_ERROR_CLASSES, A2AProtocolError, InternalError, TaskNotFoundError } from "../../src/a2a/errors.js";

const types = Object.keys(A2A_ERRORS) as A2AErrorType[];

describe("JSON-RPC error objects", () => {
  it.each(types)("%s survives a round trip with its ErrorInfo metadata", (type) => {
    const original = new A2A_ERROR_CLASSES[type]("specific message", { metadata: { taskId: "t-1" } });
    const wire = JSON.parse(JSON.stringify(toJsonRpcErrorObject(original)));
    expect(wire.code).toBe(A2A_ERRORS[type].jsonRpcCode);
    expect(wire.data[0]).toEqual({
      "@type": ERROR_INFO_TYPE,
      reason: A2A_ERRORS[type].reason,
      domain: "a2a-protocol.org",
      metadata: { taskId: "t-1" },
    });
    const back = fromJsonRpcErrorObject(wire);
    expect(back).toBeInstanceOf(A2A_ERROR_CLASSES[type]);
    expect(back.message).toBe("specific message");
    expect(back.metadata).toEqual({ taskId: "t-1" });
  });

  it("answers an unexpected exception as -32603 without leaking its message", () => {
    const wire = toJsonRpcErrorObject(new Error("password=hunter2 at db.ts:12"));
    expect(wire.code).toBe(-32603);
    expect(wire.message).toBe("Internal error");
    expect(JSON.stringify(wire)).not.toContain("hunter2");
  });

  it("keeps an unknown code, its message and its raw data", () => {
    const e = fromJsonRpcErrorObject({ code: -32077, message: "new in 1.1", data: { anything: true } });
    expect(e).toBeInstanceOf(A2AProtocolError);
    expect(e.code).toBe(-32077);
    expect(e.message).toBe("new in 1.1");
    expect(e.details).toEqual({ data: { anything: true } });
  });

  it("keeps details other than the ErrorInfo", () => {
    const badRequest = { "@type": BAD_REQUEST_TYPE, fieldViolations: [{ field: "message.parts", description: "x" }] };
    const e = fromJsonRpcErrorObject({ code: -32602, message: "Invalid parameters", data: [badRequest] });
    expect(e.errorDetails).toEqual([badRequest]);
  });

  it("tolerates garbage in the error member", () => {
    expect(fromJsonRpcErrorObject("boom").code).toBe(-32603);
    expect(fromJsonRpcErrorObject({ code: 1.5 }).code).toBe(-32603);
  });
});

describe("HTTP+JSON google.rpc.Status bodies", () => {
  it.each(types)("%s maps to its HTTP status and back through the ErrorInfo reason", (type) => {
    const { status, body } = toHttpErrorBody(new A2A_ERROR_CLASSES[type](undefined, { metadata: { taskId: "t" } }));
    expect(status).toBe(A2A_ERRORS[type].httpStatus);
    expect(body.error.code).toBe(status);
    expect(body.error.status).toBe(A2A_ERRORS[type].grpcStatus);
    expect(body.error.details[0]?.reason).toBe(A2A_ERRORS[type].reason);
    const back = fromHttpError(status, JSON.parse(JSON.stringify(body)));
    expect(back).toBeInstanceOf(A2A_ERROR_CLASSES[type]);
    expect(back.metadata).toEqual({ taskId: "t" });
  });

  it("falls back to the status when there is no A2A ErrorInfo", () => {
    expect(fromHttpError(404, {})).toBeInstanceOf(TaskNotFoundError);
    expect(fromHttpError(503, "not json")).toBeInstanceOf(InternalError);
    expect(fromHttpError(400, { error: { message: "nope" } }).code).toBe(-32600);
    expect(fromHttpError(400, { error: { message: "nope" } }).message).toBe("nope");
  });

  it("gives gRPC numeric codes from the table", () => {
    expect(grpcStatusOf(new TaskNotFoundError())).toBe(5);
    expect(grpcStatusOf(new A2A_ERROR_CLASSES.VersionNotSupportedError())).toBe(9);
    expect(grpcStatusOf(new A2A_ERROR_CLASSES.InvalidAgentResponseError())).toBe(13);
  });
});
