import { create, type JsonValue } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { AgentCardSchema } from "../../gen/a2a_pb.js";
import { A2AExtension, ExtensionActivation, ExtensionRegistry } from "../../src/a2a/extensions.js";

class Geo extends A2AExtension {
  calls = 0;
  constructor() {
    super({ uri: "https://ext.example/geo/v1", description: "Location", required: true });
  }
  override params() {
    return { precision: "city" };
  }
  override readValue(value: JsonValue | undefined) {
    return { parsed: value ?? null };
  }
  override requestValue(): JsonValue {
    return { call: ++this.calls };
  }
}
const citations = new A2AExtension({ uri: "https://ext.example/citations/v1" });

describe("ExtensionRegistry (serving side)", () => {
  const registry = new ExtensionRegistry([new Geo(), citations]);

  it("declares its extensions for the card", () => {
    expect(registry.declarations().map((d) => [d.uri, d.required, d.params])).toEqual([
      ["https://ext.example/geo/v1", true, { precision: "city" }],
      ["https://ext.example/citations/v1", false, undefined],
    ]);
    expect(registry.requiredUris).toEqual(["https://ext.example/geo/v1"]);
  });

  it("activates requested ∩ registered, ignores the unknown, reports unmet required", () => {
    const a = registry.activate({ "a2a-extensions": "https://ext.example/citations/v1, https://other/v1" });
    expect(a.activated).toEqual(["https://ext.example/citations/v1"]);
    expect(a.ignored).toEqual(["https://other/v1"]);
    expect(a.unmetRequired).toEqual(["https://ext.example/geo/v1"]);
    expect(a.unmetRequirementReason()).toContain("https://ext.example/geo/v1");
    expect(a.responseHeaders()).toEqual({ "A2A-Extensions": "https://ext.example/citations/v1" });
  });

  it("reads an extension's data from the most authoritative metadata first, lazily", () => {
    const a = registry.activate(
      { "A2A-Extensions": "https://ext.example/geo/v1" },
      { "https://ext.example/geo/v1": "from-request" },
      { "https://ext.example/geo/v1": "from-message" },
    );
    expect(a.unmetRequirementReason()).toBeUndefined();
    expect(a.value("https://ext.example/geo/v1")).toEqual({ parsed: "from-request" });
    const silent = registry.activate({ "A2A-Extensions": "https://ext.example/geo/v1" }, undefined, {});
    expect(silent.value("https://ext.example/geo/v1")).toEqual({ parsed: null });
    expect(silent.value("https://ext.example/citations/v1")).toBeUndefined();
  });

  it("refuses empty and duplicate URIs instead of overwriting", () => {
    expect(() => registry.register(new A2AExtension({ uri: "https://ext.example/citations/v1" }))).toThrow(/already/);
    expect(() => new ExtensionRegistry([new A2AExtension({ uri: "" })])).toThrow(/non-empty/);
  });

  it("answers no headers when nothing is active", () => {
    expect(new ExtensionActivation({}).responseHeaders()).toEqual({});
    expect(new ExtensionRegistry().requestHeaders()).toEqual({});
  });
});

describe("ExtensionRegistry (calling side)", () => {
  it("negotiates against a card's declarations", () => {
    const registry = new ExtensionRegistry([new Geo(), citations]);
    const card = create(AgentCardSchema, {
      capabilities: {
        extensions: [{ uri: "https://ext.example/geo/v1" }, { uri: "https://ext.example/payments/v1", required: true }],
      },
    });
    const a = registry.negotiateCard(card);
    expect(a.activated).toEqual(["https://ext.example/geo/v1"]);
    expect(a.ignored).toEqual(["https://ext.example/citations/v1"]);
    expect(a.unmetRequired).toEqual(["https://ext.example/payments/v1"]);
    expect(a.value("https://ext.example/geo/v1")).toBeUndefined();
  });

  it("publishes request headers and fresh request metadata per call", () => {
    const registry = new ExtensionRegistry([new Geo(), citations]);
    expect(registry.requestHeaders()).toEqual({
      "A2A-Extensions": "https://ext.example/citations/v1,https://ext.example/geo/v1",
    });
    expect(registry.requestMetadata()).toEqual({ "https://ext.example/geo/v1": { call: 1 } });
    expect(registry.requestMetadata()).toEqual({ "https://ext.example/geo/v1": { call: 2 } });
  });
});
