/** The reference's convenience input models, and the readers that accept them as the legacy format. */
import { toJson } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { HitlMessageSchema } from "../../gen/novaos/v1/hitl_pb.js";
import { NovaOSValidationError } from "../../src/errors/index.js";
import {
  Author,
  extractHitlMessage,
  HitlMessages,
  hasNovaOSMetadataPart,
  isA2AMessage,
  MessagePart,
  NOVAOS_METADATA_MEDIA_TYPE,
  SimpleMessage,
  validateA2AEnvelope,
  validateMessage,
} from "../../src/messages/index.js";

describe("Author, MessagePart, SimpleMessage", () => {
  it("round-trip through their wire form with the reference's field names", () => {
    const message = new SimpleMessage(
      [new MessagePart("# Plan", { contentType: "text/markdown", metadata: { n: 1 } }), "plain"],
      { author: new Author("Ada", { role: "reviewer" }), metadata: { run: "r1" } },
    );
    const json = message.toJSON();
    expect(json).toEqual({
      parts: [{ content: "# Plan", content_type: "text/markdown", metadata: { n: 1 } }, { content: "plain" }],
      author: { name: "Ada", role: "reviewer" },
      metadata: { run: "r1" },
    });
    expect(SimpleMessage.fromJson(JSON.parse(JSON.stringify(json)))).toEqual(message);
    expect(MessagePart.fromJson({ content: "x", contentType: "text/csv" }).contentType).toBe("text/csv");
    expect(Author.fromJson({ name: "Bob" })).toEqual(new Author("Bob"));
    expect(SimpleMessage.fromJson({}).parts).toEqual([]);
  });

  it("refuse wire forms that miss a required field, with a typed error naming it", () => {
    expect(() => MessagePart.fromJson({ content_type: "text/plain" })).toThrow(NovaOSValidationError);
    expect(() => Author.fromJson({ role: "x" })).toThrow(expect.objectContaining({ field: "name" }));
    expect(() => SimpleMessage.fromJson({ parts: "hello" })).toThrow(expect.objectContaining({ field: "parts" }));
    expect(() => SimpleMessage.fromJson({ parts: [{}] })).toThrow(expect.objectContaining({ field: "content" }));
    expect(() => SimpleMessage.fromJson("hello")).toThrow(NovaOSValidationError);
  });

  it("validate(): at least one part, and no empty content (never throws)", () => {
    expect(new SimpleMessage(["hi"]).validate()).toBe(true);
    expect(new SimpleMessage([]).validate()).toBe(false);
    expect(new SimpleMessage(["hi", ""]).validate()).toBe(false);
    expect(new SimpleMessage([" "]).validate()).toBe(true);
  });
});

describe("the messages helpers on the convenience models", () => {
  const hitl = HitlMessages.inputRequest("Your email?", { inputType: "email", sessionId: "s1" });

  it("read a NovaOS payload from a SimpleMessage's metadata (the legacy format) or an ACP-shaped part", () => {
    const legacy = new SimpleMessage(["Your email?"], { metadata: { hitl: toJson(HitlMessageSchema, hitl) } });
    expect(extractHitlMessage(legacy)?.content).toBe("Your email?");
    const acp = new SimpleMessage([
      "Your email?",
      new MessagePart(JSON.stringify({ hitl: toJson(HitlMessageSchema, hitl) }), {
        contentType: NOVAOS_METADATA_MEDIA_TYPE,
      }),
    ]);
    expect(hasNovaOSMetadataPart(acp)).toBe(true);
    expect(extractHitlMessage(acp)?.sessionId).toBe("s1");
    expect(hasNovaOSMetadataPart(new SimpleMessage(["plain"]))).toBe(false);
  });

  it("tell a SimpleMessage from an A2A message, and validate it without A2A's envelope rules", () => {
    const simple = new SimpleMessage(["hi"]);
    expect(isA2AMessage(simple)).toBe(false);
    expect(isA2AMessage({ messageId: "m", role: "ROLE_USER", parts: [] })).toBe(true);
    expect(validateA2AEnvelope(simple)).toBe(true);
    expect(validateMessage(new SimpleMessage(["hi"], { metadata: { hitl: { content: "no type" } } }))).toBe(false);
  });
});
