import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentDNSRecord } from "../../src/discovery/agent-dns-record.js";
import { discoverAndConnect } from "../../src/discovery/discover-and-connect.js";
import { NovaOSDNSAgentNotFoundError } from "../../src/errors/novaos-errors.js";
import { AgentUrlRejectedError } from "../../src/http/agent-url-error.js";
import { type ContractServer, startContractServer } from "../platform/contract-server.js";
import { startEchoAgent } from "./echo-agent.js";
import { cleanupAfterEach } from "./support.js";

const cleanup = cleanupAfterEach();
afterEach(() => {
  vi.unstubAllEnvs();
});

async function setup() {
  const agent = await startEchoAgent();
  cleanup.push(() => agent.close());
  const dns: ContractServer = await startContractServer({
    spec: "agent-dns.yaml",
    handlers: {
      getAgent: ({ params }) =>
        params.name === "echo"
          ? { status: 200, body: { id: "1", name: "echo", url: `http://127.0.0.1:${agent.port}/` } }
          : { status: 404, body: { error: "not_found" } },
    },
  });
  cleanup.push(() => dns.close());
  return { agent, dns };
}

describe("discoverAndConnect", () => {
  it("looks the agent up and hands back a client that closes with `await using`", async () => {
    const { agent, dns } = await setup();
    {
      await using client = await discoverAndConnect({ agent: "echo", dnsBaseUrl: dns.url, trustDnsUrls: true });
      expect(JSON.stringify(await client.sendMessage("hi"))).toContain("echo: hi");
    }
    expect(agent.calls).toHaveLength(1);
    expect(dns.violations).toEqual([]);
  });

  it("keeps the address block on by default", async () => {
    const { dns } = await setup();
    await expect(discoverAndConnect({ agent: "echo", dnsBaseUrl: dns.url })).rejects.toBeInstanceOf(
      AgentUrlRejectedError,
    );
  });

  it("uses a record as given, without a lookup", async () => {
    const { agent, dns } = await setup();
    const record = new AgentDNSRecord({ name: "echo", url: `http://127.0.0.1:${agent.port}/` });
    await using client = await discoverAndConnect({ agent: record, dnsBaseUrl: dns.url, trustDnsUrls: true });
    expect(client.baseUrl).toBe(record.url);
    expect(dns.requests).toHaveLength(0);
  });

  it("throws NovaOSDNSAgentNotFoundError for an unknown name", async () => {
    const { dns } = await setup();
    await expect(discoverAndConnect({ agent: "ghost", dnsBaseUrl: dns.url })).rejects.toBeInstanceOf(
      NovaOSDNSAgentNotFoundError,
    );
  });

  it("finds Agent DNS from the environment when no URL is given", async () => {
    const { dns } = await setup();
    vi.stubEnv("AGENT_DNS_URL", dns.url);
    await using client = await discoverAndConnect({ agent: "echo", trustDnsUrls: true });
    expect(dns.requests.map((r) => r.path)).toEqual(["/agents/echo"]);
    expect(client.binding).toBe("JSONRPC");
  });
});
