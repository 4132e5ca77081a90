import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { AgentCardSchema, type AgentInterface, AgentInterfaceSchema } from "../../gen/a2a_pb.js";
import { selectInterface, tenantFromCard } from "../../src/client/interface-selection.js";

const iface = (protocolBinding: string, url: string, protocolVersion = "1.0", tenant = ""): AgentInterface =>
  create(AgentInterfaceSchema, { protocolBinding, url, protocolVersion, tenant });

const interfaces = [iface("GRPC", "http://a/g"), iface("JSONRPC", "http://a/j"), iface("HTTP+JSON", "http://a/r")];

describe("selectInterface", () => {
  it("server preference: the first card interface the client speaks", () => {
    expect(selectInterface(interfaces, ["JSONRPC", "HTTP+JSON"])?.url).toBe("http://a/j");
    expect(selectInterface(interfaces, ["HTTP+JSON", "GRPC"])?.url).toBe("http://a/g");
  });

  it("client preference: the client's first binding the card offers", () => {
    expect(selectInterface(interfaces, ["HTTP+JSON", "GRPC"], { useClientPreference: true })?.url).toBe("http://a/r");
  });

  it("an empty list matches nothing", () => {
    expect(selectInterface(interfaces, [])).toBeUndefined();
  });

  it("skips interfaces of another protocol version; an undeclared version is accepted; 1.0.x is 1.0", () => {
    const mixed = [iface("JSONRPC", "http://a/old", "0.3"), iface("JSONRPC", "http://a/new", "1.0.2")];
    expect(selectInterface(mixed, ["JSONRPC"])?.url).toBe("http://a/new");
    expect(selectInterface([iface("JSONRPC", "http://a/any", "")], ["JSONRPC"])?.url).toBe("http://a/any");
    expect(selectInterface([iface("JSONRPC", "http://a/next", "2.0")], ["JSONRPC"])).toBeUndefined();
  });
});

describe("tenantFromCard", () => {
  const card = create(AgentCardSchema, {
    supportedInterfaces: [
      iface("JSONRPC", "http://a/j", "1.0", "first"),
      iface("JSONRPC", "http://a/j2", "1.0", "second"),
    ],
  });

  it("takes the interface at the client's URL, else the first of its binding", () => {
    expect(tenantFromCard(card, "http://a/j2/", "JSONRPC")).toBe("second");
    expect(tenantFromCard(card, "http://elsewhere", "JSONRPC")).toBe("first");
    expect(tenantFromCard(card, "http://elsewhere", "GRPC")).toBeUndefined();
  });
});
