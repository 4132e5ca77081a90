import { describe, expect, it } from "vitest";
import { ErrorMessageSchema } from "../../gen/novaos/v1/error_message_pb.js";
import { HitlResponseSchema } from "../../gen/novaos/v1/hitl_pb.js";
import { ProgressMessageSchema } from "../../gen/novaos/v1/progress_pb.js";
import { InvalidParamsError } from "../../src/a2a/errors.js";
import { decodeMessage } from "../../src/a2a/protojson.js";
import { NovaOSValidationError } from "../../src/errors/index.js";
import { ErrorMessages, ErrorType, errorMessage, progressMessage } from "../../src/messages/index.js";

describe("ErrorMessages", () => {
  it("makes a connection error retryable by default and the others not", () => {
    expect(ErrorMessages.connectionError("down").retryable).toBe(true);
    expect(ErrorMessages.connectionError("down", { retryable: false }).retryable).toBe(false);
    expect(ErrorMessages.notFoundError("gone").retryable).toBe(false);
    expect(ErrorMessages.validationError("bad").retryable).toBe(false);
    expect(ErrorMessages.notFoundError("gone").errorType).toBe(ErrorType.NOT_FOUND);
    expect(errorMessage("custom_kind", "m").errorType).toBe("custom_kind");
  });

  it("keeps details, suggestions and session", () => {
    const e = ErrorMessages.validationError("bad", {
      details: { field: "x" },
      recoverySuggestions: ["fix x"],
      sessionId: "s",
    });
    expect([e.details, e.recoverySuggestions, e.sessionId]).toEqual([{ field: "x" }, ["fix x"], "s"]);
  });
});

describe("reading payloads from JSON (the reference's from_dict)", () => {
  it.each([
    ["ErrorMessage without error_type", ErrorMessageSchema, { message: "x" }, "error_type"],
    ["HitlResponse without session_id", HitlResponseSchema, { action_id: "a" }, "session_id"],
    ["ProgressMessage without status", ProgressMessageSchema, { message: "m" }, "status"],
  ] as const)("refuses %s with a typed error naming the field", (_, schema, json, field) => {
    let thrown: unknown;
    try {
      decodeMessage(schema, json);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InvalidParamsError);
    expect(thrown).toBeInstanceOf(NovaOSValidationError);
    expect(JSON.stringify((thrown as InvalidParamsError).errorDetails)).toContain(`"field":"${field}"`);
  });

  it("reads a progress message it wrote", () => {
    const p = progressMessage("in_progress", "m", { progress: { percentage: 12.5 } });
    expect(
      decodeMessage(ProgressMessageSchema, { status: "in_progress", message: "m", progress: { percentage: 12.5 } }),
    ).toEqual(p);
  });
});
