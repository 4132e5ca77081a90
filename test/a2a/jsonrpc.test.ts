import { describe, expect, it } from "vitest";
import { BAD_REQUEST_TYPE } from "../../src/a2a/error-wire.js";
import {
  InvalidAgentResponseError,
  InvalidParamsError,
  InvalidRequestError,
  JSONParseError,
  MethodNotFoundError,
  TaskNotFoundError,
} from "../../src/a2a/errors.js";
import {
  DEFAULT_MAX_BODY_BYTES,
  decodeJsonRpcRequest,
  encodeJsonRpcError,
  encodeJsonRpcResult,
  encodeJsonRpcResultText,
  type JsonRpcDecodeResult,
  parseJsonRpcResponse,
} from "../../src/a2a/jsonrpc.js";
import { decodeMessage } from "../../src/a2a/protojson.js";

const body = (value: unknown) => JSON.stringify(value);
const failure = (r: JsonRpcDecodeResult) => {
  if (r.ok) throw new Error("expected a failure");
  return r;
};

describe("decodeJsonRpcRequest", () => {
  it("decodes a request and finds its binding", () => {
    const r = decodeJsonRpcRequest(body({ jsonrpc: "2.0", id: 7, method: "GetTask", params: { id: "t" } }));
    expect(r.ok && r.request.binding.name).toBe("GetTask");
    expect(r.ok && r.request.id).toBe(7);
  });

  it("accepts bytes as well as strings", () => {
    const bytes = new TextEncoder().encode(body({ jsonrpc: "2.0", id: "a", method: "ListTasks" }));
    const r = decodeJsonRpcRequest(bytes);
    expect(r.ok && r.request.params).toEqual({});
  });

  it("answers a body that is not JSON with -32700 and id null", () => {
    const r = failure(decodeJsonRpcRequest('{"jsonrpc":"2.0","id":1,'));
    expect(r.error).toBeInstanceOf(JSONParseError);
    expect(r.id).toBeNull();
  });

  it("answers invalid UTF-8 with -32700", () => {
    expect(failure(decodeJsonRpcRequest(new Uint8Array([0x7b, 0xff, 0x7d]))).error).toBeInstanceOf(JSONParseError);
  });

  it("refuses a body over the cap with -32700 before parsing it", () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"${"x".repeat(100)}"}}`;
    const r = failure(decodeJsonRpcRequest(big, { maxBodyBytes: 64 }));
    expect(r.error).toBeInstanceOf(JSONParseError);
    expect(r.id).toBeNull();
    // Not parsed: an invalid body over the cap gets the size error, not a syntax error.
    expect(failure(decodeJsonRpcRequest(`{${"x".repeat(100)}`, { maxBodyBytes: 64 })).error.message).toContain(
      "64 bytes",
    );
    // The cap counts UTF-8 bytes, not UTF-16 units.
    const multibyte = body({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "é".repeat(30) } });
    expect(multibyte.length).toBeLessThan(100);
    expect(decodeJsonRpcRequest(multibyte, { maxBodyBytes: 100 }).ok).toBe(false);
    expect(DEFAULT_MAX_BODY_BYTES).toBe(10 * 1024 * 1024);
  });

  it("refuses a batch array with -32600", () => {
    const r = failure(decodeJsonRpcRequest(body([{ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t" } }])));
    expect(r.error).toBeInstanceOf(InvalidRequestError);
    expect(r.id).toBeNull();
  });

  it.each([["a string"], [42], [null], [true]])("refuses the non-object %j with -32600", (value) => {
    expect(failure(decodeJsonRpcRequest(body(value))).error).toBeInstanceOf(InvalidRequestError);
  });

  it("echoes the id exactly, even when the request is otherwise invalid", () => {
    expect(failure(decodeJsonRpcRequest(body({ jsonrpc: "1.0", id: 12, method: "GetTask" }))).id).toBe(12);
    expect(failure(decodeJsonRpcRequest(body({ jsonrpc: "2.0", id: "12", method: 5 }))).id).toBe("12");
    expect(failure(decodeJsonRpcRequest(body({ jsonrpc: "2.0", id: null, method: "nope" }))).id).toBeNull();
  });

  it("refuses ids that are neither string, number nor null, and missing ids", () => {
    for (const id of [{}, [1], true, undefined]) {
      const r = failure(decodeJsonRpcRequest(body({ jsonrpc: "2.0", id, method: "GetTask" })));
      expect(r.error).toBeInstanceOf(InvalidRequestError);
      expect(r.id).toBeNull();
    }
  });

  it.each([["message/send"], ["tasks/get"], ["sendMessage"], ["Nope"]])(
    "answers the unknown method %s with -32601",
    (method) => {
      const r = failure(decodeJsonRpcRequest(body({ jsonrpc: "2.0", id: 3, method, params: {} })));
      expect(r.error).toBeInstanceOf(MethodNotFoundError);
      expect(r.error.code).toBe(-32601);
      expect(r.id).toBe(3);
    },
  );

  it("answers array params with -32602", () => {
    const r = failure(decodeJsonRpcRequest(body({ jsonrpc: "2.0", id: 3, method: "GetTask", params: ["t"] })));
    expect(r.error).toBeInstanceOf(InvalidParamsError);
  });

  it("turns params that do not decode into -32602 with BadRequest field violations", () => {
    const r = decodeJsonRpcRequest(
      body({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { parts: 5 } } }),
    );
    if (!r.ok) throw new Error("envelope is valid");
    let error: unknown;
    try {
      decodeMessage(r.request.binding.input, r.request.params);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidParamsError);
    const detail = (error as InvalidParamsError).errorDetails[0];
    expect(detail?.["@type"]).toBe(BAD_REQUEST_TYPE);
    expect(detail?.fieldViolations).toEqual([
      { field: "message.parts", description: expect.stringContaining("Array") },
    ]);
  });
});

describe("response envelopes", () => {
  it("encodes results and errors, keeping numeric ids numeric", () => {
    expect(JSON.parse(encodeJsonRpcResult(5, { a: 1 }))).toEqual({ jsonrpc: "2.0", id: 5, result: { a: 1 } });
    const err = JSON.parse(encodeJsonRpcError("x", new TaskNotFoundError(undefined, { metadata: { taskId: "t" } })));
    expect(err).toMatchObject({ jsonrpc: "2.0", id: "x", error: { code: -32001, message: "Task not found" } });
    expect(err.error.data[0].metadata).toEqual({ taskId: "t" });
  });

  it("writes every id of a result envelope as JSON.stringify writes it", () => {
    const ids = [0, -0, 7, -3, 1.5, 1e21, 1e-7, Number.MAX_SAFE_INTEGER + 2, Number.POSITIVE_INFINITY, 'a"b', "", null];
    for (const id of ids) {
      expect(encodeJsonRpcResultText(id, "{}")).toBe(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{}}`);
    }
  });

  it("reads the error member first, since result: null is legal", () => {
    const r = parseJsonRpcResponse({ jsonrpc: "2.0", id: 1, result: null, error: { code: -32001, message: "gone" } });
    expect(!r.ok && r.error).toBeInstanceOf(TaskNotFoundError);
    const ok = parseJsonRpcResponse({ jsonrpc: "2.0", id: 1, result: null });
    expect(ok).toEqual({ ok: true, id: 1, result: null });
  });

  it("tolerates a bare result from a hand-rolled peer", () => {
    expect(parseJsonRpcResponse({ task: { id: "t" } })).toEqual({
      ok: true,
      id: undefined,
      result: { task: { id: "t" } },
    });
  });

  it("refuses a body that is not an object, or an envelope with neither member", () => {
    expect(() => parseJsonRpcResponse("oops")).toThrow(InvalidAgentResponseError);
    expect(() => parseJsonRpcResponse([1])).toThrow(InvalidAgentResponseError);
    expect(() => parseJsonRpcResponse({ jsonrpc: "2.0", id: 1 })).toThrow(InvalidAgentResponseError);
  });
});
