/** Counting the values of a request (JSON text, or binary protobuf) before parsing it, and refusing past the limit. */
import { create, type DescMessage, fromBinary, toBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SendMessageRequestSchema } from "../../gen/a2a_pb.js";
import { a2aBindingList } from "../../src/a2a/bindings.js";
import { InvalidParamsError, JSONParseError } from "../../src/a2a/errors.js";
import { decodeJsonRpcRequest } from "../../src/a2a/jsonrpc.js";
import { encodeMessage } from "../../src/a2a/protojson.js";
import {
  countBinaryValues,
  countJsonTextValues,
  countJsonValues,
  MAX_REQUEST_VALUES,
  parseRequestJson,
} from "../../src/a2a/request-limits.js";
import { RandomMessages } from "./support/random-messages.js";

const bytes = (text: string) => new TextEncoder().encode(text);

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n & 0x7f) | 0x80);
  return [...out, n];
}

const tag = (field: number, wireType: number) => varint(field * 8 + wireType);

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

  it("never counts more than one value plus one per byte (why a body shorter than the limit is not counted)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = bytes(JSON.stringify(value, null, pretty ? 2 : undefined));
        expect(countJsonTextValues(text)).toBeLessThanOrEqual(text.byteLength + 1);
      }),
      { numRuns: 500 },
    );
    // The densest text there is: every byte but the last opens a value.
    const dense = bytes(`${"[".repeat(50)}${"]".repeat(50)}`);
    expect(countJsonTextValues(dense)).toBe(50);
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

  it("refuses at the limit exactly, for bodies of the limit's length in bytes and just over it", () => {
    // `[0,0,…]` of n zeros holds n + 1 values in 2n + 1 bytes; `[[…]]` of n brackets holds n values in 2n bytes.
    expect(() => parseRequestJson(bytes("[0,0]"), 2)).toThrow(InvalidParamsError);
    expect(parseRequestJson(bytes("[0]"), 2)).toEqual([0]);
    expect(parseRequestJson(bytes("[[]]"), 2)).toEqual([[]]);
    expect(() => parseRequestJson(bytes("[[[]]]"), 2)).toThrow(InvalidParamsError);
    expect(parseRequestJson(bytes("[[[]]]"), 6)).toEqual([[[]]]);
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

describe("countBinaryValues", () => {
  const requestSchemas = a2aBindingList.map((b) => b.input as DescMessage);

  it("never counts more than the JSON form of the same message holds", () => {
    const random = new RandomMessages(2250);
    for (const schema of requestSchemas) {
      for (let i = 0; i < 200; i++) {
        const message = random.message(schema);
        const binary = countBinaryValues(schema, toBinary(schema, message));
        expect(binary).toBeLessThanOrEqual(countJsonValues(encodeMessage(schema, message)));
      }
    }
  });

  it("counts a field one, a map entry two, and nothing inside a Value", () => {
    const request = create(SendMessageRequestSchema, {
      message: { messageId: "m", metadata: { a: 1, b: { c: [true, "x"] } } },
    });
    // message, messageId, metadata: 1 each; entries a, b, c: 2 each; the list's two items: 1 each. Its JSON holds 15.
    expect(countBinaryValues(SendMessageRequestSchema, toBinary(SendMessageRequestSchema, request))).toBe(11);
  });

  it("is not fooled by an unknown group, nor by a length written as a ten-byte varint", () => {
    // An unknown group (field 99: its start, one varint field, its end: three tags), then 1,000 unknown varint fields.
    const group = [...tag(99, 3), ...tag(1, 0), 1, ...tag(99, 4)];
    const fields = Array.from({ length: 1000 }, () => [...tag(98, 0), 1]).flat();
    const grouped = new Uint8Array([...group, ...fields]);
    expect(() => fromBinary(SendMessageRequestSchema, grouped)).not.toThrow();
    expect(countBinaryValues(SendMessageRequestSchema, grouped)).toBe(1003);
    // `message` (field 2) with its length padded to ten bytes, holding 600 unknown fields.
    const inner = Array.from({ length: 600 }, () => [...tag(97, 0), 1]).flat();
    const length = varint(inner.length);
    const last = (length.pop() as number) | 0x80;
    const padded = [...length, last, ...Array(8 - length.length).fill(0x80), 0];
    expect(padded).toHaveLength(10);
    const bytes = new Uint8Array([...tag(2, 2), ...padded, ...inner]);
    expect(fromBinary(SendMessageRequestSchema, bytes).message).toBeDefined();
    expect(countBinaryValues(SendMessageRequestSchema, bytes)).toBe(601);
  });

  it("stops counting past stopAt", () => {
    const bytes = new Uint8Array(Array.from({ length: 1000 }, () => [...tag(97, 0), 1]).flat());
    expect(countBinaryValues(SendMessageRequestSchema, bytes, 10)).toBe(11);
  });
});
