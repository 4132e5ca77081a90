import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { AgentCardSchema } from "../../gen/a2a_pb.js";
import {
  cardExtensions,
  extensionByUri,
  extensionUris,
  interfaceFor,
  interfaceUrl,
  PROTOCOL_BINDING_GRPC,
  PROTOCOL_BINDING_HTTP_JSON,
  requiredExtensionUris,
  skillById,
  skillIds,
  supportsExtension,
} from "../../src/a2a/index.js";

const card = create(AgentCardSchema, {
  name: "joke agent",
  supportedInterfaces: [
    { url: "https://old.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    { url: "https://agent.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "t-1" },
    { url: "https://agent.example/rest", protocolBinding: "HTTP+JSON" },
    { url: "https://agent.example/rest-2", protocolBinding: "HTTP+JSON", protocolVersion: "1.0.3" },
  ],
  capabilities: {
    extensions: [
      { uri: "https://ext.example/trace", required: false },
      { uri: "https://ext.example/user-context/v1", required: true },
      { uri: "https://ext.example/trace/", required: true },
    ],
  },
  skills: [
    { id: "joke", name: "Joke" },
    { id: "pun", name: "Pun" },
  ],
});

describe("agent card lookups", () => {
  it("find the interface of a binding (JSON-RPC by default), skipping protocol versions this SDK does not speak", () => {
    expect(interfaceFor(card)?.url).toBe("https://agent.example/a2a");
    expect(interfaceFor(card)?.tenant).toBe("t-1");
    expect(interfaceUrl(card)).toBe("https://agent.example/a2a");
    expect(interfaceUrl(card, PROTOCOL_BINDING_HTTP_JSON)).toBe("https://agent.example/rest");
  });

  it("never substitute another binding", () => {
    expect(interfaceFor(card, PROTOCOL_BINDING_GRPC)).toBeUndefined();
    expect(interfaceUrl(card, "SOAP")).toBeUndefined();
    expect(interfaceUrl(create(AgentCardSchema, {}))).toBeUndefined();
  });

  it("find skills by id and list their ids in card order", () => {
    expect(skillById(card, "pun")?.name).toBe("Pun");
    expect(skillById(card, "Pun")).toBeUndefined();
    expect(skillIds(card)).toEqual(["joke", "pun"]);
  });

  it("read declared extensions, comparing URIs exactly", () => {
    expect(extensionUris(card)).toEqual([
      "https://ext.example/trace",
      "https://ext.example/user-context/v1",
      "https://ext.example/trace/",
    ]);
    expect(requiredExtensionUris(card)).toEqual(["https://ext.example/user-context/v1", "https://ext.example/trace/"]);
    expect(extensionByUri(card, "https://ext.example/trace/")?.required).toBe(true);
    expect(extensionByUri(card, "https://ext.example/trace")?.required).toBe(false);
    expect(supportsExtension(card, "https://ext.example/user-context/v1")).toBe(true);
    expect(supportsExtension(card, "https://ext.example/other")).toBe(false);
    expect(cardExtensions(create(AgentCardSchema, {}))).toEqual([]);
    expect(requiredExtensionUris(create(AgentCardSchema, {}))).toEqual([]);
  });

  it("hand out a copy of the extension list", () => {
    cardExtensions(card).pop();
    expect(extensionUris(card)).toHaveLength(3);
  });
});
