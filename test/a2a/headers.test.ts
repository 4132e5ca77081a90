/**
 * Header lookups over every shape a framework hands over: names compare
 * case-insensitively, repeated lines join with ", " in order, and an absent
 * header is undefined (never "").
 */
import { describe, expect, it } from "vitest";
import { type HeadersLike, headerValue, headerValues } from "../../src/a2a/headers.js";

const shapes: [string, HeadersLike][] = [
  ["a node record", { "a2a-version": "1.0", "x-many": ["a", "b"], host: "h" }],
  ["a record with mixed-case names", { "A2A-Version": "1.0", "X-Many": ["a", "b"], Host: "h" }],
  ["a record that spells one name twice", { "x-many": "a", "X-MANY": ["b"], "A2A-VERSION": "1.0", host: "h" }],
  [
    "Fetch Headers",
    new Headers([
      ["A2A-Version", "1.0"],
      ["X-Many", "a"],
      ["x-many", "b"],
      ["Host", "h"],
    ]),
  ],
  [
    "a Map",
    new Map<string, string | string[]>([
      ["A2A-Version", "1.0"],
      ["x-many", ["a", "b"]],
      ["host", "h"],
    ]),
  ],
  [
    "an entry list",
    [
      ["a2a-version", "1.0"],
      ["X-Many", "a"],
      ["x-many", "b"],
      ["host", "h"],
    ] as [string, string][],
  ],
];

describe("headerValue", () => {
  for (const [what, headers] of shapes) {
    it(`reads ${what}`, () => {
      expect(headerValue(headers, "a2a-version")).toBe("1.0");
      expect(headerValue(headers, "A2A-Version")).toBe("1.0");
      expect(headerValue(headers, "x-many")).toBe("a, b");
      expect(headerValue(headers, "absent")).toBeUndefined();
      expect(headerValue(headers, "x-many")).toBe(headerValues(headers, "x-many").join(", "));
    });
  }

  it("treats an empty list of lines and an undefined value as absent", () => {
    const headers = { "x-empty": [] as string[], "x-undefined": undefined };
    expect(headerValue(headers, "x-empty")).toBeUndefined();
    expect(headerValue(headers, "x-undefined")).toBeUndefined();
    expect(headerValue(undefined, "x")).toBeUndefined();
    expect(headerValue(null, "x")).toBeUndefined();
  });

  it("keeps an empty line as an empty value", () => {
    expect(headerValue({ "x-blank": "" }, "x-blank")).toBe("");
    expect(headerValue({ "x-blank": ["", "b"] }, "x-blank")).toBe(", b");
  });
});
