import type { LookupAddress } from "node:dns";
import { once } from "node:events";
import { get } from "node:http";
import { describe, expect, it } from "vitest";
import { validateAgentUrl } from "../../src/http/agent-url.js";
import { AgentUrlRejectedError } from "../../src/http/agent-url-error.js";
import { createGuardedFetch, createGuardedLookup, type GuardedFetch } from "../../src/http/guarded-fetch.js";
import { fakeDns } from "./fake-dns.js";
import { type LocalServer, routePublicAddress, startHttpServer } from "./local-network.js";
import { cleanupAfterEach } from "./support.js";

const PUBLIC = "93.184.216.34";
const cleanup = cleanupAfterEach();

async function server(handler?: Parameters<typeof startHttpServer>[0]): Promise<LocalServer> {
  const s = await startHttpServer(handler);
  cleanup.push(() => s.close());
  return s;
}

function guarded(...args: Parameters<typeof createGuardedFetch>): GuardedFetch {
  const g = createGuardedFetch(...args);
  cleanup.push(() => g.close());
  return g;
}

async function refusal(promise: Promise<unknown>): Promise<AgentUrlRejectedError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentUrlRejectedError);
    return error as AgentUrlRejectedError;
  }
  throw new Error("expected a refusal");
}

describe("createGuardedFetch", () => {
  it("refuses to connect to a name that resolves to 127.0.0.1", async () => {
    const target = await server();
    const dns = fakeDns({ "agent.test": "127.0.0.1" });
    const { fetch } = guarded({ resolve: dns.resolve });
    const error = await refusal(fetch(`http://agent.test:${target.port}/`));
    expect(error).toMatchObject({ reason: "blocked-address", address: "127.0.0.1" });
    expect(target.requests).toHaveLength(0);
  });

  it("refuses an IP literal, which net.connect would dial without a lookup", async () => {
    const target = await server();
    const { fetch } = guarded({});
    for (const host of ["127.0.0.1", "[::ffff:127.0.0.1]", "2130706433"]) {
      expect((await refusal(fetch(`http://${host}:${target.port}/`))).reason).toBe("blocked-address");
    }
    expect(target.requests).toHaveLength(0);
  });

  it("dials exactly the address it checked", async () => {
    const target = await server();
    const dns = fakeDns({ "agent.partner.test": "127.0.0.1" });
    const { fetch } = guarded({ allowPrivateIps: true, allowedHostSuffixes: ["partner.test"], resolve: dns.resolve });
    const response = await fetch(`http://agent.partner.test:${target.port}/hello`);
    expect(await response.text()).toBe("ok");
    expect(target.requests.map((r) => [r.url, r.headers.host])).toEqual([
      ["/hello", `agent.partner.test:${target.port}`],
    ]);
    expect(dns.lookups).toEqual(["agent.partner.test"]);
  });

  it("enforces the suffix allowlist on every connection", async () => {
    const target = await server();
    const dns = fakeDns({ "other.test": "127.0.0.1" });
    const { fetch } = guarded({ allowPrivateIps: true, allowedHostSuffixes: ["partner.test"], resolve: dns.resolve });
    expect((await refusal(fetch(`http://other.test:${target.port}/`))).reason).toBe("host-suffix");
    expect(dns.lookups).toEqual([]);
  });

  it("catches DNS rebinding: public when validated, loopback when dialled", async () => {
    const target = await server();
    const dns = fakeDns({ "agent.partner.test": { sequence: [PUBLIC, "127.0.0.1"] } });
    const url = `http://agent.partner.test:${target.port}/`;
    await expect(validateAgentUrl(url, { resolve: dns.resolve })).resolves.toMatchObject({ addresses: [PUBLIC] });
    const { fetch } = guarded({ resolve: dns.resolve });
    expect((await refusal(fetch(url))).address).toBe("127.0.0.1");
    expect(target.requests).toHaveLength(0);
  });

  describe("redirects", () => {
    it.each([
      ["an IP literal", (port: number) => `http://127.0.0.1:${port}/secret`],
      ["a name resolving to the metadata address", (port: number) => `http://metadata.test:${port}/latest`],
      ["a name resolving to a private address", (port: number) => `http://intranet.test:${port}/`],
    ])("refuses a redirect to %s", async (_what, location) => {
      const internal = await server();
      const first = await server((_req, res) => {
        res.writeHead(302, { location: location(internal.port) }).end();
      });
      const route = routePublicAddress(PUBLIC);
      cleanup.push(() => route.restore());
      const dns = fakeDns({ "public.test": PUBLIC, "metadata.test": "169.254.169.254", "intranet.test": "10.0.0.7" });
      const { fetch } = guarded({ resolve: dns.resolve });
      const error = await refusal(fetch(`http://public.test:${first.port}/start`));
      expect(error.reason).toBe("blocked-address");
      expect(first.requests.map((r) => r.url)).toEqual(["/start"]);
      expect(internal.requests).toHaveLength(0);
    });

    it("follows a redirect to another public address", async () => {
      const second = await server();
      const first = await server((_req, res) => {
        res.writeHead(302, { location: `http://also-public.test:${second.port}/next` }).end();
      });
      const route = routePublicAddress(PUBLIC);
      cleanup.push(() => route.restore());
      const dns = fakeDns({ "public.test": PUBLIC, "also-public.test": PUBLIC });
      const { fetch } = guarded({ resolve: dns.resolve });
      expect(await (await fetch(`http://public.test:${first.port}/`)).text()).toBe("ok");
      expect(second.requests.map((r) => r.url)).toEqual(["/next"]);
    });
  });
});

describe("createGuardedLookup", () => {
  const lookup = (policy: Parameters<typeof createGuardedLookup>[0], host: string, options: object) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) => {
      (createGuardedLookup(policy) as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void)(
        host,
        options,
        (error, address, family) => resolve({ error: error as Error | null, address, family: family as number }),
      );
    });
  const dns = fakeDns({ "dual.test": [PUBLIC, "2606:4700::1"], "bad.test": [PUBLIC, "::1"] });

  it("answers one address or all of them, by family, as net.connect asks", async () => {
    expect(await lookup({ resolve: dns.resolve }, "dual.test", {})).toEqual({
      error: null,
      address: PUBLIC,
      family: 4,
    });
    expect(await lookup({ resolve: dns.resolve }, "dual.test", { family: 6 })).toEqual({
      error: null,
      address: "2606:4700::1",
      family: 6,
    });
    const all = await lookup({ resolve: dns.resolve }, "dual.test", { all: true });
    expect((all.address as LookupAddress[]).map((a) => a.address)).toEqual([PUBLIC, "2606:4700::1"]);
  });

  it("refuses the whole name when one address is non-public", async () => {
    const { error } = await lookup({ resolve: dns.resolve }, "bad.test", { all: true });
    expect(error).toBeInstanceOf(AgentUrlRejectedError);
  });

  it("guards a plain node:http request (as gRPC's http2.connect would use it)", async () => {
    const target = await server();
    const local = fakeDns({ "agent.test": "127.0.0.1" });
    const request = get({
      host: "agent.test",
      port: target.port,
      lookup: createGuardedLookup({ resolve: local.resolve }),
    });
    const [error] = await once(request, "error");
    expect(error).toBeInstanceOf(AgentUrlRejectedError);
    expect(target.requests).toHaveLength(0);
  });
});
