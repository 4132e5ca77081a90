import { create, equals, fromBinary, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
import { timestampFromDate, ValueSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  AgentSkillSchema,
  ListTasksResponseSchema,
  Role,
  SendMessageRequestSchema,
  type TaskJson,
  TaskSchema,
  TaskState,
} from "../../gen/a2a_pb.js";
import { BAD_REQUEST_TYPE } from "../../src/a2a/error-wire.js";
import { InvalidParamsError } from "../../src/a2a/errors.js";
import { decodeMessage, encodeMessage } from "../../src/a2a/protojson.js";

const task = create(TaskSchema, {
  id: "task-1",
  contextId: "ctx-1",
  status: {
    state: TaskState.INPUT_REQUIRED,
    timestamp: timestampFromDate(new Date("2026-01-02T03:04:05.678Z")),
    message: { messageId: "m-0", role: Role.AGENT, parts: [{ content: { case: "text", value: "Which city?" } }] },
  },
  history: [
    {
      messageId: "m-1",
      role: Role.USER,
      contextId: "ctx-1",
      taskId: "task-1",
      referenceTaskIds: ["task-0"],
      extensions: ["https://example.com/ext/v1"],
      metadata: { skillId: "weather" },
      parts: [
        { content: { case: "text", value: "Weather?" }, mediaType: "text/plain" },
        {
          content: { case: "raw", value: new Uint8Array([0, 1, 2, 255]) },
          filename: "a.bin",
          mediaType: "application/octet-stream",
        },
        { content: { case: "url", value: "https://example.com/f.png" }, filename: "f.png", mediaType: "image/png" },
        {
          content: {
            case: "data",
            value: fromJson(ValueSchema, { shape: "structured", n: 3, list: [1, "two", null], nested: { ok: true } }),
          },
        },
        {
          content: { case: "data", value: fromJson(ValueSchema, ["a", "non-object", "value"]) },
          metadata: { note: "data is any JSON value" },
        },
      ],
    },
  ],
  artifacts: [{ artifactId: "a-1", name: "answer", parts: [{ content: { case: "text", value: "Sunny" } }] }],
  metadata: { run: "r-1" },
});

describe("ProtoJSON conversion", () => {
  it("round-trips a Task with every Part kind through JSON text", () => {
    const json = JSON.parse(JSON.stringify(encodeMessage(TaskSchema, task)));
    expect(json.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(json.status.timestamp).toBe("2026-01-02T03:04:05.678Z");
    expect(json.history[0].role).toBe("ROLE_USER");
    expect(
      json.history[0].parts.map((p: object) => Object.keys(p).find((k) => ["text", "raw", "url", "data"].includes(k))),
    ).toEqual(["text", "raw", "url", "data", "data"]);
    expect(json.history[0].parts[1].raw).toBe("AAEC/w==");
    expect(json.history[0]).not.toHaveProperty("kind");
    expect(json.history[0].parts[0]).not.toHaveProperty("kind");
    const back = decodeMessage(TaskSchema, json);
    expect(equals(TaskSchema, back, task)).toBe(true);
    // The binary form agrees with the JSON form (gRPC carries the same model).
    expect(equals(TaskSchema, fromBinary(TaskSchema, toBinary(TaskSchema, back)), task)).toBe(true);
  });

  it("reads snake_case field names and ignores unknown fields (§5.7)", () => {
    const m = decodeMessage(SendMessageRequestSchema, {
      message: {
        message_id: "m",
        role: "ROLE_USER",
        parts: [{ text: "hi", media_type: "text/plain" }],
        kind: "message",
      },
      configuration: { return_immediately: true, accepted_output_modes: ["text/plain"] },
      somethingNew: { x: 1 },
    });
    expect(m.message?.messageId).toBe("m");
    expect(m.message?.parts[0]?.mediaType).toBe("text/plain");
    expect(m.configuration?.returnImmediately).toBe(true);
  });

  it("rejects a request that misses REQUIRED fields, naming each of them", () => {
    const attempt = () => decodeMessage(SendMessageRequestSchema, { message: { role: "user", parts: [] } });
    expect(attempt).toThrow(InvalidParamsError);
    try {
      attempt();
    } catch (e) {
      const detail = (e as InvalidParamsError).errorDetails[0];
      expect(detail?.["@type"]).toBe(BAD_REQUEST_TYPE);
      expect((detail?.fieldViolations as { field: string }[] | undefined)?.map((v) => v.field)).toEqual([
        "message.messageId",
        "message.role",
        "message.parts",
      ]);
    }
    expect(() => decodeMessage(SendMessageRequestSchema, {})).toThrow(/Invalid parameters/);
  });

  it("can skip REQUIRED validation for lenient readers", () => {
    expect(decodeMessage(TaskSchema, { id: "t" }, { validateRequired: false }).id).toBe("t");
  });

  it("reports a wrongly typed field with its path", () => {
    try {
      decodeMessage(SendMessageRequestSchema, { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: 5 }] } });
      expect.unreachable();
    } catch (e) {
      expect((e as InvalidParamsError).errorDetails[0]?.fieldViolations).toEqual([
        { field: "message.parts.text", description: expect.stringContaining("expected string") },
      ]);
    }
  });

  it("rejects a non-object payload with -32602", () => {
    expect(() => decodeMessage(TaskSchema, "task")).toThrow(InvalidParamsError);
  });

  it("always emits REQUIRED fields, even at their zero value", () => {
    expect(encodeMessage(ListTasksResponseSchema, create(ListTasksResponseSchema))).toEqual({
      tasks: [],
      nextPageToken: "",
      pageSize: 0,
      totalSize: 0,
    });
    expect(encodeMessage(AgentSkillSchema, create(AgentSkillSchema, { id: "s", name: "S" }))).toEqual({
      id: "s",
      name: "S",
      description: "",
      tags: [],
    });
  });

  it("adds REQUIRED zeros inside nested and repeated messages, and nothing else", () => {
    const json = encodeMessage(
      ListTasksResponseSchema,
      create(ListTasksResponseSchema, {
        tasks: [{ id: "t", status: { state: TaskState.WORKING } }],
        pageSize: 1,
        totalSize: 1,
      }),
    ) as { tasks: Record<string, unknown>[] };
    expect(json.tasks[0]).toEqual({ id: "t", status: { state: "TASK_STATE_WORKING" } });
  });
});

describe("generated JSON types (json_types=true)", () => {
  it("toJson of an A2A schema is typed: fields read without a cast", () => {
    const json = toJson(TaskSchema, create(TaskSchema, { id: "t-1", contextId: "c-1" }));
    expectTypeOf(json).toEqualTypeOf<TaskJson>();
    expect([json.id, json.contextId]).toEqual(["t-1", "c-1"]);
  });
});
