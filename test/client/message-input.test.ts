import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { MessageSchema, Role } from "../../gen/a2a_pb.js";
import { SKILL_ID_METADATA_KEY, toMessage } from "../../src/client/message-input.js";

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
