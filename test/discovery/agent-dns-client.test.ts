import { describe, expect, it } from "vitest";
import type { Client } from "../../src/client/client.js";
import { AgentDNSClient, type AgentDNSClientOptions } from "../../src/discovery/agent-dns-client.js";
import type { AgentDNSRecord } from "../../src/discovery/agent-dns-record.js";
import {
  NovaOSDNSAgentNotFoundError,
  NovaOSDNSConnectionError,
  NovaOSDNSError,
  NovaOSDNSRateLimitError,
  type NovaOSError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { AgentUrlRejectedError } from "../../src/http/agent-url-error.js";
import { BearerTokenAuth } from "../../src/http/auth.js";
import { type ContractServer, type OperationHandler, startContractServer } from "../platform/contract-server.js";
import { fakeDns } from "./fake-dns.js";
import { startHttpServer } from "./local-network.js";
import { cleanupAfterEach, rejection } from "./support.js";

const record = (name: string, extra: Record<string, unknown> = {}) => ({
  id: `id-${name}`,
  name,
  url: `https://${name}.agents.example`,
  ...extra,
});

const REGISTRY = [
  record("joke-agent", { capabilities: ["humor", "joke_telling"], domains: ["fun"], tags: ["stable"] }),
  record("pun-agent", { metadata: { capabilities: [{ name: "humor" }], domains: ["fun"], tags: ["beta"] } }),
  record("weather-agent", { capabilities: ["forecast"], domains: ["weather"], status: "inactive" }),
  record("news-agent", { capabilities: ["summarization", "search"], domains: ["news"], tags: ["stable"] }),
];

const cleanup = cleanupAfterEach();

async function registry(handlers: Record<string, OperationHandler>): Promise<ContractServer> {
  const server = await startContractServer({ spec: "agent-dns.yaml", handlers, bearerToken: "dns-token" });
  cleanup.push(() => server.close());
  return server;
}

function dnsClient(server: ContractServer, options: Partial<AgentDNSClientOptions> = {}): AgentDNSClient {
  return new AgentDNSClient({ baseUrl: server.url, auth: new BearerTokenAuth("dns-token"), ...options });
}

async function names(records: AsyncIterable<AgentDNSRecord>): Promise<string[]> {
  const out: string[] = [];
  for await (const r of records) out.push(r.name);
  return out;
}

/** GET /agents in pages of `size`, tokens are offsets. */
const paged =
  (size: number): OperationHandler =>
  ({ query }) => {
    const offset = Number(query.page_token ?? 0);
    const next = offset + size < REGISTRY.length ? String(offset + size) : undefined;
    return {
      status: 200,
      body: { agents: REGISTRY.slice(offset, offset + size), ...(next ? { next_page_token: next } : {}) },
    };
  };

describe("AgentDNSClient (contract)", () => {
  it("lists every record, following next_page_token", async () => {
    const server = await registry({ listAgents: paged(3) });
    const dns = dnsClient(server, { pageSize: 3 });
    expect(await names(dns.listAgents())).toEqual(["joke-agent", "pun-agent", "weather-agent", "news-agent"]);
    expect(server.requests.map((r) => r.path)).toEqual(["/agents?page_size=3", "/agents?page_size=3&page_token=3"]);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer dns-token");
    expect(server.violations).toEqual([]);
  });

  it("searches with a free-text query", async () => {
    const server = await registry({
      searchAgents: ({ body }) => ({
        status: 200,
        body: { agents: REGISTRY.filter((r) => r.name.includes((body as { query: string }).query)) },
      }),
    });
    expect(await names(dnsClient(server).searchAgents("pun"))).toEqual(["pun-agent"]);
    expect(server.requests[0]?.body).toEqual({ query: "pun" });
    expect(server.violations).toEqual([]);
  });

  it("routes text filters through POST /agents/search and applies every filter itself", async () => {
    // A registry that ignores the filters entirely: the answer must not depend on it.
    const server = await registry({ searchAgents: () => ({ status: 200, body: { agents: REGISTRY } }) });
    const dns = dnsClient(server);
    expect(await names(dns.findAgents({ domain: "fun", capabilities: ["humor"] }))).toEqual([
      "joke-agent",
      "pun-agent",
    ]);
    expect(await names(dns.findAgents({ name: "AGENT", tag: "stable", status: "active" }))).toEqual([
      "joke-agent",
      "news-agent",
    ]);
    expect(server.requests.map((r) => r.body)).toEqual([
      { domain: "fun" },
      { name: "AGENT", tag: "stable", status: "active" },
    ]);
    expect(server.violations).toEqual([]);
  });

  it("lists everything for capability-only filters, AND by default, OR on request, fuzzy on request", async () => {
    const server = await registry({ listAgents: paged(10) });
    const dns = dnsClient(server);
    expect(await names(dns.findAgents({ capabilities: ["humor", "joke-telling"] }))).toEqual(["joke-agent"]);
    expect(
      await names(dns.findAgents({ capabilities: ["forecast", "search"], requireAllCapabilities: false })),
    ).toEqual(["weather-agent", "news-agent"]);
    expect(await names(dns.findAgents({ capabilities: ["summarisation"] }))).toEqual([]);
    expect(await names(dns.findAgents({ capabilities: ["summarisation"], fuzzyMatch: true }))).toEqual(["news-agent"]);
    expect(server.requests.every((r) => r.operationId === "listAgents")).toBe(true);
    expect(server.violations).toEqual([]);
  });

  it("gets a record by exact name, percent-encoding it, and answers undefined for an unknown one", async () => {
    const server = await registry({
      getAgent: ({ params }) => {
        const found = [...REGISTRY, record("team/agent one")].find((r) => r.name === params.name);
        return found ? { status: 200, body: found } : { status: 404, body: { error: "not_found" } };
      },
    });
    const dns = dnsClient(server);
    expect((await dns.getAgent("team/agent one"))?.name).toBe("team/agent one");
    expect(server.requests[0]?.path).toBe("/agents/team%2Fagent%20one");
    expect(await dns.getAgent("ghost")).toBeUndefined();
    expect(server.violations).toEqual([]);
  });

  it.each([
    [500, NovaOSDNSConnectionError],
    [502, NovaOSDNSConnectionError],
    [503, NovaOSDNSConnectionError],
    [401, NovaOSDNSError],
    [403, NovaOSDNSError],
  ])("maps HTTP %d to %o", async (status, ErrorClass) => {
    const server = await registry({
      listAgents: () => ({ status, body: { error: "x", message: "registry says no" } }),
    });
    const error = await rejection(names(dnsClient(server).listAgents()));
    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as NovaOSError).code).toBe(status);
    expect((error as Error).message).toContain("registry says no");
    expect(server.violations).toEqual([]);
  });

  it("maps 429 to NovaOSDNSRateLimitError with Retry-After", async () => {
    const server = await registry({
      getAgent: () => ({ status: 429, body: { error: "slow" }, headers: { "Retry-After": "3" } }),
    });
    const error = await rejection(dnsClient(server).getAgent("x"));
    expect(error).toBeInstanceOf(NovaOSDNSRateLimitError);
    expect((error as NovaOSDNSRateLimitError).retryAfter).toBe(3);
  });

  it("maps an unreachable registry and a deadline to NovaOSDNSConnectionError", async () => {
    const gone = await startHttpServer();
    await gone.close();
    const unreachable = new AgentDNSClient({ baseUrl: `http://127.0.0.1:${gone.port}` });
    expect(await rejection(unreachable.getAgent("x"))).toBeInstanceOf(NovaOSDNSConnectionError);
    const silent = await startHttpServer(() => undefined);
    cleanup.push(() => silent.close());
    const slow = new AgentDNSClient({ baseUrl: `http://127.0.0.1:${silent.port}`, timeoutMs: 50 });
    expect(await rejection(names(slow.listAgents()))).toBeInstanceOf(NovaOSDNSConnectionError);
  });

  it("refuses a baseUrl that is not an http(s) URL", () => {
    expect(() => new AgentDNSClient({ baseUrl: "agent-dns:8000" })).toThrow(NovaOSValidationError);
  });

  it("ends with the caller's abort reason", async () => {
    const silent = await startHttpServer(() => undefined);
    cleanup.push(() => silent.close());
    const controller = new AbortController();
    const pending = new AgentDNSClient({ baseUrl: `http://127.0.0.1:${silent.port}` }).getAgent("x", {
      signal: controller.signal,
    });
    const reason = new Error("stop");
    controller.abort(reason);
    expect(await rejection(pending)).toBe(reason);
  });

  it("refuses a page without an agents list", async () => {
    const server = await registry({ listAgents: () => ({ status: 200, body: { items: [] } }) });
    expect(await rejection(names(dnsClient(server).listAgents()))).toBeInstanceOf(NovaOSDNSError);
    // The contract server flags the reply too: the spec requires `agents`.
    expect(server.violations).toHaveLength(1);
  });

  it("stops on a page token the registry repeats", async () => {
    const server = await registry({
      listAgents: () => ({ status: 200, body: { agents: [REGISTRY[0]], next_page_token: "same" } }),
    });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const r of dnsClient(server).listAgents()) seen.push(r.name);
      })(),
    );
    expect(error).toBeInstanceOf(NovaOSDNSError);
    expect(seen).toEqual(["joke-agent", "joke-agent"]);
  });
});

