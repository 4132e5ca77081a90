import { randomUUID } from "node:crypto";
import { exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { NovaOSAuthenticationError } from "../../src/errors/novaos-errors.js";
import { InvalidTokenError, TokenDecodeError } from "../../src/security/token-errors.js";
import { JwksTokenVerifier } from "../../src/security/token-verifier.js";
import { type JwksServer, startJwksServer } from "./jwks-server.js";

const ISSUER = "https://iam.novaos.example/tenants/t-1";
const CLAIMS = { user_id: "u-1", tenant_id: "t-1", run_id: "r-1", instance_id: "i-1", agent_id: "a-1" };

interface RsaKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

async function rsaKey(kid: string): Promise<RsaKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return { kid, privateKey, publicKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

function sign(
  key: RsaKey,
  overrides: { claims?: JWTPayload; iss?: string; aud?: string; exp?: number; alg?: string } = {},
) {
  const jwt = new SignJWT({ ...CLAIMS, ...overrides.claims })
    .setProtectedHeader({ alg: overrides.alg ?? "RS256", kid: key.kid, typ: "JWT" })
    .setIssuer(overrides.iss ?? ISSUER)
    .setAudience(overrides.aud ?? "acp-agent")
    .setIssuedAt()
    .setExpirationTime(overrides.exp ?? Math.floor(Date.now() / 1000) + 300);
  return jwt.sign(key.privateKey);
}

async function refusal(promise: Promise<unknown>): Promise<InvalidTokenError> {
  const error = await promise.then(
    () => {
      throw new Error("the token was accepted");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidTokenError);
  expect(error).toBeInstanceOf(NovaOSAuthenticationError);
  return error as InvalidTokenError;
}

describe("JwksTokenVerifier", () => {
  let current: RsaKey;
  let server: JwksServer;
  const verifier = (options: Partial<ConstructorParameters<typeof JwksTokenVerifier>[0]> = {}) =>
    new JwksTokenVerifier({ gatewayUrl: server.url, issuer: ISSUER, ...options });

  beforeAll(async () => {
    current = await rsaKey("k-1");
    server = await startJwksServer({ keys: [current.publicJwk] });
  });
  afterAll(() => server.close());
  afterEach(() => {
    vi.useRealTimers();
    server.keys = { keys: [current.publicJwk] };
    server.failWith = undefined;
  });

  it("derives the JWKS URL from the gateway URL", () => {
    expect(new JwksTokenVerifier({ gatewayUrl: "http://gw:8081", issuer: ISSUER }).jwksUrl).toBe(
      "http://gw:8081/.well-known/jwks.json",
    );
    expect(new JwksTokenVerifier({ gatewayUrl: "https://gw.example/base/", issuer: ISSUER }).jwksUrl).toBe(
      "https://gw.example/base/.well-known/jwks.json",
    );
  });

  it("returns the claims of a valid RS256 token, with or without a Bearer prefix", async () => {
    const token = await sign(current);
    const v = verifier();
    await expect(v.verify(token)).resolves.toMatchObject({ ...CLAIMS, iss: ISSUER, aud: "acp-agent" });
    await expect(v.verify(`Bearer ${token}`)).resolves.toMatchObject(CLAIMS);
  });

  it("requires an issuer at construction", () => {
    expect(() => new JwksTokenVerifier({ gatewayUrl: server.url } as never)).toThrow(TypeError);
    expect(() => new JwksTokenVerifier({ gatewayUrl: server.url, issuer: " " })).toThrow(/issuer/);
  });

  it("refuses a token for another issuer or audience", async () => {
    const v = verifier();
    expect(
      (await refusal(v.verify(await sign(current, { iss: "https://iam.novaos.example/tenants/t-2" })))).reason,
    ).toBe("issuer");
    expect((await refusal(v.verify(await sign(current, { aud: "someone-else" })))).reason).toBe("audience");
    await expect(
      verifier({ audience: "custom" }).verify(await sign(current, { aud: "custom" })),
    ).resolves.toBeDefined();
  });

  it("refuses an expired token beyond the 30 s clock tolerance, accepts one within it", async () => {
    const now = Math.floor(Date.now() / 1000);
    const v = verifier();
    expect((await refusal(v.verify(await sign(current, { exp: now - 45 })))).reason).toBe("expired");
    await expect(v.verify(await sign(current, { exp: now - 10 }))).resolves.toMatchObject(CLAIMS);
  });

  it("refuses a token without exp or without an execution claim", async () => {
    const v = verifier();
    const noExp = await new SignJWT({ ...CLAIMS })
      .setProtectedHeader({ alg: "RS256", kid: current.kid })
      .setIssuer(ISSUER)
      .setAudience("acp-agent")
      .sign(current.privateKey);
    expect((await refusal(v.verify(noExp))).reason).toBe("claims");
    const noRun = await refusal(v.verify(await sign(current, { claims: { run_id: undefined } })));
    expect(noRun.reason).toBe("claims");
    expect(noRun.message).toContain("run_id");
  });

  it("refuses alg none, HS256 keyed with the public key, and RS384", async () => {
    const v = verifier();
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const exp = Math.floor(Date.now() / 1000) + 300;
    const payload = { ...CLAIMS, iss: ISSUER, aud: "acp-agent", exp };
    const none = `${b64({ alg: "none", kid: current.kid })}.${b64(payload)}.`;
    expect((await refusal(v.verify(none))).reason).toBe("algorithm");

    const pem = new TextEncoder().encode(await exportSPKI(current.publicKey));
    const hs = await new SignJWT(payload).setProtectedHeader({ alg: "HS256", kid: current.kid }).sign(pem);
    expect((await refusal(v.verify(hs))).reason).toBe("algorithm");

    const { privateKey } = await generateKeyPair("RS384");
    const rs384 = await new SignJWT(payload).setProtectedHeader({ alg: "RS384", kid: current.kid }).sign(privateKey);
    expect((await refusal(v.verify(rs384))).reason).toBe("algorithm");
  });

  it("refuses a token whose signature does not match its kid's key", async () => {
    const impostor = await rsaKey(current.kid);
    expect((await refusal(verifier().verify(await sign(impostor)))).reason).toBe("signature");
  });

  it("answers malformed tokens with TokenDecodeError and never echoes the token", async () => {
    const v = verifier();
    for (const token of ["", "abc", "a.b", "a.b.c", "eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c2ln", 42 as unknown as string]) {
      const error = await refusal(v.verify(token));
      expect(error).toBeInstanceOf(TokenDecodeError);
      expect(error.reason).toBe("malformed");
      if (typeof token === "string" && token.length > 3) expect(error.message).not.toContain(token);
    }
  });

  it("caches the JWKS for the TTL, then refetches", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    await using own = await startJwksServer({ keys: [current.publicJwk] });
    const v = new JwksTokenVerifier({ gatewayUrl: own.url, issuer: ISSUER });
    await v.verify(await sign(current));
    vi.advanceTimersByTime(299_000);
    await v.verify(await sign(current));
    expect(own.requests).toEqual(["/.well-known/jwks.json"]);
    vi.advanceTimersByTime(2_000);
    await v.verify(await sign(current));
    expect(own.requests).toHaveLength(2);
  });

  it("follows a key rotation: a new kid is fetched, a retired one stops verifying after the TTL", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    await using own = await startJwksServer({ keys: [current.publicJwk] });
    const v = new JwksTokenVerifier({ gatewayUrl: own.url, issuer: ISSUER, cacheTtlSeconds: 60 });
    await v.verify(await sign(current));
    const next = await rsaKey("k-2");
    own.keys = { keys: [current.publicJwk, next.publicJwk] };
    vi.advanceTimersByTime(31_000);
    await expect(v.verify(await sign(next))).resolves.toMatchObject(CLAIMS);
    expect(own.requests).toHaveLength(2);
    own.keys = { keys: [next.publicJwk] };
    vi.advanceTimersByTime(61_000);
    expect((await refusal(v.verify(await sign(current)))).reason).toBe("unknown-key");
    await expect(v.verify(await sign(next))).resolves.toBeDefined();
  });

  it("does not let a flood of unknown kids turn into a flood of JWKS requests", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    await using own = await startJwksServer({ keys: [current.publicJwk] });
    const v = new JwksTokenVerifier({ gatewayUrl: own.url, issuer: ISSUER });
    await v.verify(await sign(current));
    const stranger = await rsaKey("stranger");
    const forged = await Promise.all(Array.from({ length: 50 }, () => sign({ ...stranger, kid: randomUUID() })));
    const results = await Promise.allSettled(forged.map((t) => v.verify(t)));
    expect(
      results.every((r) => r.status === "rejected" && (r.reason as InvalidTokenError).reason === "unknown-key"),
    ).toBe(true);
    expect(own.requests).toHaveLength(1);
    vi.advanceTimersByTime(31_000);
    await Promise.allSettled(forged.slice(0, 10).map((t) => v.verify(t)));
    expect(own.requests).toHaveLength(2);
  });

  it("reports an unreachable JWKS as jwks-unavailable", async () => {
    await using down = await startJwksServer();
    down.failWith = 503;
    const v = new JwksTokenVerifier({ gatewayUrl: down.url, issuer: ISSUER });
    expect((await refusal(v.verify(await sign(current)))).reason).toBe("jwks-unavailable");
  });

  it("checks the gateway host against the allowlist in the constructor, before any request", async () => {
    const before = server.requests.length;
    expect(() => verifier({ allowedHosts: ["novaos.example.com"] })).toThrow(/allowlist/);
    expect(
      () =>
        new JwksTokenVerifier({
          gatewayUrl: "https://evilnovaos.example.com",
          issuer: ISSUER,
          allowedHosts: ["novaos.example.com"],
        }),
    ).toThrow(/allowlist/);
    expect(server.requests.length).toBe(before);
    await expect(verifier({ allowedHosts: ["127.0.0.1"] }).verify(await sign(current))).resolves.toBeDefined();
  });

  it("uses the fetch it is given", async () => {
    const seen: string[] = [];
    const v = verifier({
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    await v.verify(await sign(current));
    expect(seen).toEqual([`${server.url}/.well-known/jwks.json`]);
  });
});
