import { create, type JsonObject } from "@bufbuild/protobuf";
import { base64url, exportJWK, FlattenedSign, generateKeyPair, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentCapabilitiesSchema, AgentCardSchema } from "../../gen/a2a_pb.js";
import {
  AgentCardSignatureError,
  InvalidAgentCardSignatureError,
  NoAgentCardSignatureError,
} from "../../src/errors/novaos-errors.js";
import {
  canonicalizeAgentCard,
  createAgentCardVerifier,
  signAgentCard,
  verifyAgentCardSignatures,
} from "../../src/security/card-signing.js";
import { BASE_CARD, SECURED_CARD } from "./card-fixtures.js";
import { type JwksServer, startJwksServer } from "./jwks-server.js";

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe("canonicalizeAgentCard", () => {
  it("drops signatures, strips empty values recursively, keeps false and 0, sorts keys (RFC 8785)", () => {
    const card = deepFreeze({
      signatures: [{ protected: "x", signature: "y" }],
      name: "A",
      description: "",
      zeta: 0,
      alpha: false,
      capabilities: { extensions: [], streaming: false },
      skills: [],
      nested: { a: { b: { c: null, d: [{}, [], ""] } } },
      provider: { organization: "", url: null },
      list: [null, "", 1, { x: "" }],
    } as JsonObject);
    expect(canonicalizeAgentCard(card)).toBe(
      '{"alpha":false,"capabilities":{"streaming":false},"list":[1],"name":"A","zeta":0}',
    );
  });

  it("canonicalizes numbers and strings as RFC 8785 does, with raw UTF-8 and UTF-16 key order", () => {
    const card = { n: [1.0, 1e21, 0.1, -0, 1e-7], s: 'Ünïcødé ☀ \u0001 "q"', "€": 1, "\u{1F600}": 2, a: 3 };
    expect(canonicalizeAgentCard(card as JsonObject)).toBe(
      '{"a":3,"n":[1,1e+21,0.1,0,1e-7],"s":"Ünïcødé ☀ \\u0001 \\"q\\"","€":1,"😀":2}',
    );
  });

  it("reads a protobuf-es AgentCard through its ProtoJSON form", () => {
    const message = create(AgentCardSchema, {
      name: "A",
      description: "d",
      capabilities: create(AgentCapabilitiesSchema, { streaming: true }),
    });
    expect(canonicalizeAgentCard(message)).toBe('{"capabilities":{"streaming":true},"description":"d","name":"A"}');
  });

  it("keeps the empty values that are data: list items, map entries, oneof members, Struct content", () => {
    const canonical = canonicalizeAgentCard({
      ...SECURED_CARD,
      capabilities: { extensions: [{ uri: "urn:x", params: { allow: [], mode: "" } }] },
    });
    expect(canonical).toContain(
      '"securityRequirements":[{"schemes":{"bearer":{}}},{"schemes":{"oauth":{"list":["read"]}}}]',
    );
    expect(canonical).toContain('"mtls":{"mtlsSecurityScheme":{}}');
    expect(canonical).toContain('"scopes":{"read":"","write":"Write"}');
    expect(canonical).toContain('"securityRequirements":[{"schemes":{"mtls":{}}},{}]');
    expect(canonical).toContain('"params":{"allow":[],"mode":""}');
  });

  it("differs from the spec §8.4.1 example as the reference does: empty REQUIRED values are stripped too", () => {
    const example = {
      name: "Example Agent",
      description: "",
      capabilities: { streaming: false, pushNotifications: false, extensions: [] },
      skills: [],
    };
    // The spec's own output keeps "description":"" and "skills":[]; both peers and the reference strip them.
    expect(canonicalizeAgentCard(example)).toBe(
      '{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent"}',
    );
  });
});

