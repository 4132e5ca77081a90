/**
 * The generated ProtoJSON codecs (gen/a2a_json.ts) against protobuf-es: for
 * thousands of seeded random messages of every A2A type, the writer's text
 * is byte for byte `JSON.stringify(encodeMessage(...))`, and the reader of
 * that text (and of mutations of it) returns exactly what the reflective
 * decoder returns, or bails out and leaves the answer to it. Canonical
 * input must not bail: the fast path has to actually answer.
 */
import { isDeepStrictEqual } from "node:util";
import { create, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { a2aJsonCodecs } from "../../gen/a2a_json.js";
import {
  MessageSchema,
  PartSchema,
  SendMessageRequestSchema,
  StreamResponseSchema,
  TaskSchema,
} from "../../gen/a2a_pb.js";
import { enumValueViolations } from "../../src/a2a/enum-values.js";
import {
  checkRequiredFields,
  decodeMessage,
  decodeMessageReflectively,
  encodeMessage,
  encodeMessageText,
} from "../../src/a2a/protojson.js";
import { requiredFieldViolations } from "../../src/a2a/required-fields.js";
import { RandomMessages } from "./support/random-messages.js";

const SEED = 20260101;
const PER_TYPE = 300;
const codecs = [...a2aJsonCodecs];

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

function outcome(run: () => unknown): Outcome {
  try {
    return { ok: true, value: run() };
  } catch (e) {
    const error = e as Error & { errorDetails?: unknown };
    return { ok: false, error: `${error.constructor.name}: ${error.message} ${JSON.stringify(error.errorDetails)}` };
  }
}

function objectsIn(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value === "object" && value !== null && !into.has(value)) {
    into.add(value);
    for (const v of Object.values(value)) objectsIn(v, into);
  }
  return into;
}

/** protobuf-es copies what it reads (Struct fields included): a decoded message never aliases its input. */
function sharesObjects(decoded: unknown, json: unknown): boolean {
  const input = objectsIn(json);
  return [...objectsIn(decoded)].some((o) => input.has(o));
}

/** The codec answers exactly like the reference, or bails. */
function expectSameOrBail(schema: DescMessage, json: unknown, required: boolean): "answered" | "bailed" {
  const codec = a2aJsonCodecs.get(schema);
  const fast = outcome(() => codec?.read(json, required, 0));
  const reference = outcome(() => decodeMessageReflectively(schema, json, { validateRequired: required }));
  if (!fast.ok) {
    // Through the public function, a bail must give the reference's answer or error.
    expect(outcome(() => decodeMessage(schema, json, { validateRequired: required }))).toEqual(reference);
    return "bailed";
  }
  if (!reference.ok || !isDeepStrictEqual(fast.value, reference.value) || sharesObjects(fast.value, json)) {
    throw new Error(
      `${schema.typeName}: the codec answered differently for ${JSON.stringify(json)}\n` +
        `codec: ${JSON.stringify(fast.value, (_, v) => (typeof v === "bigint" ? `${v}n` : v))}\n` +
        `reference: ${JSON.stringify(reference, (_, v) => (typeof v === "bigint" ? `${v}n` : v))}`,
    );
  }
  return "answered";
}

