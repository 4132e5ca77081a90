import { describe, expect, it } from "vitest";
import { agentCardUrl } from "../../src/discovery/agent-card-fetch.js";
import {
  AgentDiscoveryService,
  type AgentDiscoveryServiceOptions,
} from "../../src/discovery/agent-discovery-service.js";
import { fetchAgentCard } from "../../src/discovery/fetch-agent-card.js";
import {
  NovaOSAgentNotFoundError,
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  type NovaOSError,
  NovaOSRateLimitError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { AgentUrlRejectedError } from "../../src/http/agent-url-error.js";
import { BearerTokenAuth } from "../../src/http/auth.js";
import { type ContractServer, type JsonReply, startContractServer } from "../platform/contract-server.js";
import { agentCardJson } from "./agent-card.fixture.js";
import { fakeDns } from "./fake-dns.js";
import { startHttpServer } from "./local-network.js";
import { cleanupAfterEach, rejection } from "./support.js";

const cleanup = cleanupAfterEach();

async function cardServer(
  reply: (headers: Record<string, unknown>) => JsonReply | Promise<JsonReply>,
): Promise<ContractServer> {
  const server = await startContractServer({
    spec: "gateway.yaml",
    handlers: { getAgentCard: ({ headers }) => reply(headers) },
  });
  cleanup.push(() => server.close());
  return server;
}

function service(options: AgentDiscoveryServiceOptions): AgentDiscoveryService {
  const s = new AgentDiscoveryService(options);
  cleanup.push(() => s.close());
  return s;
}

describe("agentCardUrl", () => {
  it("appends the well-known path under the base path, once", () => {
    expect(agentCardUrl("https://gw.example")).toBe("https://gw.example/.well-known/agent-card.json");
    expect(agentCardUrl("https://gw.example/agents/joke/")).toBe(
      "https://gw.example/agents/joke/.well-known/agent-card.json",
    );
    expect(agentCardUrl("https://gw.example/.well-known/agent-card.json")).toBe(
      "https://gw.example/.well-known/agent-card.json",
    );
  });

  it("keeps a card published at its own .json URL", () => {
    expect(agentCardUrl("https://gw.example/cards/joke.json")).toBe("https://gw.example/cards/joke.json");
    expect(agentCardUrl("https://gw.example/agents/json/")).toBe(
      "https://gw.example/agents/json/.well-known/agent-card.json",
    );
  });

  it("refuses what is not an http(s) URL", () => {
    expect(() => agentCardUrl("gw.example")).toThrow(NovaOSValidationError);
    expect(() => agentCardUrl("ftp://gw.example")).toThrow(NovaOSValidationError);
  });
});

describe("fetchAgentCard (contract)", () => {
  it("GETs the well-known path with A2A-Version and decodes the generated AgentCard", async () => {
    const server = await cardServer(() => ({ status: 200, body: agentCardJson() }));
    const card = await fetchAgentCard(server.url, { auth: new BearerTokenAuth("tok") });
    expect(card.name).toBe("Joke agent");
    expect(card.skills.map((s) => s.id)).toEqual(["joke", "pun"]);
    expect(card.supportedInterfaces[0]?.tenant).toBe("t-9");
    const [request] = server.requests;
    expect(request?.path).toBe("/.well-known/agent-card.json");
    expect(request?.headers["a2a-version"]).toBe("1.0");
    expect(request?.headers.accept).toBe("application/json");
    expect(request?.headers.authorization).toBe("Bearer tok");
    expect(server.violations).toEqual([]);
  });

  it.each([
    [404, NovaOSAgentNotFoundError, false],
    [401, NovaOSAuthenticationError, false],
    [403, NovaOSAuthenticationError, false],
    [500, NovaOSServerError, false],
    [503, NovaOSServerError, true],
  ])("maps HTTP %d to %o", async (status, ErrorClass, retryable) => {
    const server = await cardServer(() => ({ status, body: { error: "e", message: "nope" } }));
    const error = await rejection(fetchAgentCard(server.url));
    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as NovaOSError).code).toBe(status);
    expect((error as NovaOSError).isRetryable).toBe(retryable);
    expect(server.violations).toEqual([]);
  });

  it("maps 429 to NovaOSRateLimitError with the Retry-After delay", async () => {
    const server = await cardServer(() => ({ status: 429, body: { error: "slow" }, headers: { "Retry-After": "12" } }));
    const error = await rejection(fetchAgentCard(server.url));
    expect(error).toBeInstanceOf(NovaOSRateLimitError);
    expect((error as NovaOSRateLimitError).retryAfter).toBe(12);
  });
});

