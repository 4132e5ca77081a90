import { clone, equals, type JsonObject, toJson } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { type Message, MessageSchema, Role } from "../../gen/a2a_pb.js";
import { NovaOSValidationError } from "../../src/errors/index.js";
import {
  createErrorMessage,
  createHitlMessage,
  createMessageWithHitl,
  createMessageWithHitlResponse,
  createOauthRequiredMessage,
  createProgressMessage,
  createWriteConfirmationRequiredMessage,
  ErrorMessages,
  embedErrorMessage,
  embedHitlMessage,
  embedHitlResponse,
  embedProgressMessage,
  extractHitlMessage,
  extractOAuthRequired,
  extractWriteConfirmationRequired,
  HitlMessages,
  hitlResponse,
  MessageBuilder,
  NOVAOS_METADATA_MEDIA_TYPE,
  NOVAOS_METADATA_PART_KEY,
  NOVAOS_PAUSE_OAUTH_KEY,
  NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY,
  progressMessage,
} from "../../src/messages/index.js";

const wire = (m: Message) => toJson(MessageSchema, m) as JsonObject & { parts: JsonObject[] };
const dataOf = (m: Message) => (wire(m).parts[1] as { data: JsonObject }).data;

describe("MessageBuilder", () => {
  it("builds a HITL message as a v1.0 A2A message: text part, then the tagged data part, no kind", () => {
    const m = createHitlMessage("Approve?", "plan_confirmation", {
      plan: { steps: ["a", "b"] },
      actions: [{ id: "approve", label: "Approve" }],
    });
    const json = wire(m);
    expect(json.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(json.role).toBe("ROLE_AGENT");
    expect(json.parts).toHaveLength(2);
    expect(json.parts[0]).toEqual({ text: "Approve?" });
    expect(json.parts[1]).toMatchObject({
      metadata: { [NOVAOS_METADATA_PART_KEY]: NOVAOS_METADATA_MEDIA_TYPE },
      mediaType: NOVAOS_METADATA_MEDIA_TYPE,
    });
    expect(JSON.stringify(json)).not.toContain('"kind"');
    expect(dataOf(m)).toEqual({
      hitl: {
        hitl_type: "plan_confirmation",
        content: "Approve?",
        requires_user_action: true,
        metadata: { plan: { steps: ["a", "b"] } },
        actions: [{ id: "approve", label: "Approve" }],
      },
    });
  });

  it("gives every message a fresh messageId", () => {
    const a = createErrorMessage("x", "timeout");
    const b = createErrorMessage("x", "timeout");
    expect(a.messageId).not.toBe(b.messageId);
  });

  it("makes the HITL response ROLE_USER and everything else ROLE_AGENT", () => {
    expect(createMessageWithHitlResponse("yes", "approve", "ctx").role).toBe(Role.USER);
    const agentMessages = [
      createErrorMessage("e", "timeout"),
      createHitlMessage("h", "info"),
      createMessageWithHitl("h", HitlMessages.infoMessage("h")),
      createOauthRequiredMessage("o", "gmail", "https://auth.example/o"),
      createWriteConfirmationRequiredMessage("w", "call_1", "gmail.send"),
      createProgressMessage("p", "in_progress", { percentage: 50 }),
    ];
    for (const m of agentMessages) expect(m.role).toBe(Role.AGENT);
  });

  it("uses the session id as contextId, lets contextId and taskId be set, and sets no task state", () => {
    const m = createHitlMessage("h", "input_request", { sessionId: "ctx-1" });
    expect([m.contextId, m.taskId]).toEqual(["ctx-1", ""]);
    const r = createMessageWithHitlResponse("yes", "approve", "ctx-1", { taskId: "task-9", inputValue: "42" });
    expect([r.contextId, r.taskId]).toEqual(["ctx-1", "task-9"]);
    expect(dataOf(r)).toEqual({ hitl_response: { action_id: "approve", session_id: "ctx-1", input_value: "42" } });
    const o = createOauthRequiredMessage("o", "gmail", "https://a.example", { contextId: "c", taskId: "t" });
    expect([o.contextId, o.taskId]).toEqual(["c", "t"]);
    expect(Object.keys(wire(o))).not.toContain("status");
  });

  it("puts a non-default content type in the text part's mediaType, and leaves text/plain implicit", () => {
    const hitl = HitlMessages.infoMessage("**hi**");
    expect(wire(createMessageWithHitl("**hi**", hitl, { contentType: "text/markdown" })).parts[0]).toEqual({
      text: "**hi**",
      mediaType: "text/markdown",
    });
    expect(wire(createMessageWithHitl("hi", hitl)).parts[0]).toEqual({ text: "hi" });
    expect(wire(createMessageWithHitl("hi", hitl, { contentType: "Text/Plain; charset=utf-8" })).parts[0]).toEqual({
      text: "hi",
    });
  });

  it("packs input type and validation into the HITL metadata, defaulting requiresUserAction by type", () => {
    const m = createHitlMessage("Email?", "input_request", {
      inputType: "email",
      validation: { required: true, pattern: "^.+@.+$", minLength: 3 },
    });
    expect(dataOf(m)).toEqual({
      hitl: {
        hitl_type: "input_request",
        content: "Email?",
        requires_user_action: true,
        metadata: { input_type: "email", validation: { required: true, pattern: "^.+@.+$", min_length: 3 } },
      },
    });
    expect(extractHitlMessage(createHitlMessage("fyi", "info"))?.requiresUserAction).toBe(false);
    expect(extractHitlMessage(createHitlMessage("fyi", "info", { requiresUserAction: true }))?.requiresUserAction).toBe(
      true,
    );
  });

  it("builds error and progress messages whose payload message is the shown text", () => {
    expect(
      dataOf(createErrorMessage("DB down", "connection_error", { retryable: true, details: { host: "db" } })),
    ).toEqual({
      error: { error_type: "connection_error", message: "DB down", details: { host: "db" }, retryable: true },
    });
    expect(
      dataOf(createProgressMessage("Halfway", "in_progress", { percentage: 50, currentStep: 2, totalSteps: 4 })),
    ).toEqual({
      progress: {
        status: "in_progress",
        message: "Halfway",
        progress: { percentage: 50, current_step: 2, total_steps: 4 },
      },
    });
  });

  describe("write confirmation", () => {
    it("carries the real call_id and tool_name verbatim under the write-confirmation key", () => {
      const m = createWriteConfirmationRequiredMessage("Send it?", "call_123", "gmail.send", { sessionId: "ctx" });
      expect(dataOf(m)).toEqual({
        [NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY]: { call_id: "call_123", tool_name: "gmail.send", session_id: "ctx" },
      });
    });

    it("merges extra metadata beside the payload without letting it replace call_id or tool_name", () => {
      const m = createWriteConfirmationRequiredMessage("Send it?", "call_123", "gmail.send", {
        metadata: { call_id: "forged", callId: "forged", tool_name: "rm", recipients: ["a@b.c"] },
      });
      expect(dataOf(m)).toEqual({
        [NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY]: { recipients: ["a@b.c"], call_id: "call_123", tool_name: "gmail.send" },
      });
      expect(extractWriteConfirmationRequired(m)?.extra).toEqual({ recipients: ["a@b.c"] });
    });

    it.each([
      "",
      "   ",
      " call_1",
      "placeholder",
      "PLACEHOLDER",
      "call_id",
      "TODO",
      "unknown",
      "null",
      "undefined",
      "<call_id>",
      "{call_id}",
      "{{call_id}}",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an unfilled template literal is the case under test.
      "${callId}",
      "%s",
    ])("refuses the call id %j", (callId) => {
      const build = () => createWriteConfirmationRequiredMessage("Send?", callId, "gmail.send");
      expect(build).toThrow(NovaOSValidationError);
      try {
        build();
      } catch (e) {
        expect((e as NovaOSValidationError).field).toBe("callId");
      }
    });

    it.each(["call_123", "toolu_01A09q90qw90lq917835lq9", "c-0001"])("accepts the real call id %j", (callId) => {
      expect(
        extractWriteConfirmationRequired(createWriteConfirmationRequiredMessage("?", callId, "t"))?.payload.callId,
      ).toBe(callId);
    });

    it("refuses an empty tool name", () => {
      expect(() => createWriteConfirmationRequiredMessage("?", "call_1", " ")).toThrow(NovaOSValidationError);
    });
  });

  describe("OAuth pause", () => {
    it("puts connector and auth_url under the OAuth key, extra fields beside them", () => {
      const m = createOauthRequiredMessage("Connect Gmail", "gmail", "https://auth.example/start?x=1", {
        metadata: { scopes: ["mail.send"], connector: "forged", auth_url: "javascript:alert(1)" },
      });
      expect(dataOf(m)).toEqual({
        [NOVAOS_PAUSE_OAUTH_KEY]: {
          scopes: ["mail.send"],
          connector: "gmail",
          auth_url: "https://auth.example/start?x=1",
        },
      });
      expect(extractOAuthRequired(m)?.payload.authUrl).toBe("https://auth.example/start?x=1");
    });

    it.each(["", "not a url", "/relative", "javascript:alert(1)", "data:text/html,x", "ftp://x.example"])(
      "refuses the auth URL %j",
      (url) => {
        expect(() => createOauthRequiredMessage("c", "gmail", url)).toThrow(NovaOSValidationError);
      },
    );

    it("refuses an empty connector", () => {
      expect(() => createOauthRequiredMessage("c", "", "https://a.example")).toThrow(NovaOSValidationError);
    });
  });

  describe("embed", () => {
    const base = (): Message => createErrorMessage("first", "timeout", { contextId: "ctx", taskId: "t" });
    const cases = [
      ["embedErrorMessage", (m: Message) => embedErrorMessage(m, ErrorMessages.notFoundError("gone")), "error"],
      ["embedHitlMessage", (m: Message) => embedHitlMessage(m, HitlMessages.infoMessage("fyi")), "hitl"],
      ["embedHitlResponse", (m: Message) => embedHitlResponse(m, hitlResponse("ok", "ctx")), "hitl_response"],
      [
        "embedProgressMessage",
        (m: Message) => embedProgressMessage(m, progressMessage("completed", "done")),
        "progress",
      ],
    ] as const;

    it.each(cases)("%s returns a new message with one more part and leaves the input alone", (_, embed, key) => {
      const original = base();
      const snapshot = clone(MessageSchema, original);
      const out = embed(original);
      expect(equals(MessageSchema, original, snapshot)).toBe(true);
      expect(out).not.toBe(original);
      expect(out.parts).toHaveLength(original.parts.length + 1);
      expect([out.messageId, out.role, out.contextId, out.taskId]).toEqual([
        original.messageId,
        original.role,
        original.contextId,
        original.taskId,
      ]);
      const added = toJson(MessageSchema, out) as { parts: { data?: JsonObject }[] };
      expect(Object.keys(added.parts.at(-1)?.data ?? {})).toEqual([key]);
      out.parts[0] = out.parts[1] as never;
      expect(equals(MessageSchema, original, snapshot)).toBe(true);
    });
  });

  it("offers the same functions as the reference's static class", () => {
    expect(MessageBuilder.createWriteConfirmationRequiredMessage).toBe(createWriteConfirmationRequiredMessage);
    expect(Object.keys(MessageBuilder)).toHaveLength(12);
  });
});
