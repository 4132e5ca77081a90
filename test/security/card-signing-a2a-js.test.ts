/**
 * Interop with @a2a-js/sdk 1.3.0's card signing, both ways, and the cases
 * where the two canonical forms differ (docs/security.md "Card signing").
 */

import {
  type AgentCard,
  canonicalizeAgentCard as a2aJsCanonicalize,
  generateAgentCardSignature,
  verifyAgentCardSignature,
} from "@a2a-js/sdk";
import type { JsonObject } from "@bufbuild/protobuf";
import { exportJWK, FlattenedSign, generateKeyPair, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { InvalidAgentCardSignatureError } from "../../src/errors/novaos-errors.js";
import {
  canonicalizeAgentCard,
  canonicalizeAgentCardSchemaForm,
  signAgentCard,
  verifyAgentCardSignatures,
} from "../../src/security/card-signing.js";
import { BASE_CARD, SECURED_CARD } from "./card-fixtures.js";
import { type JwksServer, startJwksServer } from "./jwks-server.js";

const KID = "a2a-js-interop";

describe("card signing interop with @a2a-js/sdk", () => {
  let privateKey: CryptoKey;
  let publicJwk: JWK;
  let jwks: JwksServer;
  let jwksUrl: string;
  const a2aJsVerify = () => verifyAgentCardSignature(async () => publicJwk);
  /** What a2a-js's agentCardHandler serves: JSON.stringify of the card object. */
  const served = (card: unknown) => JSON.parse(JSON.stringify(card)) as JsonObject;

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    privateKey = pair.privateKey;
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: "ES256" };
    jwks = await startJwksServer({ keys: [publicJwk] });
    jwksUrl = `${jwks.url}/jwks.json`;
    // a2a-js logs every failed entry on console.debug.
    vi.spyOn(console, "debug").mockImplementation(() => {});
  });
  afterAll(() => jwks.close());

  it("verifies a card signed by generateAgentCardSignature", async () => {
    const signed = await generateAgentCardSignature(privateKey, { alg: "ES256", kid: KID, typ: "JOSE" })(
      BASE_CARD as unknown as AgentCard,
    );
    await expect(verifyAgentCardSignatures(served(signed), { jwksUrl })).resolves.toBeUndefined();
  });

  it("produces a card that verifyAgentCardSignature accepts", async () => {
    const signed = await signAgentCard(BASE_CARD, privateKey, { kid: KID, alg: "ES256" });
    await expect(a2aJsVerify()(signed as unknown as AgentCard)).resolves.toBeUndefined();
    await expect(a2aJsVerify()({ ...signed, name: "Evil" } as unknown as AgentCard)).rejects.toThrow();
  });

  it("agrees with a2a-js on non-ASCII text (raw UTF-8, no \\u escapes), both ways", async () => {
    const card = { ...BASE_CARD, name: "Météo ☀ агент", description: "天気予報 😀" };
    expect(canonicalizeAgentCard(card)).toBe(a2aJsCanonicalize(card as unknown as AgentCard));
    expect(canonicalizeAgentCard(card)).toContain("Météo ☀ агент");
    const byThem = await generateAgentCardSignature(privateKey, { alg: "ES256", kid: KID, typ: "JOSE" })(
      card as unknown as AgentCard,
    );
    await expect(verifyAgentCardSignatures(served(byThem), { jwksUrl })).resolves.toBeUndefined();
    const byUs = await signAgentCard(card, privateKey, { kid: KID, alg: "ES256" });
    await expect(a2aJsVerify()(byUs as unknown as AgentCard)).resolves.toBeUndefined();
  });

  it("differs from a2a-python on non-ASCII text: a signature over \\u-escaped JSON does not verify", async () => {
    const card = { ...BASE_CARD, name: "Météo" };
    // a2a-python's json.dumps(sort_keys=True, separators=(",", ":")) keeps ensure_ascii=True.
    const pythonForm = canonicalizeAgentCard(card).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    expect(pythonForm).toContain("M\\u00e9t\\u00e9o");
    const jws = await new FlattenedSign(new TextEncoder().encode(pythonForm))
      .setProtectedHeader({ alg: "ES256", kid: KID, typ: "JOSE" })
      .sign(privateKey);
    const signed = { ...card, signatures: [{ protected: jws.protected!, signature: jws.signature }] };
    await expect(verifyAgentCardSignatures(signed, { jwksUrl })).rejects.toBeInstanceOf(InvalidAgentCardSignatureError);
  });

  describe("where the canonical forms differ", () => {
    /** An a2a-js card object as its users build it: explicit `required: false`, plus a vendor field. */
    const divergent = {
      ...BASE_CARD,
      capabilities: { streaming: true, extensions: [{ uri: "https://ext.example/v1", required: false }] },
      "x-vendor": { tier: "gold" },
    };

    it("a2a-js drops implicit defaults and unknown fields; the raw form keeps them", () => {
      expect(a2aJsCanonicalize(divergent as unknown as AgentCard)).not.toContain('"required"');
      expect(a2aJsCanonicalize(divergent as unknown as AgentCard)).not.toContain("x-vendor");
      expect(canonicalizeAgentCard(divergent)).toContain('"required":false');
      expect(canonicalizeAgentCard(divergent)).toContain('"x-vendor"');
      expect(canonicalizeAgentCardSchemaForm(divergent)).toBe(a2aJsCanonicalize(divergent as unknown as AgentCard));
    });

    it("an a2a-js signature over such a card fails the default (raw) check and passes with the schema form", async () => {
      const signed = served(
        await generateAgentCardSignature(privateKey, { alg: "ES256", kid: KID, typ: "JOSE" })(
          divergent as unknown as AgentCard,
        ),
      );
      await expect(verifyAgentCardSignatures(signed, { jwksUrl })).rejects.toBeInstanceOf(
        InvalidAgentCardSignatureError,
      );
      await expect(
        verifyAgentCardSignatures(signed, { jwksUrl, canonicalForms: ["raw", "schema"] }),
      ).resolves.toBeUndefined();
      // The schema form does not cover the vendor field: that is the price of the opt-in.
      await expect(
        verifyAgentCardSignatures(
          { ...signed, "x-vendor": { tier: "platinum" } },
          { jwksUrl, canonicalForms: ["schema"] },
        ),
      ).resolves.toBeUndefined();
    });

    it("a card signed here with such fields fails a2a-js's check", async () => {
      const signed = await signAgentCard(divergent, privateKey, { kid: KID, alg: "ES256" });
      await expect(a2aJsVerify()(signed as unknown as AgentCard)).rejects.toThrow();
      await expect(verifyAgentCardSignatures(signed, { jwksUrl })).resolves.toBeUndefined();
    });
  });

  describe("where emptiness is the data (a scope-less security requirement)", () => {
    const bearerOnly: JsonObject = {
      ...BASE_CARD,
      securitySchemes: SECURED_CARD.securitySchemes ?? null,
      securityRequirements: [{ schemes: { bearer: {} } }],
    };
    const withoutRequirement = (card: JsonObject) => {
      const { securityRequirements: _dropped, ...rest } = card;
      return rest;
    };

    it("a2a-js strips the requirement from what it signs; the raw form keeps it, the schema form matches a2a-js", () => {
      expect(a2aJsCanonicalize(bearerOnly as unknown as AgentCard)).not.toContain("securityRequirements");
      expect(canonicalizeAgentCard(bearerOnly)).toContain('"securityRequirements":[{"schemes":{"bearer":{}}}]');
      expect(canonicalizeAgentCardSchemaForm(bearerOnly)).toBe(a2aJsCanonicalize(bearerOnly as unknown as AgentCard));
    });

    it("an a2a-js signature over such a card verifies only with the schema form, which does not cover the requirement", async () => {
      const signed = served(
        await generateAgentCardSignature(privateKey, { alg: "ES256", kid: KID, typ: "JOSE" })(
          bearerOnly as unknown as AgentCard,
        ),
      );
      await expect(verifyAgentCardSignatures(signed, { jwksUrl })).rejects.toBeInstanceOf(
        InvalidAgentCardSignatureError,
      );
      const both = { jwksUrl, canonicalForms: ["raw", "schema"] } as const;
      await expect(verifyAgentCardSignatures(signed, both)).resolves.toBeUndefined();
      // The price of the opt-in, and a2a-js's own check: the requirement can be removed unnoticed.
      await expect(verifyAgentCardSignatures(withoutRequirement(signed), both)).resolves.toBeUndefined();
      await expect(a2aJsVerify()(withoutRequirement(signed) as unknown as AgentCard)).resolves.toBeUndefined();
    });

    it("a card signed here covers the requirement; a2a-js cannot verify it", async () => {
      const signed = await signAgentCard(bearerOnly, privateKey, { kid: KID, alg: "ES256" });
      await expect(verifyAgentCardSignatures(signed, { jwksUrl })).resolves.toBeUndefined();
      await expect(verifyAgentCardSignatures(withoutRequirement(signed), { jwksUrl })).rejects.toBeInstanceOf(
        InvalidAgentCardSignatureError,
      );
      await expect(a2aJsVerify()(signed as unknown as AgentCard)).rejects.toThrow();
    });

    it("cards without such values still verify both ways", async () => {
      const plain: JsonObject = {
        ...BASE_CARD,
        securitySchemes: {
          oauth: {
            oauth2SecurityScheme: {
              flows: { clientCredentials: { tokenUrl: "https://auth.example/token", scopes: { read: "Read" } } },
            },
          },
        },
        securityRequirements: [{ schemes: { oauth: { list: ["read"] } } }],
      };
      expect(canonicalizeAgentCard(plain)).toBe(a2aJsCanonicalize(plain as unknown as AgentCard));
      const byUs = await signAgentCard(plain, privateKey, { kid: KID, alg: "ES256" });
      await expect(a2aJsVerify()(byUs as unknown as AgentCard)).resolves.toBeUndefined();
      const byThem = served(
        await generateAgentCardSignature(privateKey, { alg: "ES256", kid: KID, typ: "JOSE" })(
          plain as unknown as AgentCard,
        ),
      );
      await expect(verifyAgentCardSignatures(byThem, { jwksUrl })).resolves.toBeUndefined();
    });
  });
});
