import { describe, expect, it } from "vitest";
import { CapabilityMatcher } from "../../src/capabilities/index.js";
import { NovaOSValidationError } from "../../src/errors/index.js";

const agents = [
  { id: "searcher", capabilities: ["web-search"] },
  { id: "both", capabilities: ["web_search"], metadata: { capabilities: [{ name: "summarize" }] } },
  { id: "fuzzy-both", capabilities: ["websearch", "summarise"] },
  { id: "painter", capabilities: ["image-generation"] },
  { id: "none" },
];
const ids = (rs: { agent: { id: string } }[]) => rs.map((r) => r.agent.id);

describe("CapabilityMatcher", () => {
  it("'all' returns only agents having every capability, exact before fuzzy", () => {
    const results = new CapabilityMatcher().match(agents, ["web-search", "summarize"], "all");
    expect(ids(results)).toEqual(["both", "fuzzy-both"]);
    expect(results[0]?.score).toBe(1);
    expect(results[1]?.score).toBeCloseTo((1 + 0.889) / 2, 3);
    expect(results[1]?.matches).toEqual([
      { required: "web-search", capability: "websearch", similarity: 1 },
      { required: "summarize", capability: "summarise", similarity: expect.closeTo(0.889, 3) },
    ]);
  });

  it("'any' (the default) returns agents with at least one, sorted by score, ties in input order", () => {
    const results = new CapabilityMatcher().match(agents, ["web-search", "summarize"]);
    expect(ids(results)).toEqual(["both", "fuzzy-both", "searcher"]);
    const searcher = results[2];
    expect(searcher?.score).toBe(0.5);
    expect([searcher?.matchedCapabilities, searcher?.missingCapabilities]).toEqual([["web-search"], ["summarize"]]);
    const ties = new CapabilityMatcher().match(agents, ["web-search"]);
    expect(ids(ties)).toEqual(["searcher", "both", "fuzzy-both"]);
  });

  it("matched and missing partition the request", () => {
    for (const r of new CapabilityMatcher({ similarityThreshold: 0 }).match(agents, ["a", "web-search", "summarize"])) {
      expect([...r.matchedCapabilities, ...r.missingCapabilities].sort()).toEqual(["a", "summarize", "web-search"]);
    }
  });

  it("applies the threshold: 1 means equal after normalisation, lower admits near misses", () => {
    expect(ids(new CapabilityMatcher({ similarityThreshold: 1 }).match(agents, ["summarize"]))).toEqual(["both"]);
    expect(ids(new CapabilityMatcher({ similarityThreshold: 0.95 }).match(agents, ["web search"]))).toEqual([
      "searcher",
      "both",
      "fuzzy-both",
    ]);
    expect(ids(new CapabilityMatcher({ similarityThreshold: 0.2 }).match(agents, ["web-search"]))).toContain("painter");
  });

  it("uses matchCapabilities' rule: a name contained word for word scores 0.6", () => {
    expect(new CapabilityMatcher().match(agents, ["image"])).toEqual([]);
    const [painter] = new CapabilityMatcher({ similarityThreshold: 0.6 }).match(agents, ["image"]);
    expect(painter?.agent.id).toBe("painter");
    expect(painter?.matches).toEqual([{ required: "image", capability: "image-generation", similarity: 0.6 }]);
  });

  it("compares raw names when normalisation is off", () => {
    const m = new CapabilityMatcher({ normalizeNames: false, similarityThreshold: 1 });
    expect(ids(m.match(agents, ["web-search"]))).toEqual(["searcher"]);
  });

  it("reads AgentDNSRecord-like objects through getCapabilities, or any shape through capabilitiesOf", () => {
    const record = { id: "rec", getCapabilities: () => [{ name: "Web Search" }] };
    expect(ids(new CapabilityMatcher().match([record], ["web-search"]))).toEqual(["rec"]);
    const custom = new CapabilityMatcher<{ id: string; skills: string[] }>({ capabilitiesOf: (a) => a.skills });
    expect(ids(custom.match([{ id: "x", skills: ["summarize"] }], ["summarise"]))).toEqual(["x"]);
  });

  it("refuses an unknown mode, an empty request and a threshold outside [0, 1]", () => {
    const m = new CapabilityMatcher();
    expect(() => m.match(agents, ["a"], "some" as never)).toThrow(NovaOSValidationError);
    expect(() => m.match(agents, [])).toThrow(NovaOSValidationError);
    for (const t of [-0.1, 1.5, Number.NaN]) {
      expect(() => new CapabilityMatcher({ similarityThreshold: t })).toThrow(NovaOSValidationError);
    }
  });
});