describe("fetchAgentCard (bad origins)", () => {
  const raw = async (status: number, body: string, type = "application/json") => {
    const server = await startHttpServer((_req, res) => res.writeHead(status, { "content-type": type }).end(body));
    cleanup.push(() => server.close());
    return `http://127.0.0.1:${server.port}`;
  };

  it.each([
    ["another 4xx", 418, "{}"],
    ["a body that is not JSON", 200, "<html>"],
    ["a JSON array", 200, "[]"],
    ["a field of the wrong type", 200, JSON.stringify({ ...agentCardJson(), skills: "joke" })],
  ])("refuses %s as NovaOSValidationError", async (_what, status, body) => {
    expect(await rejection(fetchAgentCard(await raw(status, body)))).toBeInstanceOf(NovaOSValidationError);
  });

  it("refuses a card over the byte cap", async () => {
    const url = await raw(200, JSON.stringify(agentCardJson({ description: "x".repeat(4096) })));
    const error = await rejection(fetchAgentCard(url, { maxCardBytes: 1024 }));
    expect(error).toBeInstanceOf(NovaOSValidationError);
    expect((error as Error).message).toContain("larger than 1024 bytes");
  });

  it("maps a refused connection and a deadline to NovaOSConnectionError", async () => {
    const gone = await startHttpServer();
    await gone.close();
    expect(await rejection(fetchAgentCard(`http://127.0.0.1:${gone.port}`))).toBeInstanceOf(NovaOSConnectionError);
    const silent = await startHttpServer(() => undefined);
    cleanup.push(() => silent.close());
    const error = await rejection(fetchAgentCard(`http://127.0.0.1:${silent.port}`, { timeoutMs: 50 }));
    expect(error).toBeInstanceOf(NovaOSConnectionError);
  });

  it("ends with the caller's abort reason", async () => {
    const silent = await startHttpServer(() => undefined);
    cleanup.push(() => silent.close());
    const controller = new AbortController();
    const pending = fetchAgentCard(`http://127.0.0.1:${silent.port}`, { signal: controller.signal });
    const reason = new Error("stop");
    controller.abort(reason);
    expect(await rejection(pending)).toBe(reason);
  });

  it("guards the card fetch itself when asked", async () => {
    const origin = await startHttpServer((_req, res) => res.end(JSON.stringify(agentCardJson())));
    cleanup.push(() => origin.close());
    const dns = fakeDns({ "gw.test": "127.0.0.1" });
    const url = `http://gw.test:${origin.port}`;
    const error = await rejection(fetchAgentCard(url, { guardConnectIps: true, resolve: dns.resolve }));
    expect(error).toBeInstanceOf(AgentUrlRejectedError);
    expect(origin.requests).toHaveLength(0);
    const card = await fetchAgentCard(url, { guardConnectIps: true, allowPrivateIps: true, resolve: dns.resolve });
    expect(card.name).toBe("Joke agent");
  });
});

