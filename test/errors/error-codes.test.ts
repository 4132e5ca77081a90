/**
 * Every wire code through the mapping functions, and the NovaOS view of each
 * resulting error: the A2A codes are their A2A classes, the JSON-RPC standard
 * codes validation / server errors, the two refusals of a caller's
 * credentials authentication errors, unknown codes kept on A2AProtocolError.
 */
import { describe, expect, it } from "vitest";
import { A2A_ERRORS } from "../../src/a2a/error-table.js";
import { toJsonRpcErrorObject } from "../../src/a2a/error-wire.js";
import * as a2a from "../../src/a2a/errors.js";
import {
  A2A_ERROR_SPEC_VERSION,
  A2A_ERROR_TYPES,
  a2aErrorForCode,
  a2aErrorFromJsonRpc,
  errorFromJsonRpc,
  JSONRPC_CODE_DETAIL_KEY,
  jsonRpcErrorCode,
  NovaOSAuthenticationError,
  NovaOSError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/index.js";

const ROWS = Object.values(A2A_ERRORS);

describe("every code in the error table", () => {
  it.each(ROWS.map((s) => [s.jsonRpcCode, s.type, s.family] as const))(
    "errorFromJsonRpc(%i) is %s with code, message, data and the right NovaOS view",
    (code, type, family) => {
      const e = errorFromJsonRpc({ code, message: "peer says", data: [{ "@type": "x", v: 1 }] }, { taskId: "t-1" });
      expect(e.name).toBe(type);
      expect(e).toBeInstanceOf(a2a.A2A_ERROR_CLASSES[type as keyof typeof a2a.A2A_ERROR_CLASSES]);
      expect(e).toBeInstanceOf(NovaOSError);
      expect(e).toBeInstanceOf(Error);
      expect([e.code, jsonRpcErrorCode(e), e.message, e.taskId]).toEqual([code, code, "peer says", "t-1"]);
      expect(e.details).toEqual({ data: [{ "@type": "x", v: 1 }] });
      expect(e.isRetryable).toBe(false);
      if (family === "a2a") {
        expect(e).toBeInstanceOf(a2a.A2AProtocolError);
        expect(e).not.toBeInstanceOf(NovaOSValidationError);
        expect(e).not.toBeInstanceOf(NovaOSServerError);
        expect(A2A_ERROR_TYPES.get(code)).toBe(e.constructor);
      } else if (family === "auth") {
        expect(e).toBeInstanceOf(a2a.A2AProtocolError);
        expect(e).toBeInstanceOf(NovaOSAuthenticationError);
        expect(e).not.toBeInstanceOf(NovaOSValidationError);
        expect(A2A_ERROR_TYPES.has(code)).toBe(false);
      } else {
        expect(e).not.toBeInstanceOf(a2a.A2AProtocolError);
        expect(e).toBeInstanceOf(code === -32603 ? NovaOSServerError : NovaOSValidationError);
        expect(A2A_ERROR_TYPES.has(code)).toBe(false);
      }
    },
  );

  it("A2A_ERROR_TYPES holds exactly the nine A2A codes, -32001…-32009", () => {
    expect([...A2A_ERROR_TYPES.keys()]).toEqual([
      -32001, -32002, -32003, -32004, -32005, -32006, -32007, -32008, -32009,
    ]);
    for (const [code, ErrorClass] of A2A_ERROR_TYPES) {
      expect(a2aErrorForCode(code)).toBe(ErrorClass);
      expect(new ErrorClass("m").code).toBe(code);
    }
  });

  it.each([-32000, -32010, -32050, -32099, -32100, -32650, -32768, -1, 0, 1, 404])(
    "keeps the unknown code %i on an A2AProtocolError",
    (code) => {
      for (const read of [errorFromJsonRpc, a2aErrorFromJsonRpc]) {
        const e = read({ code, message: "newer" });
        expect(e.constructor).toBe(a2a.A2AProtocolError);
        expect(jsonRpcErrorCode(e)).toBe(code);
      }
      expect(a2aErrorForCode(code)).toBe(a2a.A2AProtocolError);
    },
  );

  it("always keeps error.data at details.data, whatever its JSON type", () => {
    for (const data of [[1, 2], "str", 3, null, { k: true }]) {
      expect(a2aErrorFromJsonRpc({ code: -32050, message: "m", data }).details).toEqual({ data });
    }
    expect(a2aErrorFromJsonRpc({ code: -32050, message: "m" }).details).toEqual({ data: undefined });
  });

  it("a2aErrorFromJsonRpc keeps a standard code on the A2A subtree (its contract), errorFromJsonRpc does not", () => {
    const viaA2A = a2aErrorFromJsonRpc({ code: -32601, message: "Method not found" });
    expect(viaA2A).toBeInstanceOf(a2a.A2AProtocolError);
    expect(viaA2A.code).toBe(-32601);
    const viaAny = errorFromJsonRpc({ code: -32601, message: "Method not found" });
    expect(viaAny).toBeInstanceOf(NovaOSValidationError);
    expect(viaAny).not.toBeInstanceOf(a2a.A2AProtocolError);
  });

  it("prefers the task the reply names over the caller's", () => {
    const e = errorFromJsonRpc(toJsonRpcErrorObject(new a2a.TaskNotFoundError("gone", { taskId: "from-reply" })), {
      taskId: "from-caller",
    });
    expect(e.taskId).toBe("from-reply");
  });

  it("reads garbage as an internal error instead of throwing", () => {
    for (const junk of [undefined, null, "x", 5, [], { code: "1" }, { code: 1.5 }]) {
      const e = errorFromJsonRpc(junk);
      expect(e).toBeInstanceOf(NovaOSServerError);
      expect(e.code).toBe(-32603);
    }
  });

  it("survives the wire both ways for every code", () => {
    for (const spec of ROWS) {
      const original = a2a.a2aErrorFromCode(spec.jsonRpcCode, "m", { taskId: "t" });
      const back = errorFromJsonRpc(JSON.parse(JSON.stringify(toJsonRpcErrorObject(original))));
      expect([back.name, back.code, back.message, back.taskId]).toEqual([spec.type, spec.jsonRpcCode, "m", "t"]);
    }
  });
});

describe("constants", () => {
  it("pins the constants", () => {
    expect(JSONRPC_CODE_DETAIL_KEY).toBe("jsonRpcCode");
    expect(A2A_ERROR_SPEC_VERSION).toBe("1.0.1");
  });
});
