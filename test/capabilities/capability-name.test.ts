import { describe, expect, it } from "vitest";
import {
  capabilitySimilarity,
  DEFAULT_SIMILARITY_THRESHOLD,
  normalizeCapabilityName,
} from "../../src/capabilities/index.js";

describe("capability names", () => {
  it("normalises separators, case, camelCase and width", () => {
    expect(normalizeCapabilityName("  Web-Search ")).toBe("web search");
    expect(normalizeCapabilityName("web__search")).toBe("web search");
    expect(normalizeCapabilityName("WebSearch")).toBe("web search");
    expect(normalizeCapabilityName("HTTPServerV2")).toBe("http server v2");
    expect(normalizeCapabilityName("ＷｅｂＳｅａｒｃｈ")).toBe("web search");
    expect(normalizeCapabilityName("résumé.parse")).toBe("résumé parse");
  });

  // The reference's examples and the scores the documented algorithm (decision C1) gives.
  it.each([
    ["web-search", "web_search", 1],
    ["web-search", "websearch", 1],
    ["web-search", "WebSearch", 1],
    ["search web", "web search", 1],
    ["pdf-parse", "parse-pdf", 1],
    ["code-review", "code_reviewer", 0.909],
    ["summarize", "summarise", 0.889],
    ["calendar", "calender", 0.875],
    ["translate", "translation", 0.8],
    ["sql", "nosql", 0.75],
    ["web-search", "web-scraping", 0.5],
    ["web-search", "image-generation", 0.25],
  ] as const)("%s ~ %s = %d", (a, b, expected) => {
    expect(capabilitySimilarity(a, b)).toBeCloseTo(expected, 3);
    expect(capabilitySimilarity(b, a)).toBeCloseTo(expected, 3);
  });

  it("puts near misses over the default threshold and distant names under it", () => {
    expect(DEFAULT_SIMILARITY_THRESHOLD).toBe(0.8);
    expect(capabilitySimilarity("web-search", "websearch")).toBeGreaterThanOrEqual(0.8);
    expect(capabilitySimilarity("web-search", "image-generation")).toBeLessThan(0.8);
  });

  it("compares names as given without normalisation", () => {
    expect(capabilitySimilarity("web-search", "web_search", { normalize: false })).toBeCloseTo(0.9, 3);
    expect(capabilitySimilarity("Web", "web", { normalize: false })).toBeCloseTo(2 / 3, 3);
    expect(capabilitySimilarity("a", "a", { normalize: false })).toBe(1);
  });
});