describe("AgentDiscoveryService cache", () => {
  it("reuses the card for 300 s by default, then revalidates and keeps the same object on 304", async () => {
    let etag = '"v1"';
    const server = await cardServer((headers) =>
      headers["if-none-match"] === etag
        ? { status: 304, headers: { ETag: etag } }
        : { status: 200, body: agentCardJson(), headers: { ETag: etag } },
    );
    let now = 1_000_000;
    const discovery = service({ baseUrl: server.url, now: () => now });
    const first = await discovery.agentCard();
    now += 299_999;
    expect(await discovery.agentCard()).toBe(first);
    expect(server.requests).toHaveLength(1);
    now += 1;
    expect(await discovery.agentCard()).toBe(first);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers["if-none-match"]).toBe('"v1"');
    now += 100_000;
    expect(await discovery.agentCard()).toBe(first);
    expect(server.requests).toHaveLength(2);
    etag = '"v2"';
    now += 300_000;
    const second = await discovery.agentCard();
    expect(second).not.toBe(first);
    expect(server.requests).toHaveLength(3);
    expect(server.violations).toEqual([]);
  });

  it("refetches on forceRefresh and after clearCache", async () => {
    const server = await cardServer(() => ({ status: 200, body: agentCardJson() }));
    const discovery = service({ baseUrl: server.url, now: () => 0 });
    await discovery.agentCard();
    await discovery.agentCard({ forceRefresh: true });
    expect(server.requests).toHaveLength(2);
    discovery.clearCache();
    await discovery.agentCard();
    expect(server.requests).toHaveLength(3);
    await discovery.agentCard();
    expect(server.requests).toHaveLength(3);
  });

  it("does not cache with cacheTtlMs null", async () => {
    const server = await cardServer(() => ({ status: 200, body: agentCardJson(), headers: { ETag: '"x"' } }));
    const discovery = service({ baseUrl: server.url, cacheTtlMs: null, now: () => 0 });
    await discovery.agentCard();
    await discovery.agentCard();
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers["if-none-match"]).toBeUndefined();
  });

  it("honours the origin's Cache-Control within its own TTL", async () => {
    let cacheControl = "max-age=10";
    const server = await cardServer(() => ({
      status: 200,
      body: agentCardJson(),
      headers: { "Cache-Control": cacheControl, ETag: '"e"', Age: "4" },
    }));
    let now = 0;
    const discovery = service({ baseUrl: server.url, now: () => now });
    await discovery.agentCard();
    now = 5_999;
    await discovery.agentCard();
    expect(server.requests).toHaveLength(1);
    now = 6_000; // max-age 10 s less the 4 s the card already spent in a cache
    await discovery.agentCard();
    expect(server.requests).toHaveLength(2);

    cacheControl = "no-cache";
    now = 100_000;
    await discovery.agentCard();
    await discovery.agentCard();
    expect(server.requests).toHaveLength(4);
    expect(server.requests[3]?.headers["if-none-match"]).toBe('"e"');

    cacheControl = "no-store";
    now = 200_000;
    await discovery.agentCard();
    await discovery.agentCard();
    expect(server.requests).toHaveLength(6);
    expect(server.requests[5]?.headers["if-none-match"]).toBeUndefined();

    cacheControl = "public, max-age=86400";
    now = 300_000;
    await discovery.agentCard();
    now += 300_000;
    await discovery.agentCard();
    expect(server.requests).toHaveLength(8);
    expect(server.violations).toEqual([]);
  });

  it("serves concurrent lookups with one request, and lets one caller give up alone", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const server = await cardServer(async () => {
      arrived();
      await gate;
      return { status: 200, body: agentCardJson() };
    });
    const discovery = service({ baseUrl: server.url });
    const controller = new AbortController();
    const impatient = discovery.agentCard({ signal: controller.signal });
    const patient = [discovery.agentCard(), discovery.agentCard(), discovery.skills()];
    await requested;
    const reason = new Error("gave up");
    controller.abort(reason);
    expect(await rejection(impatient)).toBe(reason);
    release();
    const [a, b] = await Promise.all(patient);
    expect(a).toBe(b);
    expect(server.requests).toHaveLength(1);
  });

  it("does not cache a failed fetch", async () => {
    let status = 503;
    const server = await cardServer(() =>
      status === 200 ? { status, body: agentCardJson() } : { status, body: { error: "x" } },
    );
    const discovery = service({ baseUrl: server.url });
    await expect(discovery.agentCard()).rejects.toBeInstanceOf(NovaOSServerError);
    status = 200;
    await expect(discovery.agentCard()).resolves.toMatchObject({ name: "Joke agent" });
  });
});

describe("AgentDiscoveryService accessors", () => {
  it("reads skills, extensions and interface URLs from the cached card", async () => {
    const server = await cardServer(() => ({ status: 200, body: agentCardJson() }));
    const discovery = service({ baseUrl: server.url });
    expect(discovery.cardUrl).toBe(`${server.url}/.well-known/agent-card.json`);
    expect((await discovery.skills()).map((s) => s.id)).toEqual(["joke", "pun"]);
    expect((await discovery.skill("pun"))?.name).toBe("Pun");
    expect(await discovery.skill("nope")).toBeUndefined();
    expect((await discovery.extensions()).map((e) => e.uri)).toEqual(["https://ext.example/trace"]);
    expect(await discovery.supportsExtension("https://ext.example/trace")).toBe(true);
    expect(await discovery.supportsExtension("https://ext.example/trace/")).toBe(false);
    expect(await discovery.interfaceUrl()).toBe("https://agent.partner.test/a2a");
    expect(await discovery.interfaceUrl("GRPC")).toBe("agent.partner.test:50051");
    expect(await discovery.interfaceUrl("HTTP+JSON")).toBeUndefined();
    expect(await discovery.agentCardJson()).toEqual(agentCardJson());
    expect(server.requests).toHaveLength(1);
  });

  it("names the advertised skills when a required one is missing", async () => {
    const server = await cardServer(() => ({ status: 200, body: agentCardJson() }));
    const discovery = service({ baseUrl: server.url });
    const error = await rejection(discovery.requireSkill("limerick"));
    expect(error).toBeInstanceOf(NovaOSAgentNotFoundError);
    expect((error as Error).message).toContain("joke, pun");
    expect((error as NovaOSError).details).toEqual({ skillId: "limerick", advertisedSkillIds: ["joke", "pun"] });
    expect((await discovery.requireSkill("joke")).name).toBe("Joke");
  });
});
