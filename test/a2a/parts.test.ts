import { toJson } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { MessageSchema, PartSchema, Role, type Task } from "../../gen/a2a_pb.js";
import { agentMessage, dataPart, filePart, textPart, urlPart, userMessage } from "../../src/a2a/index.js";

const json = (part: Parameters<typeof toJson<typeof PartSchema>>[1]) => toJson(PartSchema, part);

describe("part helpers", () => {
  it("build the v1.0 wire form of each part kind, with no kind tag", () => {
    expect(json(textPart("hi"))).toEqual({ text: "hi" });
    expect(json(textPart("# Title", { mediaType: "text/markdown", metadata: { lang: "en" } }))).toEqual({
      text: "# Title",
      mediaType: "text/markdown",
      metadata: { lang: "en" },
    });
    expect(json(dataPart({ rows: [1, 2], ok: true }))).toEqual({ data: { rows: [1, 2], ok: true } });
    expect(json(dataPart(["a", null]))).toEqual({ data: ["a", null] });
    expect(
      json(filePart(new Uint8Array([1, 2, 3]), { filename: "a.bin", mediaType: "application/octet-stream" })),
    ).toEqual({ raw: "AQID", filename: "a.bin", mediaType: "application/octet-stream" });
    expect(json(urlPart("https://files.example/report.pdf", { mediaType: "application/pdf" }))).toEqual({
      url: "https://files.example/report.pdf",
      mediaType: "application/pdf",
    });
  });

  it("refuses a URL part whose URL is not absolute", () => {
    expect(() => urlPart("report.pdf")).toThrow(RangeError);
    expect(() => urlPart("")).toThrow(/absolute URL/);
  });
});

describe("message helpers", () => {
  it("make a user message from text, with a fresh id and the addressing given", () => {
    const a = userMessage("hello", { contextId: "ctx-1", taskId: "task-1", metadata: { skillId: "greet" } });
    const b = userMessage("hello");
    expect(a.role).toBe(Role.USER);
    expect(a.messageId).toMatch(/^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/);
    expect(b.messageId).not.toBe(a.messageId);
    expect(toJson(MessageSchema, a)).toEqual({
      messageId: a.messageId,
      role: "ROLE_USER",
      parts: [{ text: "hello" }],
      contextId: "ctx-1",
      taskId: "task-1",
      metadata: { skillId: "greet" },
    });
  });

  it("make an agent message from one part or several, keeping the caller's list and id", () => {
    const parts = [textPart("see"), dataPart({ n: 1 })];
    const message = agentMessage(parts, { messageId: "m-1", referenceTaskIds: ["t-0"], extensions: ["urn:x"] });
    expect(message.role).toBe(Role.AGENT);
    expect(message.messageId).toBe("m-1");
    expect(message.parts).toEqual(parts);
    expect(message.parts).not.toBe(parts);
    expect([message.referenceTaskIds, message.extensions]).toEqual([["t-0"], ["urn:x"]]);
    expect(agentMessage(textPart("one")).parts).toHaveLength(1);
  });

  it("are accepted where the generated type is expected", () => {
    const task: Pick<Task, "history"> = { history: [userMessage("q"), agentMessage("a")] };
    expect(task.history.map((m) => m.role)).toEqual([Role.USER, Role.AGENT]);
  });
});