interface TestKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function makeKey(alg: "ES256" | "RS256" | "EdDSA", kid: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

describe("signAgentCard / verifyAgentCardSignatures", () => {
  let es: TestKey;
  let rs: TestKey;
  let ed: TestKey;
  let jwks: JwksServer;
  let jwksUrl: string;

  beforeAll(async () => {
    [es, rs, ed] = await Promise.all([makeKey("ES256", "es-1"), makeKey("RS256", "rs-1"), makeKey("EdDSA", "ed-1")]);
    jwks = await startJwksServer({ keys: [es.publicJwk, rs.publicJwk, ed.publicJwk] });
    jwksUrl = `${jwks.url}/.well-known/jwks.json`;
  });
  afterAll(() => jwks.close());

  it.each(["ES256", "RS256", "EdDSA"])("round-trips a %s signature with a detached payload", async (alg) => {
    const key = { ES256: es, RS256: rs, EdDSA: ed }[alg]!;
    const signed = await signAgentCard(BASE_CARD, key.privateKey, { kid: key.kid, alg });
    const [entry] = signed.signatures as JsonObject[];
    expect(Object.keys(entry!).sort()).toEqual(["protected", "signature"]);
    expect(JSON.parse(new TextDecoder().decode(base64url.decode(entry!.protected as string)))).toEqual({
      alg,
      kid: key.kid,
      typ: "JOSE",
    });
    await expect(verifyAgentCardSignatures(signed, { jwksUrl })).resolves.toBeUndefined();
    expect(BASE_CARD.signatures).toBeUndefined();
  });

  it("refuses a card whose any non-empty field changed, vendor fields included", async () => {
    const signed = await signAgentCard({ ...BASE_CARD, "x-vendor": { tier: "gold" } }, es.privateKey, {
      kid: es.kid,
      alg: "ES256",
    });
    for (const tampered of [
      { ...signed, name: "Evil agent" },
      { ...signed, "x-vendor": { tier: "platinum" } },
      { ...signed, capabilities: { streaming: true, pushNotifications: true } },
      { ...signed, extra: 1 },
    ]) {
      await expect(verifyAgentCardSignatures(tampered, { jwksUrl })).rejects.toBeInstanceOf(
        InvalidAgentCardSignatureError,
      );
    }
    // Adding or removing empty values does not change what was signed.
    await expect(verifyAgentCardSignatures({ ...signed, iconUrl: "", tags: [] }, { jwksUrl })).resolves.toBeUndefined();
  });

  it("refuses a card whose meaningful empty values were removed, swapped or added", async () => {
    const signed = await signAgentCard(SECURED_CARD, es.privateKey, { kid: es.kid, alg: "ES256" });
    await expect(verifyAgentCardSignatures(signed, { jwksUrl })).resolves.toBeUndefined();
    const schemes = SECURED_CARD.securitySchemes as JsonObject;
    const skill = (SECURED_CARD.skills as JsonObject[])[0] as JsonObject;
    const tamperings: JsonObject[] = [
      // The scope-less bearer requirement removed, or swapped for another scheme.
      { ...signed, securityRequirements: [{ schemes: { oauth: { list: ["read"] } } }] },
      { ...signed, securityRequirements: [{ schemes: { mtls: {} } }, { schemes: { oauth: { list: ["read"] } } }] },
      // Anonymous access added as an alternative.
      { ...signed, securityRequirements: [...(SECURED_CARD.securityRequirements as JsonObject[]), {}] },
      // The skill's anonymous alternative removed.
      { ...signed, skills: [{ ...skill, securityRequirements: [{ schemes: { mtls: {} } }] }] },
      // A scope without a description removed; the mTLS scheme emptied of its kind.
      {
        ...signed,
        securitySchemes: {
          ...schemes,
          oauth: {
            oauth2SecurityScheme: {
              flows: { clientCredentials: { tokenUrl: "https://auth.example/token", scopes: { write: "Write" } } },
            },
          },
        },
      },
      { ...signed, securitySchemes: { ...schemes, mtls: {} } },
    ];
    for (const tampered of tamperings) {
      await expect(verifyAgentCardSignatures(tampered, { jwksUrl })).rejects.toBeInstanceOf(
        InvalidAgentCardSignatureError,
      );
    }
    // Values that only say "not set" still come and go freely.
    await expect(
      verifyAgentCardSignatures({ ...signed, iconUrl: "", provider: {} }, { jwksUrl }),
    ).resolves.toBeUndefined();
  });

  it("throws NoAgentCardSignatureError for an unsigned card, without fetching keys", async () => {
    const before = jwks.requests.length;
    for (const card of [BASE_CARD, { ...BASE_CARD, signatures: [] }]) {
      const error = await verifyAgentCardSignatures(card, { jwksUrl }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NoAgentCardSignatureError);
      expect(error).not.toBeInstanceOf(InvalidAgentCardSignatureError);
    }
    expect(jwks.requests.length).toBe(before);
  });

  it("accepts a card when one signature of several verifies (key rotation)", async () => {
    const retired = await makeKey("ES256", "es-retired");
    const old = await signAgentCard(BASE_CARD, retired.privateKey, { kid: retired.kid, alg: "ES256" });
    const both = await signAgentCard(old, rs.privateKey, { kid: rs.kid, alg: "RS256" });
    expect(both.signatures).toHaveLength(2);
    await expect(verifyAgentCardSignatures(both, { jwksUrl })).resolves.toBeUndefined();
    await expect(verifyAgentCardSignatures(old, { jwksUrl })).rejects.toThrow(/signature 0/);
  });

  it("never accepts alg none or HS256, whatever the list", async () => {
    const payload = new TextEncoder().encode(canonicalizeAgentCard(BASE_CARD));
    const hs = await new FlattenedSign(payload)
      .setProtectedHeader({ alg: "HS256", kid: es.kid, typ: "JOSE" })
      .sign(new TextEncoder().encode("a shared secret that is 32 bytes"));
    const none = {
      protected: base64url.encode(JSON.stringify({ alg: "none", kid: es.kid, typ: "JOSE" })),
      signature: "",
    };
    for (const entry of [{ protected: hs.protected!, signature: hs.signature }, none]) {
      await expect(verifyAgentCardSignatures({ ...BASE_CARD, signatures: [entry] }, { jwksUrl })).rejects.toThrow(
        /is not accepted/,
      );
    }
    for (const algorithms of [["HS256"], ["none"], ["RS256", "HS512"], []]) {
      expect(() => createAgentCardVerifier({ jwksUrl, algorithms })).toThrow(RangeError);
    }
    await expect(signAgentCard(BASE_CARD, es.privateKey, { kid: es.kid, alg: "HS256" })).rejects.toThrow(RangeError);
  });

  it("narrows to the algorithms the caller lists", async () => {
    const signed = await signAgentCard(BASE_CARD, es.privateKey, { kid: es.kid, alg: "ES256" });
    await expect(verifyAgentCardSignatures(signed, { jwksUrl, algorithms: ["RS256"] })).rejects.toBeInstanceOf(
      InvalidAgentCardSignatureError,
    );
    await expect(verifyAgentCardSignatures(signed, { jwksUrl, algorithms: ["ES256"] })).resolves.toBeUndefined();
  });

  it("refuses a signature without kid, an unknown kid, and malformed entries, naming each failure", async () => {
    const payload = new TextEncoder().encode(canonicalizeAgentCard(BASE_CARD));
    const noKid = await new FlattenedSign(payload)
      .setProtectedHeader({ alg: "ES256", typ: "JOSE" })
      .sign(es.privateKey);
    const stranger = await makeKey("ES256", "unknown-kid");
    const unknown = await signAgentCard(BASE_CARD, stranger.privateKey, { kid: stranger.kid, alg: "ES256" });
    const card = {
      ...BASE_CARD,
      signatures: [
        { protected: noKid.protected!, signature: noKid.signature },
        ...(unknown.signatures as JsonObject[]),
        "not an object",
        { protected: 1, signature: 2 },
        { protected: "%%%", signature: "x" },
      ],
    };
    const error = (await verifyAgentCardSignatures(card, { jwksUrl }).catch(
      (e: unknown) => e,
    )) as InvalidAgentCardSignatureError;
    expect(error).toBeInstanceOf(InvalidAgentCardSignatureError);
    expect(error.details.failures).toHaveLength(5);
    expect(String(error.details.failures)).toMatch(/no kid/);
  });

  it("never follows a jku named in the card", async () => {
    await using attacker = await startJwksServer({ keys: [] });
    const rogue = await makeKey("ES256", "rogue");
    attacker.keys = { keys: [rogue.publicJwk] };
    const signed = await signAgentCard(BASE_CARD, rogue.privateKey, {
      kid: rogue.kid,
      alg: "ES256",
      jku: `${attacker.url}/jwks.json`,
    });
    await expect(verifyAgentCardSignatures(signed, { jwksUrl })).rejects.toBeInstanceOf(InvalidAgentCardSignatureError);
    expect(attacker.requests).toEqual([]);
  });

  it("checks the jwksUrl host against the allowlist before any request", async () => {
    const before = jwks.requests.length;
    const signed = await signAgentCard(BASE_CARD, es.privateKey, { kid: es.kid, alg: "ES256" });
    await expect(verifyAgentCardSignatures(signed, { jwksUrl, allowedHosts: ["novaos.example.com"] })).rejects.toThrow(
      /allowlist/,
    );
    expect(jwks.requests.length).toBe(before);
    await expect(verifyAgentCardSignatures(signed, { jwksUrl, allowedHosts: ["127.0.0.1"] })).resolves.toBeUndefined();
  });

  it("reports an unreachable JWKS as AgentCardSignatureError, not as an invalid signature", async () => {
    await using down = await startJwksServer();
    down.failWith = 503;
    const signed = await signAgentCard(BASE_CARD, es.privateKey, { kid: es.kid, alg: "ES256" });
    const error = await verifyAgentCardSignatures(signed, { jwksUrl: `${down.url}/jwks.json` }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentCardSignatureError);
    expect(error).not.toBeInstanceOf(InvalidAgentCardSignatureError);
    expect((error as Error).message).toMatch(/could not be fetched/);
  });

  it("reuses the fetched keys across cards within one verifier, through the fetch it is given", async () => {
    await using own = await startJwksServer({ keys: [es.publicJwk] });
    const seen: string[] = [];
    const verify = createAgentCardVerifier({
      jwksUrl: `${own.url}/jwks.json`,
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    const signed = await signAgentCard(BASE_CARD, es.privateKey, { kid: es.kid, alg: "ES256" });
    await verify(signed);
    await verify({ ...signed });
    expect(own.requests).toEqual(["/jwks.json"]);
    expect(seen).toEqual([`${own.url}/jwks.json`]);
  });

  it("signs a protobuf-es AgentCard and returns one with the signature appended", async () => {
    const message = create(AgentCardSchema, { name: "A", description: "d", version: "1" });
    const signed = await signAgentCard(message, ed.privateKey, { kid: ed.kid, alg: "EdDSA" });
    expect(signed.$typeName).toBe("lf.a2a.v1.AgentCard");
    expect(signed.signatures).toHaveLength(1);
    expect(message.signatures).toHaveLength(0);
    await expect(verifyAgentCardSignatures(signed, { jwksUrl })).resolves.toBeUndefined();
  });
});
