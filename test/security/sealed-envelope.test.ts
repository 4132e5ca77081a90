import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { SealedEnvelopeError, SealedEnvelopeFormatError } from "../../src/errors/novaos-errors.js";
import { b64uDecode, b64uEncode } from "../../src/security/base64url.js";
import { jwkThumbprint, RecipientKey } from "../../src/security/recipient-key.js";
import {
  ENVELOPE_OPEN_FAILED,
  envelopeKeyId,
  openEnvelope,
  SEALED_ENVELOPE_SUITE,
  type SecretDelivery,
  sealEnvelope,
} from "../../src/security/sealed-envelope.js";

const DELIVERY: SecretDelivery = { tenantId: "t-1", instanceId: "i-1", runId: "r-1", secretName: "API_KEY" };
const hex = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));

describe("strict base64url", () => {
  it.each([
    ["padding", "QUJD="],
    ["standard alphabet +", "ab+d"],
    ["standard alphabet /", "ab/d"],
    ["whitespace", "QUJD QUJD"],
    ["line break", "QUJD\nQUJD"],
    ["length 1 mod 4", "QUJDQ"],
    ["non-canonical trailing bits", "QUJDRB"],
    ["non-ASCII", "QUJDé"],
  ])("rejects %s", (_, value) => {
    expect(() => b64uDecode(value, "f")).toThrow(SealedEnvelopeFormatError);
  });

  it.each([undefined, null, 1, {}, []])("rejects the non-string %j", (value) => {
    expect(() => b64uDecode(value, "f")).toThrow(/"f" is not a string/);
  });

  it("checks the decoded length and round-trips what it accepts", () => {
    expect(() => b64uDecode("QUJD", "iv", 12)).toThrow(/12 bytes/);
    for (const value of ["", "QQ", "QUI", "QUJD", "_-8", b64uEncode(new Uint8Array(32).fill(255))]) {
      expect(b64uEncode(b64uDecode(value, "f"))).toBe(value);
    }
  });

  it("names the field, never the value", () => {
    expect(() => b64uDecode("s3cr3t+value", "ct")).toThrow(/^(?!.*s3cr3t).*"ct"/);
  });
});

describe("RecipientKey", () => {
  // RFC 7748 §6.1 (the keys RFC 8037 Appendix A.6 uses as JWKs).
  const ALICE_SECRET = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
  const ALICE_PUBLIC = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";
  const BOB_PUBLIC = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f";
  const SHARED = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";

  it("derives the RFC 7748 public key and shared secret", () => {
    const alice = RecipientKey.fromSecretKey(hex(ALICE_SECRET));
    expect(alice.publicJwk().x).toBe("hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo");
    expect(Buffer.from(alice.publicKey).toString("hex")).toBe(ALICE_PUBLIC);
    expect(Buffer.from(alice.deriveSharedSecret(hex(BOB_PUBLIC))).toString("hex")).toBe(SHARED);
  });

  it("computes the thumbprint over the literal RFC 7638 form", async () => {
    const { createHash } = await import("node:crypto");
    const x = "hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo";
    const expected = createHash("sha256").update(`{"crv":"X25519","kty":"OKP","x":"${x}"}`).digest("base64url");
    expect(jwkThumbprint(x)).toBe(expected);
    expect(RecipientKey.fromSecretKey(hex(ALICE_SECRET)).kid).toBe(expected);
  });

  it("loads a JWK only when x and kid agree with d", () => {
    const key = RecipientKey.generate();
    const d = b64uEncode(hex(ALICE_SECRET));
    const alice = RecipientKey.fromSecretKey(hex(ALICE_SECRET));
    expect(RecipientKey.fromJwk({ kty: "OKP", crv: "X25519", d }).kid).toBe(alice.kid);
    expect(RecipientKey.fromJwk({ ...alice.publicJwk(), d }).kid).toBe(alice.kid);
    for (const [jwk, problem] of [
      [{ kty: "EC", crv: "X25519", d }, /Not an X25519 JWK/],
      [{ kty: "OKP", crv: "Ed25519", d }, /Not an X25519 JWK/],
      [{ kty: "OKP", crv: "X25519", d: d.slice(0, 20) }, /"d"/],
      [{ kty: "OKP", crv: "X25519", d, x: key.publicJwk().x }, /"x"/],
      [{ kty: "OKP", crv: "X25519", d, kid: key.kid }, /"kid"/],
      ["not a jwk", /Not an X25519 JWK/],
    ] as const) {
      expect(() => RecipientKey.fromJwk(jwk)).toThrow(problem);
      try {
        RecipientKey.fromJwk(jwk);
      } catch (error) {
        expect(String(error)).not.toContain(d);
      }
    }
  });

  it("never renders its private key", () => {
    const key = RecipientKey.fromSecretKey(hex(ALICE_SECRET));
    const secretForms = [
      ALICE_SECRET,
      b64uEncode(hex(ALICE_SECRET)),
      Buffer.from(hex(ALICE_SECRET)).toString("base64"),
    ];
    const rendered = [
      inspect(key, { showHidden: true, depth: 10 }),
      JSON.stringify(key),
      String(key),
      `${key}`,
      JSON.stringify({ nested: [key] }),
      inspect({ nested: key }),
      Object.keys(key).join(),
    ];
    for (const text of rendered) {
      for (const form of secretForms) expect(text).not.toContain(form);
      expect(text.includes(key.kid) || text === Object.keys(key).join()).toBe(true);
    }
  });
});

