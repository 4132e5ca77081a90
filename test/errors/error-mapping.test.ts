import { describe, expect, it } from "vitest";
import { A2A_ERRORS } from "../../src/a2a/error-table.js";
import * as a2a from "../../src/a2a/errors.js";
import {
  a2aErrorForCode,
  a2aErrorFromJsonRpc,
  errorFromJsonRpc,
  JSONRPC_CODE_DETAIL_KEY,
  jsonRpcErrorCode,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/index.js";

const A2A_CODES = Object.values(A2A_ERRORS).filter((s) => s.family === "a2a");

describe("error mapping functions", () => {
  it.each(A2A_CODES.map((s) => [s.jsonRpcCode, s.type] as const))("a2aErrorForCode(%i) is %s", (code, type) => {
    expect(a2aErrorForCode(code).brand).toBe(type);
  });

  it("falls back to A2AProtocolError for unknown and standard codes", () => {
    expect(a2aErrorForCode(-32050)).toBe(a2a.A2AProtocolError);
    expect(a2aErrorForCode(-32601)).toBe(a2a.A2AProtocolError);
  });

  it.each(A2A_CODES.map((s) => [s.jsonRpcCode] as const))(
    "a2aErrorFromJsonRpc keeps code %i, message, data and task id",
    (code) => {
      const e = a2aErrorFromJsonRpc({ code, message: "msg", data: { raw: true } }, { taskId: "t-9" });
      expect(e).toBeInstanceOf(a2a.A2AProtocolError);
      expect(e.code).toBe(code);
      expect(e.message).toBe("msg");
      expect(e.details).toEqual({ data: { raw: true } });
      expect(e.taskId).toBe("t-9");
    },
  );

  it("a2aErrorFromJsonRpc records an unknown code on the base class", () => {
    const e = a2aErrorFromJsonRpc({ code: -32099, message: "future" });
    expect(e.constructor).toBe(a2a.A2AProtocolError);
    expect(e.code).toBe(-32099);
  });

  it("errorFromJsonRpc sends the standard codes to validation / server errors", () => {
    for (const code of [-32700, -32600, -32601, -32602]) {
      const e = errorFromJsonRpc({ code, message: "x" });
      expect(e).toBeInstanceOf(NovaOSValidationError);
      expect(e).not.toBeInstanceOf(a2a.A2AProtocolError);
    }
    expect(errorFromJsonRpc({ code: -32603, message: "x" })).toBeInstanceOf(NovaOSServerError);
    expect(errorFromJsonRpc({ code: -32001, message: "x" })).toBeInstanceOf(a2a.TaskNotFoundError);
    expect(errorFromJsonRpc({ code: -32042, message: "x" })).toBeInstanceOf(a2a.A2AProtocolError);
  });

  it("jsonRpcErrorCode reads either branch", () => {
    expect(jsonRpcErrorCode(new a2a.TaskNotCancelableError())).toBe(-32002);
    expect(jsonRpcErrorCode(errorFromJsonRpc({ code: -32601, message: "m" }))).toBe(-32601);
    expect(jsonRpcErrorCode(new NovaOSValidationError("m", { details: { [JSONRPC_CODE_DETAIL_KEY]: -32600 } }))).toBe(
      -32600,
    );
    expect(jsonRpcErrorCode(new Error("plain"))).toBeUndefined();
  });
});
