/** Request ids every store can hold (decision S694): the rule itself; the bindings' answers are in request-validation. */
import { describe, expect, it } from "vitest";
import { InvalidParamsError } from "../../src/a2a/errors.js";
import { checkId, checkIds, isStorableText } from "../../src/server/request-ids.js";

describe("request ids", () => {
  it("refuses NUL and an unpaired surrogate, and takes any other text, empty included", () => {
    for (const bad of ["\u0000", "a\u0000", "\ud800", "x\udc00y", "\udc00\ud800"])
      expect(isStorableText(bad)).toBe(false);
    for (const good of ["", "task-1", "\u0001\u001f", "caf\u00e9", "\ud83d\ude00", "\u2028"]) {
      expect(isStorableText(good)).toBe(true);
    }
  });

  it("answers invalid params naming the field, and the index in a list", () => {
    expect(() => checkId("ok", "id")).not.toThrow();
    expect(() => checkId("a\ud800", "message.contextId")).toThrow(InvalidParamsError);
    expect(() => checkId("a\ud800", "message.contextId")).toThrow(
      "Invalid parameters: message.contextId holds NUL or an unpaired surrogate, which no id may",
    );
    expect(() => checkIds(["r-1", "r\u0000"], "message.referenceTaskIds")).toThrow(/message\.referenceTaskIds\[1\]/);
  });
});
