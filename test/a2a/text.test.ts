import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ArtifactSchema, StreamResponseSchema, TaskSchema, TaskState } from "../../gen/a2a_pb.js";
import {
  agentMessage,
  artifactText,
  dataPart,
  isMessage,
  isTask,
  messageText,
  streamText,
  taskText,
  textPart,
  urlPart,
  userMessage,
} from "../../src/a2a/index.js";

const artifact = (artifactId: string, ...parts: ReturnType<typeof textPart>[]) =>
  create(ArtifactSchema, { artifactId, parts });

describe("reading text", () => {
  it("joins a message's or an artifact's text parts as they are, skipping other parts", () => {
    const message = agentMessage([textPart("Hello, "), dataPart({ x: 1 }), textPart("Ada")]);
    expect(messageText(message)).toBe("Hello, Ada");
    expect(artifactText(artifact("a", textPart("Once "), urlPart("https://x.example/i.png"), textPart("upon")))).toBe(
      "Once upon",
    );
    expect(messageText(agentMessage(dataPart({ only: "data" })))).toBe("");
  });

  it("reads a task's artifacts, one per line, else its status message", () => {
    const done = create(TaskSchema, {
      id: "t",
      status: { state: TaskState.COMPLETED, message: agentMessage("repeated output") },
      artifacts: [artifact("a", textPart("first")), artifact("b", dataPart(1)), artifact("c", textPart("second"))],
    });
    expect(taskText(done)).toBe("first\nsecond");
    const paused = create(TaskSchema, {
      id: "t",
      status: { state: TaskState.INPUT_REQUIRED, message: agentMessage("Proceed?") },
    });
    expect(taskText(paused)).toBe("Proceed?");
    expect(taskText(create(TaskSchema, { id: "t" }))).toBe("");
  });

  it("tells a Task from a Message", () => {
    const task = create(TaskSchema, { id: "t" });
    const message = userMessage("hi");
    expect([isTask(task), isMessage(task), isTask(message), isMessage(message)]).toEqual([true, false, false, true]);
    expect([isTask({ id: "t" }), isMessage(undefined), isTask("x")]).toEqual([false, false, false]);
    const result: unknown = task;
    if (isTask(result)) expect(result.id).toBe("t");
  });
});

describe("streamText", () => {
  const frame = (payload: Parameters<typeof create<typeof StreamResponseSchema>>[1]) =>
    create(StreamResponseSchema, payload);
  async function* frames() {
    yield frame({
      payload: { case: "task", value: create(TaskSchema, { id: "t", artifacts: [artifact("s", textPart("Once "))] }) },
    });
    yield frame({
      payload: {
        case: "statusUpdate",
        value: { taskId: "t", status: { state: TaskState.WORKING, message: agentMessage("Writing") } },
      },
    });
    yield frame({
      payload: {
        case: "artifactUpdate",
        value: { taskId: "t", append: true, artifact: artifact("s", textPart("upon ")) },
      },
    });
    yield frame({
      payload: { case: "artifactUpdate", value: { taskId: "t", append: true, artifact: artifact("s", dataPart({})) } },
    });
    yield frame({
      payload: {
        case: "artifactUpdate",
        value: { taskId: "t", append: true, artifact: artifact("s", textPart("a time")) },
      },
    });
    yield frame({
      payload: {
        case: "statusUpdate",
        value: { taskId: "t", status: { state: TaskState.COMPLETED, message: agentMessage("Once upon a time") } },
      },
    });
  }

  it("yields the text of artifact chunks and snapshots as they arrive, never status messages", async () => {
    const seen: string[] = [];
    for await (const text of streamText(frames())) seen.push(text);
    expect(seen).toEqual(["Once ", "upon ", "a time"]);
  });

  it("yields a message-only reply's text", async () => {
    async function* reply() {
      yield frame({ payload: { case: "message", value: agentMessage("just this") } });
    }
    const seen: string[] = [];
    for await (const text of streamText(reply())) seen.push(text);
    expect(seen).toEqual(["just this"]);
  });

  it("passes the stream's failure on", async () => {
    async function* broken() {
      yield frame({
        payload: { case: "artifactUpdate", value: { taskId: "t", artifact: artifact("s", textPart("half")) } },
      });
      throw new Error("stream cut");
    }
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const text of streamText(broken())) seen.push(text);
      })(),
    ).rejects.toThrow("stream cut");
    expect(seen).toEqual(["half"]);
  });
});
