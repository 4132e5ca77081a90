import { describe, expect, it } from "vitest";
import { HitlMessageSchema } from "../../gen/novaos/v1/hitl_pb.js";
import { encodeMessage } from "../../src/a2a/protojson.js";
import {
  DEFAULT_SUBMIT_ACTION,
  HitlMessages,
  HitlType,
  hitlDetails,
  InputType,
  validateHitlMessage,
} from "../../src/messages/index.js";

describe("HitlMessages factories", () => {
  it("plan confirmation: waits, carries the plan and the given actions", () => {
    const h = HitlMessages.planConfirmation("Run it?", { steps: [1] }, [{ id: "go", label: "Go", style: "primary" }], {
      sessionId: "s",
    });
    expect([h.hitlType, h.requiresUserAction, h.sessionId]).toEqual([HitlType.PLAN_CONFIRMATION, true, "s"]);
    expect(h.actions.map((a) => a.id)).toEqual(["go"]);
    expect(hitlDetails(h).plan).toEqual({ steps: [1] });
  });

  it("input request: defaults to text, takes any string type, and has no buttons unless given", () => {
    const h = HitlMessages.inputRequest("Name?");
    expect(hitlDetails(h).inputType).toBe(InputType.TEXT);
    expect(h.actions).toEqual([]);
    expect(hitlDetails(HitlMessages.inputRequest("Color?", { inputType: "color-wheel" })).inputType).toBe(
      "color-wheel",
    );
    const withActions = HitlMessages.inputRequest("Name?", { actions: [{ id: "skip", label: "Skip" }] });
    expect(withActions.actions.map((a) => a.id)).toEqual(["skip"]);
    const validated = HitlMessages.inputRequest("Age?", {
      inputType: InputType.NUMBER,
      validation: { minValue: 0, maxValue: 150, options: [{ value: "a", label: "A" }] },
    });
    expect(hitlDetails(validated).validation).toMatchObject({ minValue: 0, maxValue: 150, options: [{ value: "a" }] });
  });

  it("batch input request: one default Submit action, or exactly the given ones", () => {
    const fields = [{ name: "email", label: "Email", inputType: "email", validation: { required: true } }];
    const h = HitlMessages.batchInputRequest("Fill in", fields);
    expect(h.actions).toHaveLength(1);
    expect(h.actions[0]).toMatchObject(DEFAULT_SUBMIT_ACTION);
    expect(hitlDetails(h).fields?.[0]).toMatchObject({
      name: "email",
      inputType: "email",
      validation: { required: true },
    });
    const custom = HitlMessages.batchInputRequest("Fill in", fields, {
      actions: [
        { id: "a", label: "A" },
        { id: "b", label: "B" },
      ],
    });
    expect(custom.actions.map((a) => a.id)).toEqual(["a", "b"]);
  });

  it("notices do not wait; an error notification waits only when asked", () => {
    expect(HitlMessages.executionProgress("…", { percentage: 10 }).requiresUserAction).toBe(false);
    expect(HitlMessages.infoMessage("fyi").requiresUserAction).toBe(false);
    expect(HitlMessages.successMessage("done", { result: { id: 1 } }).requiresUserAction).toBe(false);
    const err = HitlMessages.errorNotification("Failed", "timeout", { recoverySuggestions: ["retry"] });
    expect(err.requiresUserAction).toBe(false);
    expect(hitlDetails(err)).toMatchObject({ errorType: "timeout", recoverySuggestions: ["retry"] });
    expect(HitlMessages.errorNotification("Failed", "timeout", { requiresUserAction: true }).requiresUserAction).toBe(
      true,
    );
    expect(hitlDetails(HitlMessages.executionProgress("…", { currentStep: 2, totalSteps: 5 })).progress).toMatchObject({
      currentStep: 2,
      totalSteps: 5,
    });
    expect(hitlDetails(HitlMessages.successMessage("done", { result: { id: 1 } })).result).toEqual({ id: 1 });
  });

  it("lets the factory's own metadata win over the caller's, and keeps the caller's other keys", () => {
    const h = HitlMessages.planConfirmation("?", { real: true }, [], { metadata: { plan: "forged", trace: "t1" } });
    expect(h.metadata).toEqual({ plan: { real: true }, trace: "t1" });
  });

  it("reads malformed factory data as undefined instead of throwing", () => {
    const d = hitlDetails({
      metadata: {
        plan: [1],
        input_type: 3,
        validation: { min_length: "x" },
        fields: [{ name: 1 }],
        recovery_suggestions: [1],
      },
    });
    expect(d).toEqual({
      plan: undefined,
      inputType: undefined,
      validation: undefined,
      fields: undefined,
      progress: undefined,
      errorType: undefined,
      recoverySuggestions: undefined,
      result: undefined,
    });
  });

  it("produces payloads the validator accepts", () => {
    for (const h of [
      HitlMessages.planConfirmation("?", {}, [{ id: "a", label: "A" }]),
      HitlMessages.inputRequest("?"),
      HitlMessages.batchInputRequest("?", [{ name: "n", label: "N" }]),
      HitlMessages.executionProgress("?", {}),
      HitlMessages.errorNotification("?", "x"),
      HitlMessages.infoMessage("?"),
      HitlMessages.successMessage("?"),
    ]) {
      expect(validateHitlMessage(encodeMessage(HitlMessageSchema, h))).toBe(true);
    }
  });
});
