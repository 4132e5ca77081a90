import { describe, expect, it } from "vitest";
import { NovaOSError, NovaOSValidationError } from "../../src/errors/novaos-errors.js";
import { parseAgentUrl, validateAgentUrl } from "../../src/http/agent-url.js";
import { AgentUrlRejectedError } from "../../src/http/agent-url-error.js";
import { fakeDns } from "./fake-dns.js";

const PUBLIC = "93.184.216.34";

async function rejection(promise: Promise<unknown>): Promise<AgentUrlRejectedError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentUrlRejectedError);
    expect(error).toBeInstanceOf(NovaOSError);
    expect((error as NovaOSError).isRetryable).toBe(false);
    return error as AgentUrlRejectedError;
  }
  throw new Error("expected a rejection");
}

describe("parseAgentUrl", () => {
  it.each([
    ["https://Agent.Partner.Example:8443/a2a", "https", "agent.partner.example", 8443],
    ["http://agent.partner.example./", "http", "agent.partner.example", undefined],
    ["grpc://agent.partner.example:50051", "grpc", "agent.partner.example", 50051],
    ["agent.partner.example:50051", undefined, "agent.partner.example", 50051],
    ["localhost:50051", undefined, "localhost", 50051],
    ["[::1]:50051", undefined, "::1", 50051],
    ["https://bücher.partner.example/", "https", "xn--bcher-kva.partner.example", undefined],
  ])("%s → scheme %s, host %s, port %s", (url, scheme, hostname, port) => {
    expect(parseAgentUrl(url)).toEqual({ scheme, hostname, port });
  });

  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://0x7f.0.0.1/", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["grpc://0x7f.1:50051", "127.0.0.1"],
    ["0x7f.1:50051", "127.0.0.1"],
    ["017700000001:443", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["http://[0:0:0:0:0:0:0:1]/", "::1"],
  ])("reads the numeric spelling %s as %s", (url, hostname) => {
    expect(parseAgentUrl(url).hostname).toBe(hostname);
  });
});

