import { create, toJson } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { MessageSchema, PartSchema, Role } from "../../gen/a2a_pb.js";
import { HitlMessageSchema } from "../../gen/novaos/v1/hitl_pb.js";
import { InvalidParamsError } from "../../src/a2a/errors.js";
import { encodeMessage } from "../../src/a2a/protojson.js";
import { NovaOSValidationError } from "../../src/errors/index.js";
import {
  a2aEnvelopeErrors,
  assertA2AEnvelope,
  createHitlMessage,
  createWriteConfirmationRequiredMessage,
  getMessageErrors,
  getValidationErrors,
  HitlMessages,
  MessageValidator,
  NOVAOS_METADATA_MEDIA_TYPE,
  validateA2AEnvelope,
  validateErrorMessage,
  validateHitlMessage,
  validateHitlResponse,
  validateMessage,
  validateProgressMessage,
} from "../../src/messages/index.js";

const tag = { content_type: NOVAOS_METADATA_MEDIA_TYPE };

describe("MessageValidator: the A2A envelope", () => {
  it("accepts a built message, generated or as JSON", () => {
    const m = createHitlMessage("?", "info");
    expect(validateA2AEnvelope(m)).toBe(true);
    expect(validateA2AEnvelope(toJson(MessageSchema, m))).toBe(true);
  });

  it("names every missing field precisely", () => {
    expect(a2aEnvelopeErrors({ messageId: "", role: "ROLE_UNSPECIFIED", parts: [] })).toEqual([
      { field: "messageId", description: "messageId is required" },
      { field: "role", description: "role is required" },
      { field: "parts", description: "parts is required" },
    ]);
    expect(
      a2aEnvelopeErrors(create(MessageSchema, { messageId: "m", role: Role.USER, parts: [create(PartSchema)] })),
    ).toEqual([{ field: "parts[0]", description: "a part needs one of text, raw, url or data" }]);
    expect(a2aEnvelopeErrors({ messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }, {}] })).toEqual([
      { field: "parts[1]", description: "a part needs one of text, raw, url or data" },
    ]);
  });

  it("reports a malformed field with its path", () => {
    const [v] = a2aEnvelopeErrors({ messageId: "m", role: "ROLE_USER", parts: [{ text: 5 }] });
    expect(v?.field).toBe("parts.text");
  });

  it("returns false for an A2A-shaped message with no parts, true for a non-A2A shape, and ignores kind", () => {
    expect(validateA2AEnvelope({ messageId: "m", role: "ROLE_AGENT", parts: [] })).toBe(false);
    expect(validateA2AEnvelope({ parts: [{ content: "" }], metadata: {} })).toBe(true);
    expect(validateA2AEnvelope({ kind: "message", parts: [] })).toBe(true);
    expect(validateA2AEnvelope({ kind: "message", messageId: "m", role: "ROLE_USER", parts: [] })).toBe(false);
    expect(validateA2AEnvelope({ kind: "wrong", messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }] })).toBe(
      true,
    );
  });

  it("assertA2AEnvelope throws -32602 with a BadRequest listing the violations", () => {
    let thrown: unknown;
    try {
      assertA2AEnvelope({ role: "ROLE_USER", parts: [] });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InvalidParamsError);
    expect(thrown).toBeInstanceOf(NovaOSValidationError);
    expect((thrown as InvalidParamsError).code).toBe(-32602);
    expect((thrown as InvalidParamsError).errorDetails[0]).toMatchObject({
      fieldViolations: [{ field: "messageId" }, { field: "parts" }],
    });
    expect(() => assertA2AEnvelope(createHitlMessage("?", "info"))).not.toThrow();
  });
});

describe("MessageValidator: NovaOS payloads", () => {
  it("lists the missing fields of an empty HITL payload and accepts a built one", () => {
    expect(getValidationErrors({}, "hitl")).toEqual([
      "hitl_type is required",
      "content is required",
      "requires_user_action is required",
    ]);
    const valid = encodeMessage(HitlMessageSchema, HitlMessages.infoMessage("fyi"));
    expect(getValidationErrors(valid, "hitl")).toEqual([]);
    expect(validateHitlMessage(valid)).toBe(true);
  });

  it("agrees between the boolean checks and the error lists", () => {
    const cases = [
      [validateErrorMessage, "error", { error_type: "t", message: "m" }, { message: "m" }],
      [validateProgressMessage, "progress", { status: "s", message: "m" }, { status: "s" }],
      [validateHitlResponse, "hitl_response", { action_id: "a", session_id: "s" }, { action_id: "a" }],
    ] as const;
    for (const [check, kind, good, bad] of cases) {
      expect(check(good)).toBe(true);
      expect(getValidationErrors(good, kind)).toEqual([]);
      expect(check(bad)).toBe(false);
      expect(getValidationErrors(bad, kind).length).toBeGreaterThan(0);
    }
  });

  it("reports type errors with the member path, and checks every member without a hint", () => {
    expect(getValidationErrors({ hitl: { content: 5 } })).toEqual(["hitl.content: expected string, got 5"]);
    expect(getValidationErrors({ error: { message: "m" }, progress: { status: "s", message: "m" } })).toEqual([
      "error.error_type is required",
    ]);
    expect(getValidationErrors({ unrelated: 1 })[0]).toMatch(/^no NovaOS payload/);
    expect(getValidationErrors("str")).toEqual(["payload must be a JSON object"]);
    expect(getValidationErrors({}, "bogus")[0]).toMatch(/^unknown message type "bogus"/);
    expect(getValidationErrors({ tool_events: [{ type: "tool.call" }] })).toEqual([
      "tool_events[0].call_id is required",
      "tool_events[0].tool_name is required",
    ]);
  });

  it("refuses a placeholder call_id on a write-confirmation payload, as the builder does", () => {
    expect(getValidationErrors({ call_id: "placeholder", tool_name: "t" }, "write_confirmation_required")).toEqual([
      'call_id: call_id "placeholder" is a placeholder, not the id of the pending tool call',
    ]);
    expect(getValidationErrors({ call_id: "call_1", tool_name: "t" }, "write_confirmation_required")).toEqual([]);
  });

  it("validates a whole message: envelope and every embedded payload", () => {
    expect(validateMessage(createWriteConfirmationRequiredMessage("?", "call_1", "t"))).toBe(true);
    const bad = { messageId: "m", role: "ROLE_AGENT", parts: [{ data: { hitl: { content: "x" } }, metadata: tag }] };
    expect(getMessageErrors(bad)).toEqual(["hitl.hitl_type is required", "hitl.requires_user_action is required"]);
    expect(validateMessage(bad)).toBe(false);
    expect(validateMessage({ messageId: "", role: "ROLE_AGENT", parts: [{ text: "x" }] })).toBe(false);
    expect(validateMessage({ parts: [{ content: "hi" }], metadata: { error: { message: "no type" } } })).toBe(false);
  });

  it("never throws on garbage", () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("x");
        },
        has() {
          throw new Error("x");
        },
      },
    );
    for (const input of [null, undefined, 1, "s", [], hostile, { messageId: 1, role: {}, parts: "x" }]) {
      expect(() => validateMessage(input)).not.toThrow();
      expect(() => getValidationErrors(input)).not.toThrow();
    }
    expect(validateA2AEnvelope({ messageId: 1, role: {}, parts: "x" })).toBe(false);
  });

  it("offers the reference's static-class spelling", () => {
    expect(MessageValidator.validateA2AEnvelope).toBe(validateA2AEnvelope);
  });
});