describe("AgentDNSClient.getAgentClient", () => {
  const lookup: OperationHandler = ({ params }) => {
    const found = [record("public-agent"), record("local-agent", { url: "http://127.0.0.1:9/" })].find(
      (r) => r.name === params.name,
    );
    return found ? { status: 200, body: found } : { status: 404, body: { error: "not_found" } };
  };

  it("throws NovaOSDNSAgentNotFoundError for an unknown name", async () => {
    const server = await registry({ getAgent: lookup });
    const error = await rejection(dnsClient(server).getAgentClient("ghost"));
    expect(error).toBeInstanceOf(NovaOSDNSAgentNotFoundError);
    expect((error as NovaOSDNSAgentNotFoundError).agentName).toBe("ghost");
  });

  it("applies the client's URL policy: suffixes always, the address block unless trustDnsUrls", async () => {
    const server = await registry({ getAgent: lookup });
    const resolve = fakeDns({ "public-agent.agents.example": "93.184.216.34" }).resolve;
    const guardedDns = dnsClient(server, { allowedHostSuffixes: ["agents.example"], resolve });
    const client: Client = await guardedDns.getAgentClient("public-agent");
    cleanup.push(() => client.close());
    expect(client.baseUrl).toBe("https://public-agent.agents.example");
    expect(await rejection(guardedDns.getAgentClient("local-agent"))).toBeInstanceOf(AgentUrlRejectedError);

    const trusting = dnsClient(server, { trustDnsUrls: true });
    const local = await trusting.getAgentClient("local-agent");
    cleanup.push(() => local.close());
    expect(local.baseUrl).toBe("http://127.0.0.1:9/");
    const narrowed = dnsClient(server, { trustDnsUrls: true, allowedHostSuffixes: ["agents.example"] });
    expect((await rejection(narrowed.getAgentClient("local-agent"))) as AgentUrlRejectedError).toMatchObject({
      reason: "host-suffix",
    });
  });
});