describe("validateAgentUrl", () => {
  it.each([
    "http://127.0.0.1/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.0.0.1/",
    "http://0x7f.1/",
    "http://127.1/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/",
    "http://10.0.0.5/",
    "http://172.16.3.4/",
    "http://192.168.0.1/",
    "http://100.64.1.1/",
    "http://[fd00::1]/",
    "http://0.0.0.0/",
    "http://224.0.0.251/",
    "http://255.255.255.255/",
    "127.0.0.1:50051",
    "[::1]:50051",
    "grpc://10.1.2.3:50051",
  ])("refuses the non-public address %s", async (url) => {
    const dns = fakeDns({});
    const error = await rejection(validateAgentUrl(url, { resolve: dns.resolve }));
    expect(error.reason).toBe("blocked-address");
    expect(error.url).toBe(url);
    expect(dns.lookups).toEqual([]);
  });

  it("refuses a name that resolves to 127.0.0.1", async () => {
    const dns = fakeDns({ "agent.partner.example": "127.0.0.1" });
    const error = await rejection(
      validateAgentUrl("https://agent.partner.example/", {
        allowedHostSuffixes: ["partner.example"],
        resolve: dns.resolve,
      }),
    );
    expect(error).toMatchObject({ reason: "blocked-address", address: "127.0.0.1" });
    expect(error.message).toContain("agent.partner.example resolves to it");
  });

  it("refuses a name when any one of its addresses is non-public", async () => {
    const dns = fakeDns({ "agent.partner.example": [PUBLIC, "10.0.0.1"] });
    const error = await rejection(validateAgentUrl("https://agent.partner.example/", { resolve: dns.resolve }));
    expect(error.address).toBe("10.0.0.1");
  });

  it("refuses a bare host:port gRPC target that resolves to loopback", async () => {
    const dns = fakeDns({ localhost: ["127.0.0.1", "::1"] });
    expect((await rejection(validateAgentUrl("localhost:50051", { resolve: dns.resolve }))).reason).toBe(
      "blocked-address",
    );
  });

  it("accepts a public host and reports what it resolved to", async () => {
    const dns = fakeDns({ "agent.partner.example": PUBLIC });
    await expect(
      validateAgentUrl("agent.partner.example:50051", {
        allowedHostSuffixes: ["partner.example"],
        resolve: dns.resolve,
      }),
    ).resolves.toEqual({
      url: "agent.partner.example:50051",
      scheme: undefined,
      hostname: "agent.partner.example",
      port: 50051,
      addresses: [PUBLIC],
    });
  });

  it("refuses a name that does not resolve", async () => {
    const dns = fakeDns({});
    expect(
      (await rejection(validateAgentUrl("https://nowhere.partner.example/", { resolve: dns.resolve }))).reason,
    ).toBe("unresolvable");
  });

  it("skips the address block, and DNS, with allowPrivateIps", async () => {
    const dns = fakeDns({ "agent.internal.example": "10.0.0.1" });
    const result = await validateAgentUrl("http://agent.internal.example:8000", {
      allowPrivateIps: true,
      allowedHostSuffixes: ["internal.example"],
      resolve: dns.resolve,
    });
    expect(result.addresses).toEqual([]);
    expect(dns.lookups).toEqual([]);
    await expect(validateAgentUrl("http://127.0.0.1:8000", { allowPrivateIps: true })).resolves.toBeDefined();
  });

  describe("host suffixes", () => {
    const dns = fakeDns({
      "partner.example": PUBLIC,
      "api.partner.example": PUBLIC,
      "evilpartner.example": PUBLIC,
      "partner.example.attacker.test": PUBLIC,
      "xn--bcher-kva.partner.example": PUBLIC,
      "xn--bcher-kva.example": PUBLIC,
    });
    const check = (url: string, suffixes: string[]) =>
      validateAgentUrl(url, { allowedHostSuffixes: suffixes, resolve: dns.resolve });

    it("match on a dot boundary, case-insensitively, with or without a leading dot", async () => {
      await expect(check("https://API.Partner.Example/", ["partner.example"])).resolves.toBeDefined();
      await expect(check("https://partner.example/", ["partner.example"])).resolves.toBeDefined();
      await expect(check("https://api.partner.example/", [".PARTNER.example"])).resolves.toBeDefined();
      await expect(check("https://api.partner.example./", ["partner.example."])).resolves.toBeDefined();
      for (const url of ["https://evilpartner.example/", "https://partner.example.attacker.test/"]) {
        expect((await rejection(check(url, ["partner.example"]))).reason).toBe("host-suffix");
      }
    });

    it("compare in IDNA form whichever way host and suffix are spelled", async () => {
      await expect(check("https://bücher.partner.example/", ["partner.example"])).resolves.toBeDefined();
      await expect(check("https://xn--bcher-kva.example/", ["BÜCHER.example"])).resolves.toBeDefined();
      await expect(check("https://BÜCHER.example/", ["xn--bcher-kva.example"])).resolves.toBeDefined();
    });

    it("are checked before any DNS lookup", async () => {
      const quiet = fakeDns({ "evil.example": "127.0.0.1" });
      await rejection(
        validateAgentUrl("https://evil.example/", { allowedHostSuffixes: ["partner.example"], resolve: quiet.resolve }),
      );
      expect(quiet.lookups).toEqual([]);
    });

    it("cover an IP literal only when equal to it", async () => {
      expect((await rejection(check("http://8.8.8.8/", ["8.8"]))).reason).toBe("host-suffix");
      await expect(check("http://8.8.8.8/", ["8.8.8.8"])).resolves.toBeDefined();
    });

    it("refuse a malformed suffix as a configuration error", async () => {
      await expect(check("https://api.partner.example/", ["bad suffix!"])).rejects.toBeInstanceOf(
        NovaOSValidationError,
      );
    });
  });

  it.each([
    ["ftp://agent.partner.example/", "scheme"],
    ["file:///etc/passwd", "scheme"],
    ["javascript:alert(1)", "scheme"],
    ["mailto:agent@partner.example", "scheme"],
    ["http:/agent.partner.example", "scheme"],
    ["wss://agent.partner.example/", "scheme"],
    ["https://user:pass@agent.partner.example/", "credentials"],
    ["https://agent.partner.example@127.0.0.1/", "credentials"],
    ["http://[::1/", "unparseable"],
    ["http://agent.partner.example:99999/", "unparseable"],
    ["agent.partner.example:70000", "unparseable"],
    ["", "unparseable"],
    ["https://", "unparseable"],
  ])("refuses %j (%s)", async (url, reason) => {
    expect((await rejection(validateAgentUrl(url, { resolve: fakeDns({}).resolve }))).reason).toBe(reason);
  });

  it("narrows the schemes on request", async () => {
    const dns = fakeDns({ "agent.partner.example": PUBLIC });
    const error = await rejection(
      validateAgentUrl("http://agent.partner.example/", { allowedSchemes: ["https"], resolve: dns.resolve }),
    );
    expect(error.reason).toBe("scheme");
  });
});
