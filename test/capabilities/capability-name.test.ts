import { describe, expect, it } from "vitest";
import {
  CONTAINED_NAME_SIMILARITY,
  capabilitySimilarity,
  DEFAULT_SIMILARITY_THRESHOLD,
  matchCapabilities,
  normalizeCapabilityName,
} from "../../src/capabilities/index.js";
import { NovaOSValidationError } from "../../src/errors/index.js";

describe("capability names", () => {
  it("holds the reference's printed normalisation examples", () => {
    expect(normalizeCapabilityName("Web Scraping")).toBe("web-scraping");
    expect(normalizeCapabilityName("web_scraping")).toBe("web-scraping");
    expect(normalizeCapabilityName("API Integration")).toBe("api-integration");
    expect(normalizeCapabilityName("Web-Scraping")).toBe("web-scraping");
  });

  it("joins words with one hyphen and drops every other character, camelCase and width folded", () => {
    expect(normalizeCapabilityName("  Web-Search ")).toBe("web-search");
    expect(normalizeCapabilityName("web__search")).toBe("web-search");
    expect(normalizeCapabilityName("web - search!")).toBe("web-search");
    expect(normalizeCapabilityName("WebSearch")).toBe("web-search");
    expect(normalizeCapabilityName("HTTPServerV2")).toBe("http-server-v2");
    expect(normalizeCapabilityName("ＷｅｂＳｅａｒｃｈ")).toBe("web-search");
    expect(normalizeCapabilityName("résumé.parse")).toBe("résumé-parse");
    expect(normalizeCapabilityName("C++ tools")).toBe("c-tools");
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
    ["api", "API Integration", 0.6],
    ["web", "web-search", 0.6],
    ["search", "web search", 0.8],
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

describe("matchCapabilities", () => {
  it("holds the reference's printed examples", () => {
    expect(matchCapabilities("web scraping", ["Web Scraping", "Data Analysis"], 0.8)).toEqual(["Web Scraping", 1.0]);
    expect(matchCapabilities("api", ["API Integration", "Data Analysis"], 0.5)).toEqual(["API Integration", 0.6]);
  });

  it("scores a name contained word for word at 0.6, under the default threshold", () => {
    expect(CONTAINED_NAME_SIMILARITY).toBe(0.6);
    expect(matchCapabilities("api", ["API Integration", "Data Analysis"])).toBeUndefined();
    expect(matchCapabilities("data", ["Data Analysis"], 0.6)).toEqual(["Data Analysis", 0.6]);
    // Whole words only: "data" is not a word of "database-admin".
    expect(capabilitySimilarity("data", "database-admin")).toBeLessThan(0.6);
  });

  it("takes the most similar name, the first of equals, and defaults the threshold to 0.8", () => {
    expect(matchCapabilities("summarize", ["summarise", "summarize"])).toEqual(["summarize", 1]);
    expect(matchCapabilities("web search", ["websearch", "web_search"])).toEqual(["websearch", 1]);
    expect(matchCapabilities("summarize", ["image generation", "summarise"])?.[0]).toBe("summarise");
    expect(matchCapabilities("translate", ["translation"])).toEqual(["translation", expect.closeTo(0.8, 3)]);
    expect(matchCapabilities("web-search", ["web-scraping"])).toBeUndefined();
    expect(matchCapabilities("anything", [])).toBeUndefined();
  });

  it("refuses a threshold outside [0, 1]", () => {
    expect(() => matchCapabilities("a", ["a"], 1.5)).toThrow(NovaOSValidationError);
    expect(() => matchCapabilities("a", ["a"], Number.NaN)).toThrow(NovaOSValidationError);
  });
});
