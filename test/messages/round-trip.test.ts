/**
 * Every NovaOS payload survives the trip a real exchange puts it through:
 * builder → wire JSON text → decoded A2A message → parser, equal to what was built.
 */
import { equals, type JsonObject } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { type Message, MessageSchema } from "../../gen/a2a_pb.js";
import { ErrorMessageSchema, SkillErrorSchema } from "../../gen/novaos/v1/error_message_pb.js";
import { HitlMessageSchema, HitlResponseSchema } from "../../gen/novaos/v1/hitl_pb.js";
import { OAuthRequiredSchema, WriteConfirmationRequiredSchema } from "../../gen/novaos/v1/pause_pb.js";
import { ProgressMessageSchema } from "../../gen/novaos/v1/progress_pb.js";
import { ToolEventSchema } from "../../gen/novaos/v1/tool_event_pb.js";
import { decodeMessage, encodeMessage } from "../../src/a2a/protojson.js";
import {
  createMessageWithHitl,
  createMessageWithHitlResponse,
  createOauthRequiredMessage,
  createWriteConfirmationRequiredMessage,
  ErrorMessages,
  embedErrorMessage,
  embedProgressMessage,
  extractErrorMessage,
  extractHitlMessage,
  extractHitlResponse,
  extractOAuthRequired,
  extractProgressMessage,
  extractSkillError,
  extractToolEvents,
  extractWriteConfirmationRequired,
  HitlMessages,
  hitlResponse,
  progressMessage,
  skillErrorPart,
  toolCallEvent,
  toolEventsPart,
  toolResultEvent,
} from "../../src/messages/index.js";

/** Through the wire: JSON text and back, as a server would read it. */
function overTheWire(message: Message): Message {
  const text = JSON.stringify(encodeMessage(MessageSchema, message));
  return decodeMessage(MessageSchema, JSON.parse(text) as JsonObject);
}

const hitls = [
  HitlMessages.planConfirmation("Plan?", { steps: ["a"], nested: { n: 1.5, b: false, z: null } }, [
    { id: "approve", label: "Approve", style: "primary" },
    { id: "reject", label: "Reject", style: "danger" },
  ]),
  HitlMessages.inputRequest("Email?", {
    inputType: "email",
    sessionId: "ctx",
    validation: {
      required: true,
      minLength: 3,
      maxLength: 99,
      minValue: -1.5,
      maxValue: 2,
      pattern: "^\\S+@\\S+$",
      patternMessage: "an email",
      placeholder: "you@x",
      defaultValue: "",
      options: [{ value: "a", label: "A" }],
    },
  }),
  HitlMessages.batchInputRequest("Form", [
    { name: "a", label: "A", inputType: "number", description: "d", validation: { required: false } },
  ]),
  HitlMessages.executionProgress("…", {
    percentage: 0,
    currentStep: 0,
    totalSteps: 3,
    stepName: "s",
    estimatedSecondsRemaining: 1.25,
  }),
  HitlMessages.errorNotification("Err", "timeout", { recoverySuggestions: ["r"], requiresUserAction: true }),
  HitlMessages.infoMessage("fyi", { metadata: { k: ["v"] } }),
  HitlMessages.successMessage("ok", { result: { id: 7 } }),
];

describe("round trip through the wire", () => {
  it.each(hitls.map((h) => [h.hitlType, h] as const))("HITL %s", (_, hitl) => {
    const read = extractHitlMessage(overTheWire(createMessageWithHitl(hitl.content, hitl)));
    expect(read && equals(HitlMessageSchema, read, hitl)).toBe(true);
  });

  it("HITL response", () => {
    const response = hitlResponse("approve", "ctx", { inputValue: "", metadata: { a: 1 } });
    const message = createMessageWithHitlResponse("ok", "approve", "ctx", { inputValue: "", metadata: { a: 1 } });
    const read = extractHitlResponse(overTheWire(message));
    expect(read && equals(HitlResponseSchema, read, response)).toBe(true);
    expect(read?.inputValue).toBe("");
  });

  it("error and progress (embedded)", () => {
    const error = ErrorMessages.connectionError("down", { details: { host: "h" }, recoverySuggestions: ["wait"] });
    const progress = progressMessage("in_progress", "half", { progress: { percentage: 50 }, metadata: { m: 1 } });
    const message = embedProgressMessage(embedErrorMessage(createMessageWithHitl("x", hitls[5]!), error), progress);
    const wire = overTheWire(message);
    const readError = extractErrorMessage(wire);
    const readProgress = extractProgressMessage(wire);
    expect(readError && equals(ErrorMessageSchema, readError, error)).toBe(true);
    expect(readProgress && equals(ProgressMessageSchema, readProgress, progress)).toBe(true);
  });

  it("OAuth and write-confirmation pauses, extra fields included", () => {
    const oauth = extractOAuthRequired(
      overTheWire(
        createOauthRequiredMessage("c", "gmail", "https://a.example/x", { sessionId: "s", metadata: { n: 1 } }),
      ),
    );
    expect(oauth?.extra).toEqual({ n: 1 });
    expect(
      oauth &&
        equals(OAuthRequiredSchema, oauth.payload, {
          $typeName: "novaos.v1.OAuthRequired",
          connector: "gmail",
          authUrl: "https://a.example/x",
          sessionId: "s",
        }),
    ).toBe(true);
    const write = extractWriteConfirmationRequired(
      overTheWire(createWriteConfirmationRequiredMessage("w", "call_42", "gmail.send", { metadata: { to: ["x"] } })),
    );
    expect(write?.extra).toEqual({ to: ["x"] });
    expect(
      write &&
        equals(WriteConfirmationRequiredSchema, write.payload, {
          $typeName: "novaos.v1.WriteConfirmationRequired",
          callId: "call_42",
          toolName: "gmail.send",
          sessionId: "",
        }),
    ).toBe(true);
  });

  it("skill error and tool events", () => {
    const base = createMessageWithHitl("x", hitls[5]!);
    const at = new Date("2026-05-06T07:08:09.010Z");
    const events = [
      toolCallEvent("c", "kb.search", { q: "q", n: 3 }, at),
      toolResultEvent("c", "kb.search", { success: false, error: "boom", result: null, durationMs: 5 }, at),
    ];
    const message = { ...base, parts: [...base.parts, skillErrorPart("failed", "FAILED"), toolEventsPart(events)] };
    const wire = overTheWire(message);
    const skillError = extractSkillError(wire);
    expect(
      skillError &&
        equals(SkillErrorSchema, skillError, {
          $typeName: "novaos.v1.SkillError",
          message: "failed",
          status: "FAILED",
        }),
    ).toBe(true);
    const read = extractToolEvents(wire);
    expect(read).toHaveLength(2);
    expect(read.map((e, i) => equals(ToolEventSchema, e, events[i]!))).toEqual([true, true]);
  });
});
