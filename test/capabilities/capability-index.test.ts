import { describe, expect, it } from "vitest";
import { CapabilityIndex } from "../../src/capabilities/index.js";
import { NovaOSValidationError } from "../../src/errors/index.js";

const agents = [
  { id: "a", capabilities: ["web-search", "Web_Search"] },
  { id: "b", capabilities: ["websearch", "summarize"] },
  { id: "c", capabilities: ["summarize"], metadata: { capabilities: ["translate", { name: "ocr" }, 5, { no: 1 }] } },
  { id: "d", capabilities: ["image-generation"] },
];
const ids = (xs: { id: string }[]) => xs.map((x) => x.id);

describe("CapabilityIndex", () => {
  const index = new CapabilityIndex(agents);

  it("indexes normalised names from the list and from metadata, each agent once per name", () => {
    expect(index.capabilities).toEqual([
      "web-search",
      "websearch",
      "summarize",
      "translate",
      "ocr",
      "image-generation",
    ]);
    expect(ids(index.findAgentsByCapability("WEB SEARCH"))).toEqual(["a"]);
    expect(ids(index.findAgentsByCapability("ocr"))).toEqual(["c"]);
  });

  it("finds near misses only when fuzzy", () => {
    expect(ids(index.findAgentsByCapability("web-search"))).toEqual(["a"]);
    expect(ids(index.findAgentsByCapability("web-search", { fuzzy: true }))).toEqual(["a", "b"]);
    expect(ids(index.findAgentsByCapability("summarise", { fuzzy: true }))).toEqual(["b", "c"]);
    expect(index.findAgentsByCapability("painting", { fuzzy: true })).toEqual([]);
  });

  it("uses matchCapabilities' rule: a name contained word for word scores 0.6", () => {
    expect(index.findAgentsByCapability("image", { fuzzy: true })).toEqual([]);
    const lenient = new CapabilityIndex(agents, { similarityThreshold: 0.6 });
    expect(ids(lenient.findAgentsByCapability("image", { fuzzy: true }))).toEqual(["d"]);
  });

  it("combines capabilities with AND by default and OR on request, in input order", () => {
    expect(ids(index.findAgentsByCapabilities(["web-search", "summarize"], { fuzzy: true }))).toEqual(["b"]);
    expect(ids(index.findAgentsByCapabilities(["web-search", "summarize"]))).toEqual([]);
    expect(ids(index.findAgentsByCapabilities(["image-generation", "web-search"], { requireAll: false }))).toEqual([
      "a",
      "d",
    ]);
  });

  it("refuses an empty request", () => {
    expect(() => index.findAgentsByCapabilities([])).toThrow(NovaOSValidationError);
  });

  it("does not see later changes to the list it was given", () => {
    const list = [...agents];
    const snapshot = new CapabilityIndex(list);
    list.pop();
    expect(ids(snapshot.findAgentsByCapability("image generation"))).toEqual(["d"]);
  });
});
