import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { Role, StreamResponseSchema, TaskState } from "../../gen/a2a_pb.js";
import { frameState, frameTaskId, isLastFrame } from "../../src/a2a/stream-frame.js";

const ENDS = new Set([
  TaskState.COMPLETED,
  TaskState.FAILED,
  TaskState.CANCELED,
  TaskState.REJECTED,
  TaskState.INPUT_REQUIRED,
  TaskState.AUTH_REQUIRED,
]);
const states = Object.values(TaskState).filter((v): v is TaskState => typeof v === "number");

describe("isLastFrame", () => {
  it.each(states)("for a task frame in state %i", (state) => {
    const frame = create(StreamResponseSchema, { payload: { case: "task", value: { id: "t", status: { state } } } });
    expect(isLastFrame(frame)).toBe(ENDS.has(state));
    expect(frameState(frame)).toBe(state);
  });

  it.each(states)("for a status update in state %i", (state) => {
    const frame = create(StreamResponseSchema, {
      payload: { case: "statusUpdate", value: { taskId: "t", contextId: "c", status: { state } } },
    });
    expect(isLastFrame(frame)).toBe(ENDS.has(state));
  });

  it("is false for artifact updates, even the last chunk", () => {
    const frame = create(StreamResponseSchema, {
      payload: {
        case: "artifactUpdate",
        value: { taskId: "t", contextId: "c", lastChunk: true, artifact: { artifactId: "a" } },
      },
    });
    expect(isLastFrame(frame)).toBe(false);
    expect(frameTaskId(frame)).toBe("t");
  });

  it("is true for a message: a message-only stream is exactly one Message", () => {
    const frame = create(StreamResponseSchema, {
      payload: { case: "message", value: { messageId: "m", role: Role.AGENT, parts: [] } },
    });
    expect(isLastFrame(frame)).toBe(true);
    expect(frameTaskId(frame)).toBeUndefined();
  });

  it("is false for an empty frame or a task without status", () => {
    expect(isLastFrame(create(StreamResponseSchema))).toBe(false);
    expect(isLastFrame(create(StreamResponseSchema, { payload: { case: "task", value: { id: "t" } } }))).toBe(false);
  });
});
