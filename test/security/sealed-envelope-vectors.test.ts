/**
 * The published vectors, checked twice: by the SDK (@noble/*) and by the
 * independent node:crypto implementation in test/vectors. Round trips across
 * the two implementations show they agree on everything the vectors do not
 * pin (fresh ephemeral keys and nonces).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { calculateJwkThumbprint } from "jose";
import { describe, expect, it } from "vitest";
import { SealedEnvelopeError, SealedEnvelopeFormatError } from "../../src/errors/novaos-errors.js";
import { jwkThumbprint, RecipientKey } from "../../src/security/recipient-key.js";
import {
  deliveryAad,
  ENVELOPE_OPEN_FAILED,
  openEnvelope,
  type SecretDelivery,
  sealEnvelope,
} from "../../src/security/sealed-envelope.js";
import * as independent from "../vectors/node-crypto-envelope.js";

interface WireDelivery {
  tenant_id: string;
  instance_id: string;
  run_id: string;
  secret_name: string;
}
interface Vectors {
  suite: string;
  keys: Record<string, { kty: string; crv: string; d: string; x: string; kid: string }>;
  positive: Array<{
    name: string;
    recipient: string;
    ephemeralSecret: string;
    iv: string;
    delivery: WireDelivery;
    plaintext: string;
    intermediates: { sharedSecret: string; info: string; aad: string; contentKey: string };
    envelope: Record<string, unknown>;
  }>;
  negative: Array<{
    name: string;
    recipient: string;
    delivery: WireDelivery;
    envelope: unknown;
    outcome: "format" | "open";
  }>;
}

const vectors: Vectors = JSON.parse(
  readFileSync(new URL("../vectors/sealed-envelope-v1.json", import.meta.url), "utf8"),
);
const delivery = (d: WireDelivery): SecretDelivery => ({
  tenantId: d.tenant_id,
  instanceId: d.instance_id,
  runId: d.run_id,
  secretName: d.secret_name,
});
const secretOf = (name: string) => Buffer.from(vectors.keys[name]!.d, "base64url");
const recipientOf = (name: string) => RecipientKey.fromJwk(vectors.keys[name]);

describe("sealed-envelope-v1.json", () => {
  it("covers every class of input the spec names", () => {
    const names = vectors.negative.map((n) => n.name).join("\n");
    for (const pattern of [/kid of another/, /ct first byte/, /tag/, /iv bit/, /epk bit/, /binding: another tenant/]) {
      expect(names).toMatch(pattern);
    }
    for (const pattern of [/padded/, /standard alphabet/, /space/, /1 mod 4/, /trailing bits/, /unknown suite/]) {
      expect(names).toMatch(pattern);
    }
    expect(vectors.positive.length).toBeGreaterThanOrEqual(4);
    expect(vectors.negative.filter((n) => n.outcome === "open").length).toBeGreaterThanOrEqual(15);
  });

  it.each(Object.entries(vectors.keys))(
    "key %s: kid is the RFC 7638 thumbprint, as jose computes it",
    async (_, jwk) => {
      expect(jwkThumbprint(jwk.x)).toBe(jwk.kid);
      expect(await calculateJwkThumbprint({ kty: "OKP", crv: "X25519", x: jwk.x })).toBe(jwk.kid);
      expect(RecipientKey.fromJwk(jwk).kid).toBe(jwk.kid);
    },
  );

  describe.each(vectors.positive)("positive: $name", (v) => {
    it("reproduces byte for byte from its inputs (node:crypto)", () => {
      const recipientPublic = Buffer.from(vectors.keys[v.recipient]!.x, "base64url");
      const { envelope, intermediates } = independent.seal(
        v.plaintext,
        recipientPublic,
        delivery(v.delivery),
        Buffer.from(v.ephemeralSecret, "base64url"),
        Buffer.from(v.iv, "base64url"),
      );
      expect(envelope).toEqual(v.envelope);
      expect(intermediates).toEqual(v.intermediates);
    });

    it("opens with the SDK and with node:crypto", () => {
      expect(openEnvelope(v.envelope, recipientOf(v.recipient), delivery(v.delivery))).toBe(v.plaintext);
      expect(independent.open(v.envelope, secretOf(v.recipient), delivery(v.delivery))).toBe(v.plaintext);
    });

    it("agrees on the associated data", () => {
      expect(Buffer.from(deliveryAad(delivery(v.delivery))!).toString("hex")).toBe(v.intermediates.aad);
    });
  });

  describe.each(vectors.negative)("negative: $name", (v) => {
    it(`fails with "${v.outcome}" in the SDK and in node:crypto`, () => {
      const run = () => openEnvelope(v.envelope, recipientOf(v.recipient), delivery(v.delivery));
      let error: unknown;
      try {
        run();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SealedEnvelopeError);
      if (v.outcome === "format") {
        expect(error).toBeInstanceOf(SealedEnvelopeFormatError);
      } else {
        expect(error).not.toBeInstanceOf(SealedEnvelopeFormatError);
        expect((error as Error).message).toBe(ENVELOPE_OPEN_FAILED);
      }
      expect(() => independent.open(v.envelope, secretOf(v.recipient), delivery(v.delivery))).toThrow(
        expect.objectContaining({ outcome: v.outcome }),
      );
    });
  });
});

describe("cross-implementation round trips", () => {
  const cases: Array<[string, SecretDelivery]> = [
    ["s3cr3t", { tenantId: "t", instanceId: "i", runId: "r", secretName: "N" }],
    ["", { tenantId: "", instanceId: "", runId: "", secretName: "" }],
    ["Grüße 😀 密码", { tenantId: "tenant-ü", instanceId: "i", runId: "r", secretName: "名前" }],
    ["x".repeat(100_000), { tenantId: "t", instanceId: "i", runId: "r", secretName: "BIG" }],
  ];

  it.each(cases)("sealed by the SDK, opened by node:crypto (%#)", (plaintext, d) => {
    const secret = randomBytes(32);
    const envelope = sealEnvelope(plaintext, { x: independent.publicFromSecret(secret).toString("base64url") }, d);
    expect(independent.open(envelope, secret, d)).toBe(plaintext);
  });

  it.each(cases)("sealed by node:crypto with fresh randomness, opened by the SDK (%#)", (plaintext, d) => {
    const secret = randomBytes(32);
    const { envelope } = independent.seal(
      plaintext,
      independent.publicFromSecret(secret),
      d,
      randomBytes(32),
      randomBytes(12),
    );
    expect(openEnvelope(envelope, RecipientKey.fromSecretKey(secret), d)).toBe(plaintext);
  });
});
