/**
 * The harness's message literals are exactly what `create()` makes: the same
 * own keys (a field the proto gains and a literal forgets shows here), equal
 * by the schema, and the same ProtoJSON.
 */
import { create, type DescMessage, equals, type Message, toJson } from "@bufbuild/protobuf";
import { TimestampSchema, timestampDate } from "@bufbuild/protobuf/wkt";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ArtifactSchema,
  MessageSchema,
  PartSchema,
  Role,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskArtifactUpdateEventSchema,
  TaskSchema,
  TaskState,
  TaskStatusSchema,
  TaskStatusUpdateEventSchema,
} from "../../gen/a2a_pb.js";
import {
  agentMessage,
  artifact,
  artifactUpdate,
  fieldsNotNamed,
  newTask,
  sendMessageResponse,
  statusUpdate,
  streamResponse,
  taskStatus,
  textPart,
  timestampNow,
} from "../../src/server/message-literals.js";

function expectSame<D extends DescMessage>(schema: D, literal: Message, made: Message): void {
  expect(Object.keys(literal).sort()).toEqual(Object.keys(made).sort());
  expect(equals(schema, literal as never, made as never)).toBe(true);
  expect(toJson(schema, literal as never)).toEqual(toJson(schema, made as never));
}

describe("message literals", () => {
  it("name every field of their messages: none is left to the zero values a newer spec's fields get", () => {
    expect(fieldsNotNamed()).toEqual([]);
  });

  it("textPart is a text Part", () => {
    expectSame(PartSchema, textPart("hi"), create(PartSchema, { content: { case: "text", value: "hi" } }));
  });

  it("agentMessage is an AGENT Message, with metadata only when given", () => {
    const parts = [textPart("a")];
    expectSame(
      MessageSchema,
      agentMessage("m", "t", "c", parts),
      create(MessageSchema, { messageId: "m", taskId: "t", contextId: "c", role: Role.AGENT, parts }),
    );
    expectSame(
      MessageSchema,
      agentMessage("m", "t", "c", parts, { k: 1 }),
      create(MessageSchema, {
        messageId: "m",
        taskId: "t",
        contextId: "c",
        role: Role.AGENT,
        parts,
        metadata: { k: 1 },
      }),
    );
  });

  it("the update events and their frame are what create() makes, with metadata only when given", () => {
    const status = taskStatus(TaskState.WORKING);
    const made = artifact("a-1", "n", [textPart("a")]);
    for (const metadata of [undefined, { k: "v" }]) {
      const statusEvent = statusUpdate("t", "c", status, metadata);
      expectSame(
        TaskStatusUpdateEventSchema,
        statusEvent,
        create(TaskStatusUpdateEventSchema, { taskId: "t", contextId: "c", status, ...(metadata ? { metadata } : {}) }),
      );
      const artifactEvent = artifactUpdate("t", "c", made, true, false, metadata);
      expectSame(
        TaskArtifactUpdateEventSchema,
        artifactEvent,
        create(TaskArtifactUpdateEventSchema, {
          taskId: "t",
          contextId: "c",
          artifact: made,
          append: true,
          lastChunk: false,
          ...(metadata ? { metadata } : {}),
        }),
      );
      const payload = { case: "artifactUpdate" as const, value: artifactEvent };
      expectSame(StreamResponseSchema, streamResponse(payload), create(StreamResponseSchema, { payload }));
    }
  });

  it("sendMessageResponse answers with the task, or with a direct Message", () => {
    const task = newTask("t", "c", { skillId: "s" });
    // The same status (timestamp included): two tasks made a millisecond apart differ only in it.
    const expected = create(TaskSchema, { ...newTask("t", "c"), metadata: { skillId: "s" } });
    expected.status = task.status;
    expectSame(TaskSchema, task, expected);
    expectSame(
      SendMessageResponseSchema,
      sendMessageResponse({ case: "task", value: task }),
      create(SendMessageResponseSchema, { payload: { case: "task", value: task } }),
    );
    const message = agentMessage("m", "", "c", [textPart("hi")]);
    expectSame(
      SendMessageResponseSchema,
      sendMessageResponse({ case: "message", value: message }),
      create(SendMessageResponseSchema, { payload: { case: "message", value: message } }),
    );
  });

  it("artifact takes a description, metadata and extensions when given", () => {
    const parts = [textPart("a")];
    const extras = { description: "d", metadata: { k: 1 }, extensions: ["urn:x"] };
    expectSame(
      ArtifactSchema,
      artifact("a-1", "n", parts, extras),
      create(ArtifactSchema, { artifactId: "a-1", name: "n", parts, ...extras }),
    );
  });

  it("artifact is an Artifact with no description or extensions", () => {
    const parts = [textPart("a")];
    expectSame(
      ArtifactSchema,
      artifact("a-1", "output", parts),
      create(ArtifactSchema, { artifactId: "a-1", name: "output", parts }),
    );
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("stamps statuses within one second with the same int64 seconds, and the next second with its own", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const stamp = (ms: number) => {
      vi.setSystemTime(ms);
      const { seconds, nanos } = timestampNow();
      return [seconds, nanos];
    };
    expect(stamp(1_700_000_000_250)).toEqual([1_700_000_000n, 250_000_000]);
    expect(stamp(1_700_000_000_999)).toEqual([1_700_000_000n, 999_000_000]);
    expect(stamp(1_700_000_001_000)).toEqual([1_700_000_001n, 0]);
    // Time may step back (a clock adjusted): the stamp follows it.
    expect(stamp(1_699_999_999_500)).toEqual([1_699_999_999n, 500_000_000]);
  });

  it("taskStatus and newTask are stamped now, with a message only when given", () => {
    const before = Date.now();
    const status = taskStatus(TaskState.WORKING);
    const message = agentMessage("m", "t", "c", []);
    const withMessage = taskStatus(TaskState.COMPLETED, message);
    const task = newTask("t", "c");
    const after = Date.now();
    for (const stamped of [status, withMessage, task.status]) {
      const at = timestampDate(stamped?.timestamp ?? create(TimestampSchema)).getTime();
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
    }
    const timestamp = status.timestamp;
    expectSame(TaskStatusSchema, status, create(TaskStatusSchema, { state: TaskState.WORKING, timestamp }));
    expectSame(
      TaskStatusSchema,
      withMessage,
      create(TaskStatusSchema, { state: TaskState.COMPLETED, message, timestamp: withMessage.timestamp }),
    );
    expectSame(
      TaskSchema,
      task,
      create(TaskSchema, {
        id: "t",
        contextId: "c",
        status: create(TaskStatusSchema, { state: TaskState.SUBMITTED, timestamp: task.status?.timestamp }),
      }),
    );
  });

  it("timestampNow has whole milliseconds in range", () => {
    const ts = timestampNow();
    expect(ts.nanos % 1_000_000).toBe(0);
    expect(ts.nanos).toBeGreaterThanOrEqual(0);
    expect(ts.nanos).toBeLessThan(1_000_000_000);
    expectSame(TimestampSchema, ts, create(TimestampSchema, { seconds: ts.seconds, nanos: ts.nanos }));
  });
});
