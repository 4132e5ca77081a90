import { describe, expect, it } from "vitest";
import type { Client } from "../../src/client/client.js";
import { AgentDNSRecord } from "../../src/discovery/agent-dns-record.js";
import { NovaOSDNSError } from "../../src/errors/novaos-errors.js";
import { AgentUrlRejectedError } from "../../src/http/agent-url-error.js";
import { startEchoAgent } from "./echo-agent.js";
import { fakeDns } from "./fake-dns.js";
import { cleanupAfterEach } from "./support.js";

const wire = {
  id: "a-1",
  name: "joke-agent",
  url: "https://joke.agents.example.internal:8000",
  description: "Tells jokes",
  metadata: {
    capabilities: ["humor", { name: "Pun Generation", description: "puns" }, { nope: true }, ""],
    domains: ["entertainment", "fun"],
    tags: ["beta"],
    owner: "team-x",
  },
  capabilities: ["joke_telling", "humor"],
  domains: ["fun"],
  tags: ["stable"],
  created_at: "2026-01-02T03:04:05.000Z",
  updated_at: "not a date",
  status: "Active",
};

const cleanup = cleanupAfterEach();

describe("AgentDNSRecord", () => {
  it("reads the wire form leniently and writes it back", () => {
    const record = AgentDNSRecord.fromJson(wire);
    expect(record).toMatchObject({ id: "a-1", name: "joke-agent", status: "Active", description: "Tells jokes" });
    expect(record.createdAt?.toISOString()).toBe("2026-01-02T03:04:05.000Z");
    expect(record.updatedAt).toBeUndefined();
    expect(record.isAvailable).toBe(true);
    expect(record.toJSON()).toEqual({ ...wire, updated_at: undefined, status: "Active" });
    expect(AgentDNSRecord.fromJson(record.toJSON()).toJSON()).toEqual(record.toJSON());
  });

  it("defaults the status to active and reads other statuses as unavailable", () => {
    expect(AgentDNSRecord.fromJson({ id: "1", name: "a", url: "https://a.example" }).isAvailable).toBe(true);
    expect(
      AgentDNSRecord.fromJson({ id: "1", name: "a", url: "https://a.example", status: "inactive" }).isAvailable,
    ).toBe(false);
  });

  it("refuses a record without a name or a url", () => {
    expect(() => AgentDNSRecord.fromJson({ id: "1", url: "https://a.example" })).toThrow(NovaOSDNSError);
    expect(() => AgentDNSRecord.fromJson({ id: "1", name: "a" })).toThrow(NovaOSDNSError);
    expect(() => AgentDNSRecord.fromJson(["not", "a", "record"])).toThrow(NovaOSDNSError);
  });

  it("merges capabilities, domains and tags from the record and its metadata", () => {
    const record = AgentDNSRecord.fromJson(wire);
    expect(record.getCapabilities()).toEqual([
      { name: "joke_telling" },
      { name: "humor" },
      { name: "Pun Generation", description: "puns" },
    ]);
    expect(record.getDomains()).toEqual(["fun", "entertainment"]);
    expect(record.getTags()).toEqual(["stable", "beta"]);
  });

  it("matches capabilities by normalised name, or by similarity with fuzzy", () => {
    const record = AgentDNSRecord.fromJson(wire);
    expect(record.hasCapability("joke-telling")).toBe(true);
    expect(record.hasCapability("JokeTelling")).toBe(true);
    expect(record.hasCapability("pun_generation")).toBe(true);
    expect(record.hasCapability("joke tellin")).toBe(false);
    expect(record.hasCapability("joke tellin", { fuzzy: true })).toBe(true);
    expect(record.hasCapability("translation", { fuzzy: true })).toBe(false);
  });
});

describe("AgentDNSRecord.toClient", () => {
  const keep = (client: Client) => {
    cleanup.push(() => client.close());
    return client;
  };

  it("refuses a private address unless trustUrl, and then reaches it", async () => {
    const agent = await startEchoAgent();
    cleanup.push(() => agent.close());
    const record = new AgentDNSRecord({ name: "echo", url: `http://127.0.0.1:${agent.port}/` });
    await expect(record.toClient()).rejects.toMatchObject({ reason: "blocked-address" });
    const client = keep(await record.toClient({ trustUrl: true }));
    expect(JSON.stringify(await client.sendMessage("hello"))).toContain("echo: hello");
  });

  it("always enforces the suffix allowlist, trustUrl or not", async () => {
    const record = new AgentDNSRecord({ name: "x", url: "http://127.0.0.1:8000/" });
    for (const trustUrl of [false, true]) {
      const error = await record
        .toClient({ allowedHostSuffixes: ["agents.example.internal"], trustUrl })
        .catch((e) => e);
      expect(error).toBeInstanceOf(AgentUrlRejectedError);
      expect(error.reason).toBe("host-suffix");
    }
  });

  it("speaks gRPC to a gRPC-only record URL and JSON-RPC to an http(s) one", async () => {
    const dns = fakeDns({ "joke.agents.example": "93.184.216.34" });
    for (const [url, binding] of [
      ["joke.agents.example:50051", "GRPC"],
      ["grpcs://joke.agents.example:50051", "GRPC"],
      ["https://joke.agents.example/a2a", "JSONRPC"],
    ]) {
      const client = keep(
        await new AgentDNSRecord({ name: "a", url: url as string }).toClient({ resolve: dns.resolve }),
      );
      expect([client.binding, client.baseUrl]).toEqual([binding, url]);
    }
  });
});
