/** Counting the JSON values of a request before parsing it, and refusing past the limit. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidParamsError, JSONParseError } from "../../src/a2a/errors.js";
import { decodeJsonRpcRequest } from "../../src/a2a/jsonrpc.js";
import {
  countJsonTextValues,
  countJsonValues,
  MAX_REQUEST_VALUES,
  parseRequestJson,
} from "../../src/a2a/request-limits.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("countJsonTextValues", () => {
  it("counts every value and member name of a JSON text, as a walk of the parsed value does", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(countJsonTextValues(bytes(text))).toBe(countJsonValues(value));
      }),
      { numRuns: 500 },
    );
  });

  it("ignores structure inside strings, escaped quotes included", () => {
    expect(countJsonTextValues(bytes(String.raw`["a,b:{[", "c\"d,", "e\\", 1]`))).toBe(5);
    expect(countJsonTextValues(bytes(`{ "a" : [ ] , "b" : { } }`))).toBe(5);
  });

  it("stops counting past stopAt", () => {
    expect(countJsonTextValues(bytes(`[${"0,".repeat(1000)}0]`), 10)).toBe(11);
  });
});

describe("parseRequestJson", () => {
  it("refuses a body over the limit with -32602 naming it, before parsing", () => {
    // Not even valid JSON at the end: the count refuses it first.
    const body = bytes(`[${"0,".repeat(MAX_REQUEST_VALUES)}`);
    expect(() => parseRequestJson(body)).toThrow(InvalidParamsError);
    expect(() => parseRequestJson(body)).toThrow(/MAX_REQUEST_VALUES/);
    expect(parseRequestJson(bytes("[1,2]"), 3)).toEqual([1, 2]);
    expect(() => parseRequestJson(bytes("[1,2,3]"), 3)).toThrow(InvalidParamsError);
  });

  it("answers -32700 for text that is not UTF-8 JSON", () => {
    expect(() => parseRequestJson(bytes("{"))).toThrow(JSONParseError);
    expect(() => parseRequestJson(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(JSONParseError);
  });

  it("is what a JSON-RPC body goes through: too many values is -32602 with id null", () => {
    const params = {
      metadata: Object.fromEntries(Array.from({ length: MAX_REQUEST_VALUES / 2 }, (_, i) => [`k${i}`, i])),
    };
    const result = decodeJsonRpcRequest(bytes(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params })));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.id).toBeNull();
    expect(result.error).toBeInstanceOf(InvalidParamsError);
    const small = decodeJsonRpcRequest(bytes('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}'), {
      maxValues: 5,
    });
    expect(small.ok).toBe(false);
  });
});
