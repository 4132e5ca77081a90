/**
 * Numbers JSON cannot carry (NaN, ±Infinity; `1e400` parses to Infinity) and
 * the request value limit, on the generated and the reflective paths alike:
 * refused when read (with the path of the number), written as `null`.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { Value } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { a2aJsonCodecs } from "../../gen/a2a_json.js";
import { PartSchema, SendMessageRequestSchema, TaskSchema } from "../../gen/a2a_pb.js";
import { BAD_REQUEST_TYPE } from "../../src/a2a/error-wire.js";
import { InvalidParamsError } from "../../src/a2a/errors.js";
import { withFiniteJson, withFiniteNumbers } from "../../src/a2a/message-values.js";
import {
  checkRequiredFields,
  decodeMessage,
  decodeMessageReflectively,
  encodeMessage,
  encodeMessageText,
} from "../../src/a2a/protojson.js";
import { MAX_REQUEST_VALUES } from "../../src/a2a/request-limits.js";

/** A SendMessage request as JSON text, with `inner` spliced in as raw text where numbers can go. */
const requestText = (metadata: string, data = "1") =>
  `{"message":{"messageId":"m","role":"ROLE_USER","metadata":${metadata},"parts":[{"text":"a"},{"data":${data}}]}}`;

/** The field paths of a -32602 refusal. */
function refusedFields(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParamsError);
    const detail = (error as InvalidParamsError).errorDetails?.find((d) => d["@type"] === BAD_REQUEST_TYPE) as
      | { fieldViolations: { field: string }[] }
      | undefined;
    return detail?.fieldViolations.map((v) => v.field) ?? [];
  }
  throw new Error("not refused");
}

const number = (value: number): Value => ({ $typeName: "google.protobuf.Value", kind: { case: "numberValue", value } });
const list = (...values: Value[]): Value => ({
  $typeName: "google.protobuf.Value",
  kind: { case: "listValue", value: { $typeName: "google.protobuf.ListValue", values } },
});

describe("numbers JSON cannot carry", () => {
  it.each([
    ["metadata", requestText('{"a":{"b":[1,1e400]}}'), "message.metadata.a.b[1]"],
    ["a negative one", requestText('{"x":-1e400}'), "message.metadata.x"],
    ["a data part", requestText("{}", '{"deep":[{"x":1e999}]}'), "message.parts[1].data.deep[0].x"],
    ["a bare data value", requestText("{}", "1e400"), "message.parts[1].data"],
  ])("in %s of a JSON request are -32602 naming the path", (_, text, path) => {
    const json = JSON.parse(text);
    expect(refusedFields(() => decodeMessage(SendMessageRequestSchema, json))).toEqual([path]);
    expect(refusedFields(() => decodeMessageReflectively(SendMessageRequestSchema, json))).toEqual([path]);
  });

  it("are refused in replies too (a client never holds one)", () => {
    const json = JSON.parse(`{"id":"t","contextId":"c","metadata":{"x":1e400}}`);
    expect(refusedFields(() => decodeMessage(TaskSchema, json, { validateRequired: false }))).toEqual(["metadata.x"]);
  });

  it("in a message decoded from binary (NaN, Infinity in a Value or a Struct) fail checkRequiredFields", () => {
    const request = create(SendMessageRequestSchema, {
      message: {
        messageId: "m",
        role: 1,
        parts: [{ content: { case: "data", value: list(number(1), number(Number.NaN)) } }],
        metadata: { ok: 1, bad: Number.POSITIVE_INFINITY },
      },
    });
    const decoded = fromBinary(SendMessageRequestSchema, toBinary(SendMessageRequestSchema, request));
    expect(refusedFields(() => checkRequiredFields(SendMessageRequestSchema, decoded))).toEqual([
      "message.parts[0].data[1]",
      "message.metadata.bad",
    ]);
    expect(a2aJsonCodecs.get(SendMessageRequestSchema)?.valid(decoded)).toBe(false);
  });

  it("are written as null by both writers, the whole message still written", () => {
    const task = create(TaskSchema, {
      id: "t",
      contextId: "c",
      metadata: { n: Number.NaN, ok: 2, list: [Number.NEGATIVE_INFINITY] },
      artifacts: [
        {
          artifactId: "a",
          parts: [
            create(PartSchema, { content: { case: "data", value: list(number(Number.POSITIVE_INFINITY), number(3)) } }),
          ],
        },
      ],
    });
    const expected =
      '{"id":"t","contextId":"c","artifacts":[{"artifactId":"a","parts":[{"data":[null,3]}]}],"metadata":{"n":null,"ok":2,"list":[null]}}';
    expect(encodeMessageText(TaskSchema, task)).toBe(expected);
    expect(JSON.stringify(encodeMessage(TaskSchema, task))).toBe(expected);
    // The message itself is left as it was.
    expect(task.metadata?.n).toBeNaN();
    expect(withFiniteNumbers(TaskSchema, task)).not.toBe(task);
    const finite = create(TaskSchema, { id: "t", metadata: { n: 1 } });
    expect(withFiniteNumbers(TaskSchema, finite)).toBe(finite);
  });
});

