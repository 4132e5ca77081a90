import { describe, expect, it } from "vitest";
import { Capability, CapabilityMatcher } from "../../src/capabilities/index.js";
import { AgentDNSRecord } from "../../src/discovery/index.js";
import { NovaOSValidationError } from "../../src/errors/index.js";

describe("Capability", () => {
  it("reads a bare name or an object, and writes only what it has", () => {
    expect(Capability.fromJson("web-search").toJSON()).toEqual({ name: "web-search" });
    const full = Capability.fromJson({ name: "ocr", description: "Reads scans", metadata: { langs: ["en"] } });
    expect(full).toBeInstanceOf(Capability);
    expect(full.toJSON()).toEqual({ name: "ocr", description: "Reads scans", metadata: { langs: ["en"] } });
    expect(Capability.fromJson({ name: "x", description: 5, metadata: [] }).toJSON()).toEqual({ name: "x" });
    expect(JSON.parse(JSON.stringify(new Capability("y", { description: "d" })))).toEqual({
      name: "y",
      description: "d",
    });
  });

  it("refuses an entry without a name", () => {
    for (const bad of ["", {}, { name: "" }, { name: 3 }, null, 7]) {
      expect(() => Capability.fromJson(bad)).toThrow(NovaOSValidationError);
    }
  });

  it("is what an Agent DNS record's capabilities are, and what the matcher reads", () => {
    const record = AgentDNSRecord.fromJson({
      name: "a",
      url: "https://a.example",
      capabilities: ["web_search"],
      metadata: { capabilities: [{ name: "OCR", description: "scans" }, { bad: 1 }] },
    });
    const capabilities = record.getCapabilities();
    expect(capabilities.every((c) => c instanceof Capability)).toBe(true);
    expect(capabilities.map((c) => c.toJSON())).toEqual([
      { name: "web_search" },
      { name: "OCR", description: "scans" },
    ]);
    expect(new CapabilityMatcher().match([record], ["web-search", "ocr"], "all")).toHaveLength(1);
  });
});
