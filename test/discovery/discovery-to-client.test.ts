import type { JsonObject } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import type { Client } from "../../src/client/client.js";
import { AgentDiscoveryService } from "../../src/discovery/agent-discovery-service.js";
import { NovaOSError, NovaOSValidationError } from "../../src/errors/novaos-errors.js";
import { AgentUrlRejectedError } from "../../src/http/agent-url-error.js";
import { agentCardJson } from "./agent-card.fixture.js";
import { startEchoAgent } from "./echo-agent.js";
import { type FakeDns, fakeDns } from "./fake-dns.js";
import { routePublicAddress, startHttpServer } from "./local-network.js";
import { cleanupAfterEach, rejection } from "./support.js";

const PUBLIC = "93.184.216.34";
const cleanup = cleanupAfterEach();

/** An origin serving `card`, and a discovery service for it resolving names through `dns`. */
async function discover(card: JsonObject, dns: FakeDns) {
  const origin = await startHttpServer((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(card)),
  );
  cleanup.push(() => origin.close());
  const discovery = new AgentDiscoveryService({ baseUrl: `http://127.0.0.1:${origin.port}`, resolve: dns.resolve });
  cleanup.push(() => discovery.close());
  return { origin, discovery };
}

function keep(client: Client): Client {
  cleanup.push(() => client.close());
  return client;
}