describe("sealEnvelope / openEnvelope", () => {
  const recipient = RecipientKey.generate();

  it("round-trips, with a fresh ephemeral key and nonce every time", () => {
    const a = sealEnvelope("s3cr3t", recipient.publicJwk(), DELIVERY);
    const b = sealEnvelope("s3cr3t", recipient.publicJwk(), DELIVERY);
    expect(Object.keys(a)).toEqual(["v", "suite", "kid", "epk", "iv", "ct"]);
    expect(a).toMatchObject({ v: 1, suite: SEALED_ENVELOPE_SUITE, kid: recipient.kid });
    expect(a.epk).not.toBe(b.epk);
    expect(a.iv).not.toBe(b.iv);
    expect(openEnvelope(a, recipient, DELIVERY)).toBe("s3cr3t");
    expect(openEnvelope(JSON.parse(JSON.stringify(b)), recipient, DELIVERY)).toBe("s3cr3t");
    expect(Buffer.from(a.ct, "base64url")).toHaveLength(6 + 16);
  });

  it("checks the kid before any cryptographic operation", () => {
    const other = RecipientKey.generate();
    const envelope = sealEnvelope("s3cr3t", other.publicJwk(), DELIVERY);
    const spy = vi.spyOn(recipient, "deriveSharedSecret");
    expect(() => openEnvelope(envelope, recipient, DELIVERY)).toThrow(ENVELOPE_OPEN_FAILED);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it("reports wrong key, tampering and binding mismatch identically, with nothing secret in the error", () => {
    const envelope = sealEnvelope("s3cr3t-value", recipient.publicJwk(), DELIVERY);
    const impostor = RecipientKey.generate();
    const tampered = { ...envelope, ct: `${envelope.ct.slice(0, -2)}${envelope.ct.endsWith("AA") ? "AQ" : "AA"}` };
    const failures = [
      () => openEnvelope({ ...envelope, kid: impostor.kid }, impostor, DELIVERY),
      () => openEnvelope(tampered, recipient, DELIVERY),
      () => openEnvelope(envelope, recipient, { ...DELIVERY, tenantId: "t-2" }),
      () => openEnvelope(envelope, recipient, { ...DELIVERY, secretName: "OTHER" }),
      () => openEnvelope({ ...envelope, kid: "someone-else" }, recipient, DELIVERY),
    ];
    for (const fail of failures) {
      let error: unknown;
      try {
        fail();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SealedEnvelopeError);
      expect(error).not.toBeInstanceOf(SealedEnvelopeFormatError);
      const e = error as SealedEnvelopeError;
      expect(e.message).toBe(ENVELOPE_OPEN_FAILED);
      expect(e.cause).toBeUndefined();
      expect(e.details).toEqual({});
      expect(e.isRetryable).toBe(false);
      const text = inspect(e, { depth: 10 });
      for (const leak of ["s3cr3t", envelope.ct, envelope.epk]) expect(text).not.toContain(leak);
    }
  });

  it("reads the kid without opening, and refuses what has none", () => {
    const envelope = sealEnvelope("x", recipient.publicJwk(), DELIVERY);
    expect(envelopeKeyId(envelope)).toBe(recipient.kid);
    expect(envelopeKeyId({ kid: "k" })).toBe("k");
    for (const bad of [null, [], "x", {}, { kid: "" }, { kid: 1 }]) {
      expect(() => envelopeKeyId(bad)).toThrow(SealedEnvelopeFormatError);
    }
  });

  it("refuses to seal ill-formed text or to an unusable recipient key", () => {
    const jwk = recipient.publicJwk();
    expect(() => sealEnvelope("a\ud800", jwk, DELIVERY)).toThrow(TypeError);
    expect(() => sealEnvelope("a", jwk, { ...DELIVERY, runId: "\udc00" })).toThrow(TypeError);
    expect(() => sealEnvelope("a", { ...jwk, crv: "Ed25519" }, DELIVERY)).toThrow(RangeError);
    expect(() => sealEnvelope("a", { x: "short" }, DELIVERY)).toThrow(RangeError);
    expect(() => sealEnvelope("a", { ...jwk, kid: "not-the-thumbprint" }, DELIVERY)).toThrow(/kid/);
    expect(() => sealEnvelope("a", { x: b64uEncode(new Uint8Array(32)) }, DELIVERY)).toThrow(/low-order/);
  });
});
