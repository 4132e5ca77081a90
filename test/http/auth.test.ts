import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ApiKeyAuth, apiKeyAuthFromEnv, BearerTokenAuth } from "../../src/http/auth.js";

describe("auth providers", () => {
  it("formats a bearer token, re-read on every call", () => {
    const auth = new BearerTokenAuth("t1");
    expect(auth.headers()).toEqual({ Authorization: "Bearer t1" });
    auth.token = "t2";
    expect(auth.headers()).toEqual({ Authorization: "Bearer t2" });
  });

  it("formats an API key under X-API-Key or a chosen header", () => {
    expect(new ApiKeyAuth("k").headers()).toEqual({ "X-API-Key": "k" });
    expect(new ApiKeyAuth("k", "X-Custom").headers()).toEqual({ "X-Custom": "k" });
  });

  it("never prints a credential", () => {
    for (const auth of [new BearerTokenAuth("s3cret"), new ApiKeyAuth("s3cret")]) {
      expect(JSON.stringify(auth)).not.toContain("s3cret");
      expect(inspect(auth)).not.toContain("s3cret");
      expect(`${inspect({ nested: auth })}`).not.toContain("s3cret");
    }
  });

  it("reads an API key from ACP_API_KEY, and refuses a missing or blank one naming the variable", () => {
    expect(apiKeyAuthFromEnv(undefined, undefined, { ACP_API_KEY: "k" }).headers()).toEqual({ "X-API-Key": "k" });
    expect(apiKeyAuthFromEnv("MY_KEY", "X-K", { MY_KEY: "v" }).headers()).toEqual({ "X-K": "v" });
    expect(() => apiKeyAuthFromEnv(undefined, undefined, {})).toThrow(/ACP_API_KEY/);
    expect(() => apiKeyAuthFromEnv(undefined, undefined, { ACP_API_KEY: "  " })).toThrow(RangeError);
  });
});