describe("generated ProtoJSON codecs", () => {
  it("cover the messages the bindings and the client read and write", () => {
    for (const schema of [SendMessageRequestSchema, TaskSchema, MessageSchema, PartSchema, StreamResponseSchema]) {
      expect(a2aJsonCodecs.has(schema)).toBe(true);
    }
    expect(codecs.length).toBeGreaterThan(30);
  });

  it("write exactly JSON.stringify(encodeMessage(...)) for random messages of every type", () => {
    const random = new RandomMessages(SEED, { loneSurrogates: true });
    for (const [schema, codec] of codecs) {
      for (let i = 0; i < PER_TYPE; i++) {
        const message = random.message(schema);
        const reference = JSON.stringify(encodeMessage(schema, message));
        expect(codec.write(message)).toBe(reference);
        expect(encodeMessageText(schema, message)).toBe(reference);
      }
    }
  });

  it("read their own output exactly as protobuf-es does, without bailing, with and without REQUIRED checks", () => {
    const random = new RandomMessages(SEED + 1);
    let answered = 0;
    let total = 0;
    for (const [schema] of codecs) {
      for (let i = 0; i < PER_TYPE; i++) {
        const json = JSON.parse(encodeMessageText(schema, random.message(schema)));
        if (expectSameOrBail(schema, json, false) !== "answered") throw new Error(`bailed on ${JSON.stringify(json)}`);
        total++;
        // With REQUIRED checks a random message may miss one: then the reflective path reports it.
        if (expectSameOrBail(schema, json, true) === "answered") answered++;
      }
    }
    expect(answered).toBeGreaterThan(total / 4);
  });

  it("answer mutated input (names, nulls, duplicates, wrong types, unknowns) exactly as protobuf-es, or leave it to it", () => {
    const random = new RandomMessages(SEED + 2);
    const seen = { answered: 0, bailed: 0 };
    for (const [schema] of codecs) {
      for (let i = 0; i < PER_TYPE; i++) {
        const json = JSON.parse(encodeMessageText(schema, random.message(schema))) as JsonValue;
        for (let n = 1 + random.int(3); n > 0; n--) random.mutate(json);
        seen[expectSameOrBail(schema, json, random.chance(0.5))]++;
      }
    }
    // Both paths were exercised.
    expect(seen.answered).toBeGreaterThan(1000);
    expect(seen.bailed).toBeGreaterThan(1000);
  });

  it("check REQUIRED fields of messages (e.g. decoded from binary) exactly as required-fields.ts does, and enum values as enum-values.ts does", () => {
    const random = new RandomMessages(SEED + 3);
    let complete = 0;
    for (const [schema, codec] of codecs) {
      for (let i = 0; i < PER_TYPE; i++) {
        const message = random.message(schema);
        const expected =
          requiredFieldViolations(schema, message).length === 0 && enumValueViolations(schema, message).length === 0;
        expect(codec.valid(message)).toBe(expected);
        if (expected) complete++;
        expect(outcome(() => checkRequiredFields(schema, message))).toEqual(
          expected
            ? { ok: true, value: undefined }
            : outcome(() => decodeMessageReflectively(schema, encodeMessage(schema, message))),
        );
      }
    }
    expect(complete).toBeGreaterThan(1000);
  });

  it("read oneofs exactly: one member, null members, two members", () => {
    const task = { id: "t", status: { state: "TASK_STATE_WORKING" } };
    const inputs: [DescMessage, unknown][] = [
      [PartSchema, { text: "a", url: "b" }],
      [PartSchema, { text: null, url: "b" }],
      [PartSchema, { text: "a", data: null }],
      [PartSchema, { data: null, text: "a" }],
      [PartSchema, { data: null }],
      [PartSchema, { data: { a: [1, null] }, mediaType: "application/json" }],
      [PartSchema, { raw: "AAEC/w==", text: null }],
      [StreamResponseSchema, { task, message: null }],
      [StreamResponseSchema, { message: null, task }],
      [StreamResponseSchema, { statusUpdate: null }],
      [
        StreamResponseSchema,
        { status_update: { taskId: "t", contextId: "c", status: { state: 2 } }, statusUpdate: null },
      ],
    ];
    const outcomes = inputs.map(([schema, json]) => expectSameOrBail(schema, json, true));
    expect(outcomes).toContain("answered");
    expect(outcomes).toContain("bailed");
  });

  it("leave what is not a JSON object, and writes of mistyped messages, to protobuf-es", () => {
    for (const [schema, codec] of codecs) {
      for (const json of [null, undefined, 1, "x", [], true]) {
        expect(() => codec.read(json, true, 0)).toThrow();
        expect(outcome(() => decodeMessage(schema, json))).toEqual(
          outcome(() => decodeMessageReflectively(schema, json)),
        );
      }
    }
    const task = new RandomMessages(SEED).message(TaskSchema);
    const mistyped = [
      { ...task, id: 5 },
      { ...task, $typeName: "lf.a2a.v1.Message" },
      { ...task, artifacts: [undefined] },
      { ...task, metadata: { u: undefined } },
      { ...task, status: { ...task.status, state: "COMPLETED" } },
    ];
    for (const message of mistyped) {
      expect(() => a2aJsonCodecs.get(TaskSchema)?.write(message)).toThrow();
      expect(outcome(() => encodeMessageText(TaskSchema, message as never))).toEqual(
        outcome(() => JSON.stringify(encodeMessage(TaskSchema, message as never))),
      );
    }
  });

  it("escape a string equal in length, first and last character to a string written before it without escaping", () => {
    // The writers remember the strings of a text that needed no escaping, by length, first and last character:
    // only an equal string may skip the check, never one that merely shares its place in the memory.
    const write = a2aJsonCodecs.get(TaskSchema)?.write as (task: unknown) => string;
    const first = "ab-1";
    for (const second of ['a"-1', "a\\-1", "a\u0001-1", "a\ud800-1"]) {
      const task = create(TaskSchema, {
        id: first,
        contextId: second,
        history: [
          { messageId: second, taskId: first, contextId: second, parts: [{ content: { case: "text", value: first } }] },
        ],
      });
      expect(write(task)).toBe(JSON.stringify(encodeMessage(TaskSchema, task)));
      expect(JSON.parse(write(task)).contextId).toBe(second);
    }
  });
});
