/**
 * The generated binary writers (gen/a2a_binary.ts) against protobuf-es: for
 * thousands of seeded random messages of every A2A type, `encodeBinary`
 * writes exactly the bytes `toBinary` writes, with the writer answering
 * rather than bailing out; what the writer does not write exactly (a value
 * of the wrong type, a message of another type) gets toBinary's answer or error.
 */
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { a2aBinaryWriters } from "../../gen/a2a_binary.js";
import {
  AgentCardSchema,
  ListTasksResponseSchema,
  MessageSchema,
  PartSchema,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
} from "../../gen/a2a_pb.js";
import { BAIL, ProtoWriter } from "../../src/a2a/binary-writer-runtime.js";
import { encodeBinary } from "../../src/a2a/protobinary.js";
import { agentMessage, artifact, newTask, sendMessageResponse, textPart } from "../../src/server/message-literals.js";
import { RandomMessages } from "./support/random-messages.js";

const SEED = 20261201;
const PER_TYPE = 300;

/** The writer's own bytes: it must answer, not bail. */
function written<S extends DescMessage>(schema: S, message: MessageShape<S>): Uint8Array {
  const write = a2aBinaryWriters.get(schema);
  if (!write) throw new Error(`no writer for ${schema.typeName}`);
  const w = new ProtoWriter();
  w.start(0);
  write(w, message);
  return w.finish();
}

function outcome(run: () => Uint8Array): { bytes: number[] } | { error: string } {
  try {
    return { bytes: [...run()] };
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
}

describe("generated binary writers", () => {
  it("cover the replies of every unary gRPC method", () => {
    for (const schema of [
      SendMessageResponseSchema,
      TaskSchema,
      ListTasksResponseSchema,
      TaskPushNotificationConfigSchema,
      AgentCardSchema,
      StreamResponseSchema,
    ]) {
      expect(a2aBinaryWriters.has(schema)).toBe(true);
    }
    expect(a2aBinaryWriters.size).toBeGreaterThan(30);
  });

  it("write exactly toBinary's bytes for random messages of every type, without bailing", () => {
    const random = new RandomMessages(SEED, { loneSurrogates: true });
    const differing: string[] = [];
    for (const [schema] of a2aBinaryWriters) {
      for (let i = 0; i < PER_TYPE; i++) {
        const message = random.message(schema);
        const reference = Buffer.from(toBinary(schema, message));
        if (!reference.equals(written(schema, message)) || !reference.equals(encodeBinary(schema, message))) {
          differing.push(`${schema.typeName} #${i}`);
        }
      }
    }
    expect(differing).toEqual([]);
  });

  it("write the harness's literal messages (a SendMessage reply) as toBinary does", () => {
    const task = newTask("t-1", "c-1");
    const request = create(MessageSchema, {
      messageId: "m-1",
      taskId: "t-1",
      contextId: "c-1",
      role: 1,
      parts: [textPart("Hello, bench! This is the echo payload.")],
      metadata: { skillId: "echo", n: 1.5, list: [null, true, { deep: "é 😀" }] },
    });
    const answer = agentMessage("m-2", "t-1", "c-1", [textPart("x".repeat(300))]);
    task.artifacts.push(artifact("a-1", "output", answer.parts, { metadata: { k: "v" } }));
    task.history.push(request, answer);
    const reply = sendMessageResponse({ case: "task", value: task });
    expect(written(SendMessageResponseSchema, reply)).toEqual(toBinary(SendMessageResponseSchema, reply));
  });

  it("write back the unknown fields a binary read kept", () => {
    const random = new RandomMessages(SEED + 1);
    for (let i = 0; i < 50; i++) {
      const part = random.message(PartSchema);
      // Field 99 (length-delimited) and field 100 (varint 300): unknown to Part.
      const extra = Uint8Array.from([0x9a, 0x06, 0x02, 0x68, 0x69, 0xa0, 0x06, 0xac, 0x02]);
      const bytes = new Uint8Array([...toBinary(PartSchema, part), ...extra]);
      const read = fromBinary(PartSchema, bytes);
      expect(read.$unknown?.length).toBe(2);
      expect(written(PartSchema, read)).toEqual(toBinary(PartSchema, read));
    }
  });

  it("leave values of the wrong type and messages of another type to toBinary, answer or error alike", () => {
    const message = create(MessageSchema, { messageId: "m", parts: [create(PartSchema)] });
    const cases: [DescMessage, unknown][] = [
      [MessageSchema, { ...message, role: 2.5 }],
      [MessageSchema, { ...message, role: "1" }],
      [MessageSchema, { ...message, messageId: 7 }],
      [MessageSchema, { ...message, metadata: { x: undefined } }],
      [MessageSchema, { ...message, parts: [{ ...create(PartSchema), $typeName: "lf.a2a.v1.Task" }] }],
      [TaskSchema, message],
      [TaskSchema, { ...create(TaskSchema), status: { state: 1, $typeName: "lf.a2a.v1.TaskStatus", timestamp: 5 } }],
    ];
    for (const [schema, value] of cases) {
      const w = new ProtoWriter();
      w.start(0);
      expect(() => a2aBinaryWriters.get(schema)?.(w, value)).toThrow(
        expect.toSatisfy((e: unknown) => e === BAIL || e instanceof TypeError),
      );
      expect(outcome(() => encodeBinary(schema, value as never))).toEqual(
        outcome(() => toBinary(schema, value as never)),
      );
    }
  });

  it("leave room for a prefix (a gRPC envelope header) before the message", () => {
    const random = new RandomMessages(SEED + 2);
    for (const schema of [SendMessageResponseSchema, MessageSchema]) {
      const message = random.message(schema);
      const bytes = encodeBinary(schema, message, 5);
      expect(bytes.subarray(5)).toEqual(toBinary(schema, message));
      expect(bytes.byteLength).toBe(5 + toBinary(schema, message).byteLength);
    }
  });

  it("write a long message (multi-byte lengths, a grown buffer) and then a short one from the same writer", () => {
    const task = newTask("t-1", "c-1");
    for (let i = 0; i < 2_000; i++) task.history.push(agentMessage(`m-${i}`, "t-1", "c-1", [textPart(`part ${i} é`)]));
    const long = sendMessageResponse({ case: "task", value: task });
    const reference = Buffer.from(toBinary(SendMessageResponseSchema, long));
    expect(reference.byteLength).toBeGreaterThan(64 * 1024);
    expect(reference.equals(encodeBinary(SendMessageResponseSchema, long))).toBe(true);
    const short = sendMessageResponse({ case: "task", value: newTask("t-2", "c-2") });
    expect(encodeBinary(SendMessageResponseSchema, short)).toEqual(toBinary(SendMessageResponseSchema, short));
  });

  it("copy a short message out into a shared 64 KiB slab (B415, B416), each reply keeping its own bytes", () => {
    const first = sendMessageResponse({ case: "task", value: newTask("t-1", "c-1") });
    const second = sendMessageResponse({ case: "task", value: newTask("t-2", "c-2") });
    const a = encodeBinary(SendMessageResponseSchema, first, 5);
    const b = encodeBinary(SendMessageResponseSchema, second, 5);
    expect(a.buffer.byteLength).toBe(65536);
    expect(b.buffer).toBe(a.buffer);
    expect(a.subarray(5)).toEqual(toBinary(SendMessageResponseSchema, first));
    expect(b.subarray(5)).toEqual(toBinary(SendMessageResponseSchema, second));
  });
});
