import { describe, expect, it } from "vitest";
import { getDnsUrlForEnvironment, getDnsUrlFromEnv } from "../../src/discovery/dns-url-from-env.js";

describe("getDnsUrlFromEnv", () => {
  const all = {
    MY_DNS: "http://mine:1",
    AGENT_DNS_URL: "http://agent-dns:8000",
    ACP_DNS_URL: "http://acp-dns:8021",
    DNS_SERVICE_HOST: "registrar",
    DNS_SERVICE_PORT: "9000",
    ACP_DNS_URL_DEV: "http://dev-dns:8000",
    ACP_DNS_URL_STAGING: "http://staging-dns:8000",
  };
  const without = (...names: string[]) =>
    Object.fromEntries(Object.entries(all).filter(([name]) => !names.includes(name)));

  it("checks, in order: customUrl, envVar, AGENT_DNS_URL, ACP_DNS_URL, DNS_SERVICE_HOST/PORT, ACP_DNS_URL_<ENV>", () => {
    expect(getDnsUrlFromEnv({ customUrl: "http://custom:8000", envVar: "MY_DNS", env: all })).toBe(
      "http://custom:8000",
    );
    expect(getDnsUrlFromEnv({ envVar: "MY_DNS", env: all })).toBe("http://mine:1");
    expect(getDnsUrlFromEnv({ env: all })).toBe("http://agent-dns:8000");
    expect(getDnsUrlFromEnv({ env: without("AGENT_DNS_URL") })).toBe("http://acp-dns:8021");
    expect(getDnsUrlFromEnv({ env: without("AGENT_DNS_URL", "ACP_DNS_URL") })).toBe("http://registrar:9000");
    const perEnvironment = without("AGENT_DNS_URL", "ACP_DNS_URL", "DNS_SERVICE_HOST");
    expect(getDnsUrlFromEnv({ env: perEnvironment })).toBe("http://dev-dns:8000");
    expect(getDnsUrlFromEnv({ env: { ...perEnvironment, ENVIRONMENT: "Staging" } })).toBe("http://staging-dns:8000");
    expect(getDnsUrlFromEnv({ env: perEnvironment, environment: "staging" })).toBe("http://staging-dns:8000");
  });

  it("defaults DNS_SERVICE_PORT to 8000 and brackets an IPv6 host", () => {
    expect(getDnsUrlFromEnv({ env: { DNS_SERVICE_HOST: "registrar" } })).toBe("http://registrar:8000");
    expect(getDnsUrlFromEnv({ env: { DNS_SERVICE_HOST: "fd00::5", DNS_SERVICE_PORT: "81" } })).toBe(
      "http://[fd00::5]:81",
    );
  });

  it("treats a blank variable as unset", () => {
    expect(getDnsUrlFromEnv({ env: { AGENT_DNS_URL: "  ", ACP_DNS_URL: "http://acp:1" } })).toBe("http://acp:1");
  });

  it("refuses a value that is set but is not an http(s) URL, naming the variable", () => {
    expect(() => getDnsUrlFromEnv({ env: { AGENT_DNS_URL: "agent-dns:8000" } })).toThrow(/AGENT_DNS_URL/);
    expect(() => getDnsUrlFromEnv({ env: { ACP_DNS_URL: "ftp://x" } })).toThrow(RangeError);
    expect(() => getDnsUrlFromEnv({ customUrl: "" })).toThrow(/customUrl/);
    expect(() => getDnsUrlFromEnv({ env: { DNS_SERVICE_HOST: "h", DNS_SERVICE_PORT: "http" } })).toThrow(
      /DNS_SERVICE_PORT/,
    );
    expect(() => getDnsUrlFromEnv({ env: { DNS_SERVICE_HOST: "h", DNS_SERVICE_PORT: "70000" } })).toThrow(RangeError);
  });

  it("has no default host: the error names every variable it checked", () => {
    let message = "";
    try {
      getDnsUrlFromEnv({ envVar: "MY_DNS", env: { ENV: "prod" } });
    } catch (error) {
      expect(error).toBeInstanceOf(RangeError);
      message = (error as Error).message;
    }
    for (const name of [
      "MY_DNS",
      "AGENT_DNS_URL",
      "ACP_DNS_URL",
      "DNS_SERVICE_HOST",
      "DNS_SERVICE_PORT",
      "ACP_DNS_URL_PROD",
    ]) {
      expect(message).toContain(name);
    }
  });
});

describe("getDnsUrlForEnvironment", () => {
  it("holds the reference's example: raises unless a DNS variable is configured, naming every way to configure one", () => {
    let error: unknown;
    try {
      getDnsUrlForEnvironment("staging", {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RangeError);
    for (const name of [
      "AGENT_DNS_URL",
      "ACP_DNS_URL",
      "DNS_SERVICE_HOST",
      "DNS_SERVICE_PORT",
      "ACP_DNS_URL_STAGING",
    ]) {
      expect((error as Error).message).toContain(name);
    }
    expect((error as Error).message).toContain("There is no default host");
  });

  it("answers the URL configured for that environment, never a default host", () => {
    const env = { ACP_DNS_URL_STAGING: "http://staging-dns:8000", ACP_DNS_URL_PROD: "https://prod-dns" };
    expect(getDnsUrlForEnvironment("staging", env)).toBe("http://staging-dns:8000");
    expect(getDnsUrlForEnvironment("prod", env)).toBe("https://prod-dns");
    expect(() => getDnsUrlForEnvironment("dev", env)).toThrow(/ACP_DNS_URL_DEV/);
    expect(getDnsUrlForEnvironment(undefined, { ...env, ENVIRONMENT: "prod" })).toBe("https://prod-dns");
    expect(getDnsUrlForEnvironment("dev", { AGENT_DNS_URL: "http://agent-dns:8000" })).toBe("http://agent-dns:8000");
  });
});