describe("withFiniteJson (a skill's own JSON: output and metadata)", () => {
  it("keeps a value with only finite numbers as it is, scalars and an absent value included", () => {
    const nested = { a: [1, "x", { b: 2.5 }], c: null };
    expect(withFiniteJson(nested)).toBe(nested);
    for (const scalar of [undefined, null, 0, -1.5, "NaN", true]) expect(withFiniteJson(scalar)).toBe(scalar);
  });

  it("writes null for every number JSON cannot carry, at the top as well as inside, in a copy", () => {
    expect(withFiniteJson(Number.NaN)).toBeNull();
    expect(withFiniteJson(Number.POSITIVE_INFINITY)).toBeNull();
    const value = { a: [1, Number.NaN], b: { c: Number.NEGATIVE_INFINITY, d: 2 } };
    expect(withFiniteJson(value)).toEqual({ a: [1, null], b: { c: null, d: 2 } });
    expect(value.a[1]).toBeNaN();
  });
});

describe("the request value limit", () => {
  /** A request whose metadata has `members` members: 2 values each, plus the rest of the request. */
  const withMembers = (members: number) => {
    const metadata: Record<string, number> = {};
    for (let i = 0; i < members; i++) metadata[`k${i}`] = i;
    return { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "a" }], metadata } };
  };

  it("refuses a request over MAX_REQUEST_VALUES with -32602 naming the limit, on both paths", () => {
    const json = withMembers(MAX_REQUEST_VALUES / 2);
    for (const decode of [decodeMessage, decodeMessageReflectively]) {
      try {
        decode(SendMessageRequestSchema, json);
        throw new Error("not refused");
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidParamsError);
        expect((error as InvalidParamsError).message).toContain("MAX_REQUEST_VALUES");
        expect((error as InvalidParamsError).metadata).toMatchObject({ maxValues: String(MAX_REQUEST_VALUES) });
      }
    }
  });

  it("accepts a request under the limit, and any size of reply", () => {
    expect(
      decodeMessage(SendMessageRequestSchema, withMembers(MAX_REQUEST_VALUES / 2 - 20)).message?.metadata,
    ).toBeDefined();
    const reply = { id: "t", contextId: "c", metadata: withMembers(MAX_REQUEST_VALUES).message.metadata };
    expect(Object.keys(decodeMessage(TaskSchema, reply, { validateRequired: false }).metadata ?? {})).toHaveLength(
      MAX_REQUEST_VALUES,
    );
  });

  it("counts a message decoded from binary too", () => {
    const metadata = withMembers(MAX_REQUEST_VALUES / 2).message.metadata;
    const big = create(SendMessageRequestSchema, {
      message: { messageId: "m", role: 1, parts: [{ content: { case: "text", value: "a" } }], metadata },
    });
    const decoded = fromBinary(SendMessageRequestSchema, toBinary(SendMessageRequestSchema, big));
    expect(() => checkRequiredFields(SendMessageRequestSchema, decoded)).toThrow(/MAX_REQUEST_VALUES/);
  });
});
