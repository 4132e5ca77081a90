import { describe, expect, it } from "vitest";
import { formatExtensionsHeader, parseExtensionsHeader } from "../../src/a2a/extensions-header.js";

describe("A2A-Extensions", () => {
  it("parses comma lists across repeated header lines, any casing, trimmed, sorted, de-duplicated", () => {
    const headers = { "a2a-extensions": ["https://b.example/v1, https://a.example/v1", " https://b.example/v1,,"] };
    expect(parseExtensionsHeader(headers)).toEqual(["https://a.example/v1", "https://b.example/v1"]);
    expect(
      parseExtensionsHeader(
        new Headers([
          ["A2A-EXTENSIONS", "x:1"],
          ["a2a-extensions", "x:0"],
        ]),
      ),
    ).toEqual(["x:0", "x:1"]);
    expect(parseExtensionsHeader({})).toEqual([]);
  });

  it("compares URIs exactly (no normalisation)", () => {
    expect(parseExtensionsHeader({ "A2A-Extensions": "https://a/v1,https://a/v1/" })).toEqual([
      "https://a/v1",
      "https://a/v1/",
    ]);
  });

  it("formats sorted and de-duplicated, and omits the header when empty", () => {
    expect(formatExtensionsHeader(["u:b", "u:a", "u:b", " "])).toBe("u:a,u:b");
    expect(formatExtensionsHeader([])).toBeUndefined();
    expect(formatExtensionsHeader(["", "  "])).toBeUndefined();
  });

  it("sorts by code point, not UTF-16 unit", () => {
    // U+FF5E (BMP) sorts before U+1F600 by code point but after it by UTF-16 units.
    expect(formatExtensionsHeader(["x:\u{1F600}", "x:\uFF5E"])).toBe("x:\uFF5E,x:\u{1F600}");
  });
});
