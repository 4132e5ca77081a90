import { describe, expect, it } from "vitest";
import { similarityRatio } from "../../src/capabilities/similarity.js";

describe("similarityRatio", () => {
  // Expected values from CPython's difflib.SequenceMatcher(None, a, b).ratio().
  it.each([
    ["summarization", "summarisation", 0.9230769230769231],
    ["translate", "translation", 0.8],
    ["search", "research", 0.8571428571428571],
    ["code-review", "code_review", 0.9090909090909091],
    ["abcd", "bcda", 0.75],
    ["chat", "chart", 0.8888888888888888],
    ["weather", "whether", 0.8571428571428571],
    ["a", "", 0],
    ["", "", 1],
  ])("ratio(%j, %j) is difflib's %d", (a, b, expected) => {
    expect(similarityRatio(a, b)).toBeCloseTo(expected, 12);
  });

  it("counts code points, not UTF-16 units", () => {
    expect(similarityRatio("🎉a", "🎉b")).toBe(0.5);
  });
});