describe("AgentDiscoveryService.toClient", () => {
  it("refuses to run without host suffixes, before fetching anything", async () => {
    const { origin, discovery } = await discover(agentCardJson(), fakeDns({}));
    for (const allowedHostSuffixes of [undefined, []]) {
      const error = await rejection(
        discovery.toClient({ allowedHostSuffixes } as unknown as Parameters<AgentDiscoveryService["toClient"]>[0]),
      );
      expect(error).toBeInstanceOf(NovaOSError);
      expect((error as Error).message).toContain("allowedHostSuffixes");
    }
    expect(origin.requests).toHaveLength(0);
  });

  it("refuses a card URL outside the suffixes", async () => {
    const { discovery } = await discover(agentCardJson(), fakeDns({ "agent.partner.test": PUBLIC }));
    const error = await rejection(discovery.toClient({ allowedHostSuffixes: ["other.test"] }));
    expect(error).toBeInstanceOf(AgentUrlRejectedError);
    expect((error as AgentUrlRejectedError).reason).toBe("host-suffix");
  });

  it("refuses a card URL that resolves to a non-public address", async () => {
    const { discovery } = await discover(agentCardJson(), fakeDns({ "agent.partner.test": "169.254.169.254" }));
    const error = await rejection(discovery.toClient({ allowedHostSuffixes: ["partner.test"] }));
    expect((error as AgentUrlRejectedError).reason).toBe("blocked-address");
  });

  it("refuses a card whose interface is a numeric spelling of loopback", async () => {
    const card = agentCardJson({
      supportedInterfaces: [{ url: "http://0x7f.1:8000/", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    });
    const { discovery } = await discover(card, fakeDns({}));
    const error = await rejection(discovery.toClient({ allowedHostSuffixes: ["127.0.0.1"] }));
    expect((error as AgentUrlRejectedError).reason).toBe("blocked-address");
  });

  it("validates a bare host:port gRPC interface, and guards the gRPC connection too", async () => {
    const dns = fakeDns({ "agent.partner.test": { sequence: [PUBLIC, "127.0.0.1"] } });
    const { discovery } = await discover(agentCardJson(), dns);
    const client = keep(
      await discovery.toClient({ allowedHostSuffixes: ["partner.test"], config: { preferredBindings: ["GRPC"] } }),
    );
    expect([client.binding, client.baseUrl]).toEqual(["GRPC", "agent.partner.test:50051"]);
    // Validation saw a public address; the gRPC dial resolves again, gets loopback, and is refused.
    const error = await rejection(client.getTask("t-1", { timeoutMs: 5_000 }));
    expect(error).toBeInstanceOf(AgentUrlRejectedError);
    expect(error).toMatchObject({ reason: "blocked-address", address: "127.0.0.1" });
    expect(dns.lookups).toEqual(["agent.partner.test", "agent.partner.test"]);

    const loopback = await discover(agentCardJson(), fakeDns({ "agent.partner.test": "127.0.0.1" }));
    const refused = await rejection(
      loopback.discovery.toClient({ allowedHostSuffixes: ["partner.test"], config: { preferredBindings: ["GRPC"] } }),
    );
    expect((refused as AgentUrlRejectedError).reason).toBe("blocked-address");
  });

  it("refuses a card that offers no interface the client speaks", async () => {
    const { discovery } = await discover(agentCardJson(), fakeDns({}));
    const error = await rejection(
      discovery.toClient({ allowedHostSuffixes: ["partner.test"], config: { preferredBindings: ["HTTP+JSON"] } }),
    );
    expect(error).toBeInstanceOf(NovaOSValidationError);
  });

  it("builds a working client on the card's interface, holding the cached card itself", async () => {
    const agent = await startEchoAgent();
    cleanup.push(() => agent.close());
    const route = routePublicAddress(PUBLIC);
    cleanup.push(() => route.restore());
    const card = agentCardJson({
      supportedInterfaces: [
        {
          url: `http://agent.partner.test:${agent.port}/`,
          protocolBinding: "JSONRPC",
          protocolVersion: "1.0",
          tenant: "t-9",
        },
      ],
    });
    const { discovery } = await discover(card, fakeDns({ "agent.partner.test": PUBLIC }));
    const client = keep(await discovery.toClient({ allowedHostSuffixes: ["partner.test"] }));
    expect(client.agentCard).toBe(await discovery.agentCard());
    expect(client.tenant).toBe("t-9");
    const reply = await client.sendMessage("hi");
    expect(JSON.stringify(reply)).toContain("echo: hi");
    expect(agent.calls[0]?.method).toBe("SendMessage");
    expect(agent.calls[0]?.params.tenant).toBe("t-9");
  });

  it("reaches an agent on this machine only with allowPrivateIps, and its refusal says so", async () => {
    const agent = await startEchoAgent();
    cleanup.push(() => agent.close());
    const card = agentCardJson({
      supportedInterfaces: [
        { url: `http://127.0.0.1:${agent.port}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ],
    });
    const { discovery } = await discover(card, fakeDns({}));
    const refused = await rejection(discovery.toClient({ allowedHostSuffixes: ["127.0.0.1"] }));
    expect(refused).toBeInstanceOf(AgentUrlRejectedError);
    expect((refused as Error).message).toContain("pass allowPrivateIps: true");
    const client = keep(await discovery.toClient({ allowedHostSuffixes: ["127.0.0.1"], allowPrivateIps: true }));
    expect(JSON.stringify(await client.sendMessage("hi"))).toContain("echo: hi");
  });

  it("re-checks at connect time: a card host that rebinds to loopback is never dialled", async () => {
    const agent = await startEchoAgent();
    cleanup.push(() => agent.close());
    const card = agentCardJson({
      supportedInterfaces: [
        { url: `http://agent.partner.test:${agent.port}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ],
    });
    const dns = fakeDns({ "agent.partner.test": { sequence: [PUBLIC, "127.0.0.1"] } });
    const { discovery } = await discover(card, dns);
    const client = keep(await discovery.toClient({ allowedHostSuffixes: ["partner.test"] }));
    const error = await rejection(client.sendMessage("hi"));
    // The guard's own error, not a retryable connection error: retrying cannot make the address safe.
    expect(error).toBeInstanceOf(AgentUrlRejectedError);
    expect(error).toMatchObject({ reason: "blocked-address", address: "127.0.0.1", isRetryable: false });
    expect(agent.calls).toHaveLength(0);
  });
});
