import { create, toJson } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { type Message, MessageSchema, Role } from "../../gen/a2a_pb.js";
import { isTask, taskText } from "../../src/a2a/index.js";
import { Client } from "../../src/client/client.js";
import { SKILL_ID_METADATA_KEY, toMessage } from "../../src/client/message-input.js";
import { NovaOSValidationError } from "../../src/errors/index.js";
import { AUTHOR_METADATA_KEY, Author, MessagePart, SimpleMessage } from "../../src/messages/index.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { serveAgent } from "../server/support/agent-server.js";

describe("toMessage", () => {
  it("turns a string into one user text part with a fresh messageId", () => {
    const a = toMessage("hello");
    const b = toMessage("hello");
    expect(a.role).toBe(Role.USER);
    expect(a.parts).toHaveLength(1);
    expect(a.parts[0]?.content).toEqual({ case: "text", value: "hello" });
    expect(a.messageId).not.toBe(b.messageId);
  });

  it("keeps what the caller set, and puts the skill at metadata.skillId", () => {
    const m = toMessage(
      { messageId: "m1", role: Role.AGENT, parts: [{ content: { case: "text", value: "x" } }], metadata: { a: 1 } },
      { skillId: "chat" },
    );
    expect([m.messageId, m.role]).toEqual(["m1", Role.AGENT]);
    expect(m.metadata).toEqual({ a: 1, [SKILL_ID_METADATA_KEY]: "chat" });
    expect(SKILL_ID_METADATA_KEY).toBe("skillId");
  });

  it("copies a generated Message instead of changing it", () => {
    const original = create(MessageSchema, { parts: [{ content: { case: "text", value: "x" } }] });
    const sent = toMessage(original, { taskId: "t", contextId: "c" });
    expect(sent).not.toBe(original);
    expect([original.messageId, original.taskId, original.contextId]).toEqual(["", "", ""]);
    expect([sent.taskId, sent.contextId]).toEqual(["t", "c"]);
  });
});

describe("toMessage from the convenience models", () => {
  it("turns a SimpleMessage into a user message: parts as text parts with their media type, the author in metadata", () => {
    const message = toMessage(
      new SimpleMessage(
        [
          new MessagePart("# Plan", { contentType: "text/markdown" }),
          new MessagePart("ok", { contentType: "text/plain" }),
        ],
        { author: new Author("Ada", { role: "reviewer" }), metadata: { run: "r1" } },
      ),
      { skillId: "review" },
    );
    expect(toJson(MessageSchema, message)).toEqual({
      messageId: message.messageId,
      role: "ROLE_USER",
      parts: [{ text: "# Plan", mediaType: "text/markdown" }, { text: "ok" }],
      metadata: { run: "r1", [AUTHOR_METADATA_KEY]: { name: "Ada", role: "reviewer" }, skillId: "review" },
    });
    expect(AUTHOR_METADATA_KEY).toBe("author");
  });

  it("refuses a SimpleMessage that does not validate, before anything is sent", () => {
    expect(() => toMessage(new SimpleMessage([]))).toThrow(NovaOSValidationError);
    expect(() => toMessage(new SimpleMessage(["a", ""]))).toThrow(expect.objectContaining({ field: "message" }));
  });

  it("is what Client.sendMessage sends over a real socket", async () => {
    let seen: Message | undefined;
    const agent = new AgentBuilder({ name: "models", logger: createLogger({ level: "silent" }) });
    agent.skill("echo", (ctx, text) => {
      seen = ctx.message;
      return { output: text };
    });
    const running = await serveAgent(agent);
    try {
      await using client = new Client({ baseUrl: running.url });
      const task = await client.sendMessage(new SimpleMessage(["Hello, ", "agent"], { author: new Author("Ada") }));
      expect(isTask(task) && taskText(task)).toBe("Hello, agent");
      expect(seen?.metadata).toEqual({ author: { name: "Ada" } });
    } finally {
      await running.close();
    }
  });
});
