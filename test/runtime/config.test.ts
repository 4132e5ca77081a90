import { describe, expect, it } from "vitest";
import {
  DEFAULT_TOOL_TIMEOUT_S,
  getAllowedHostsFromEnv,
  getDefaultToolTimeoutS,
  getEnvironment,
  validateHostAllowed,
  validateToolTimeout,
} from "../../src/runtime/config.js";

describe("getEnvironment", () => {
  it("reads ENVIRONMENT, then ENV, case-insensitively; dev by default", () => {
    expect(getEnvironment({})).toBe("dev");
    expect(getEnvironment({ ENVIRONMENT: " PROD " })).toBe("prod");
    expect(getEnvironment({ ENV: "Staging" })).toBe("staging");
    expect(getEnvironment({ ENVIRONMENT: "prod", ENV: "staging" })).toBe("prod");
  });

  it("refuses an unknown ENVIRONMENT, but ignores a foreign ENV (a POSIX shell start-up file)", () => {
    expect(() => getEnvironment({ ENVIRONMENT: "production" })).toThrow(RangeError);
    expect(() => getEnvironment({ ENVIRONMENT: "production" })).toThrow(/dev, staging, prod/);
    expect(getEnvironment({ ENV: "/etc/profile" })).toBe("dev");
  });
});

describe("NOVAOS_ALLOWED_HOSTS", () => {
  it("is a trimmed, lower-cased suffix list; unset or blank means no restriction", () => {
    expect(getAllowedHostsFromEnv({})).toBeUndefined();
    expect(getAllowedHostsFromEnv({ NOVAOS_ALLOWED_HOSTS: " , " })).toBeUndefined();
    expect(getAllowedHostsFromEnv({ NOVAOS_ALLOWED_HOSTS: "NovaOS.Example.com, localhost,.svc" })).toEqual([
      "novaos.example.com",
      "localhost",
      "svc",
    ]);
  });

  it("matches on a dot boundary, case-insensitively", () => {
    const env = { NOVAOS_ALLOWED_HOSTS: "novaos.example.com,localhost" };
    expect(() => validateHostAllowed("https://api.NOVAOS.example.com/x", undefined, env)).not.toThrow();
    expect(() => validateHostAllowed("http://localhost:8000", undefined, env)).not.toThrow();
    expect(() => validateHostAllowed("https://evilnovaos.example.com", undefined, env)).toThrow(RangeError);
    expect(() => validateHostAllowed("https://novaos.example.com.evil.io", undefined, env)).toThrow(/allowlist/);
  });

  it("is a no-op without a list; an explicit list wins over the environment", () => {
    expect(() => validateHostAllowed("https://anything.example", undefined, {})).not.toThrow();
    const env = { NOVAOS_ALLOWED_HOSTS: "a.example" };
    expect(() => validateHostAllowed("https://b.example", ["b.example"], env)).not.toThrow();
    expect(() => validateHostAllowed("not a url", ["b.example"], env)).toThrow(/valid URL/);
  });

  it("is the discovery guard's suffix rule: IDNA, trailing dots, IP literals only when equal", () => {
    expect(() => validateHostAllowed("https://api.xn--bcher-kva.example/", ["Bücher.example"])).not.toThrow();
    expect(() => validateHostAllowed("https://api.partner.example./", ["partner.example."])).not.toThrow();
    expect(() => validateHostAllowed("http://127.0.0.1:8080/", ["0.0.1"])).toThrow(/allowlist/);
    expect(() => validateHostAllowed("http://127.0.0.1:8080/", ["127.0.0.1"])).not.toThrow();
    expect(() => validateHostAllowed("http://[::1]:8080/", ["[::1]"])).not.toThrow();
  });

  it("refuses an entry that names no host rather than dropping it (an empty list would allow everything)", () => {
    expect(() => getAllowedHostsFromEnv({ NOVAOS_ALLOWED_HOSTS: "exa mple" })).toThrow(/NOVAOS_ALLOWED_HOSTS/);
    expect(() => validateHostAllowed("https://b.example", ["b.example:443"])).toThrow(RangeError);
  });
});

describe("NOVAOS_TOOL_TIMEOUT_S", () => {
  it("defaults to 128 and accepts a positive whole number with surrounding blanks", () => {
    expect(getDefaultToolTimeoutS({})).toBe(DEFAULT_TOOL_TIMEOUT_S);
    expect(DEFAULT_TOOL_TIMEOUT_S).toBe(128);
    expect(getDefaultToolTimeoutS({ NOVAOS_TOOL_TIMEOUT_S: " 180 " })).toBe(180);
  });

  it.each(["0", "-5", "1.5", "abc", "12s"])("refuses %s, naming the variable", (value) => {
    expect(() => getDefaultToolTimeoutS({ NOVAOS_TOOL_TIMEOUT_S: value })).toThrow(/NOVAOS_TOOL_TIMEOUT_S/);
  });

  it("validateToolTimeout refuses only a timeout shorter than the declared gateway ceiling", () => {
    expect(() => validateToolTimeout(30, undefined)).not.toThrow();
    expect(() => validateToolTimeout(30, 30)).not.toThrow();
    expect(() => validateToolTimeout(29, 30)).toThrow(RangeError);
  });
});
