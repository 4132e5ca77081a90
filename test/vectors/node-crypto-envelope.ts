/**
 * An independent implementation of NovaOS Sealed Envelope v1
 * (docs/specs/sealed-envelope-v1.md) on node:crypto only: OpenSSL's X25519,
 * HKDF and AES-256-GCM, and its own base64url decoder. It shares no code with
 * src/security, so the vectors it produces and accepts are not the SDK
 * confirming itself.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  hkdfSync,
} from "node:crypto";

export const SUITE = "X25519-HKDF-SHA256-A256GCM";
const LABEL = "NovaOS-Sealed-Envelope-v1";
const PKCS8_X25519 = Buffer.from("302e020100300506032b656e04220420", "hex");
const SPKI_X25519 = Buffer.from("302a300506032b656e032100", "hex");

export interface Delivery {
  tenantId: string;
  instanceId: string;
  runId: string;
  secretName: string;
}

/** Why the node implementation refused an envelope. */
export class NodeEnvelopeError extends Error {
  constructor(readonly outcome: "format" | "open") {
    super(outcome);
  }
}

const B64U = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Strict unpadded base64url by table: alphabet, length, zero trailing bits. */
export function decodeB64u(value: unknown): Buffer {
  if (typeof value !== "string" || value.length % 4 === 1) throw new NodeEnvelopeError("format");
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of value) {
    const sextet = B64U.indexOf(char);
    if (sextet < 0) throw new NodeEnvelopeError("format");
    buffer = (buffer << 6) | sextet;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) throw new NodeEnvelopeError("format");
  return Buffer.from(out);
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

export function publicFromSecret(secret: Buffer): Buffer {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_X25519, secret]), format: "der", type: "pkcs8" });
  return createPublicKey(key).export({ format: "der", type: "spki" }).subarray(SPKI_X25519.length);
}

function x25519(secret: Buffer, peer: Buffer): Buffer {
  return diffieHellman({
    privateKey: createPrivateKey({ key: Buffer.concat([PKCS8_X25519, secret]), format: "der", type: "pkcs8" }),
    publicKey: createPublicKey({ key: Buffer.concat([SPKI_X25519, peer]), format: "der", type: "spki" }),
  });
}

export function thumbprint(publicKey: Buffer): string {
  const x = publicKey.toString("base64url");
  return createHash("sha256")
    .update(JSON.stringify({ crv: "X25519", kty: "OKP", x }))
    .digest("base64url");
}

function wellFormedUtf8(value: string): Buffer {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.toString("utf8") !== value) throw new NodeEnvelopeError("open");
  return bytes;
}

export function aad(d: Delivery): Buffer {
  return Buffer.concat(
    [d.tenantId, d.instanceId, d.runId, d.secretName].flatMap((field) => {
      const bytes = wellFormedUtf8(field);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      return [length, bytes];
    }),
  );
}

export function info(epk: Buffer, recipientPublic: Buffer): Buffer {
  return Buffer.concat([Buffer.from(LABEL), Buffer.of(0), Buffer.from(SUITE), Buffer.of(0), epk, recipientPublic]);
}

function deriveKey(shared: Buffer, epk: Buffer, recipientPublic: Buffer): Buffer {
  if (shared.every((b) => b === 0)) throw new NodeEnvelopeError("open");
  return Buffer.from(hkdfSync("sha256", shared, Buffer.alloc(0), info(epk, recipientPublic), 32));
}

/** Seals with the given ephemeral secret and nonce, and returns the intermediates too. */
export function seal(
  plaintext: string,
  recipientPublic: Buffer,
  delivery: Delivery,
  ephemeralSecret: Buffer,
  iv: Buffer,
) {
  const epk = publicFromSecret(ephemeralSecret);
  const shared = x25519(ephemeralSecret, recipientPublic);
  const key = deriveKey(shared, epk, recipientPublic);
  const associated = aad(delivery);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: 16 });
  cipher.setAAD(associated);
  const ct = Buffer.concat([cipher.update(wellFormedUtf8(plaintext)), cipher.final(), cipher.getAuthTag()]);
  return {
    envelope: {
      v: 1,
      suite: SUITE,
      kid: thumbprint(recipientPublic),
      epk: epk.toString("base64url"),
      iv: iv.toString("base64url"),
      ct: ct.toString("base64url"),
    },
    intermediates: {
      sharedSecret: hex(shared),
      info: hex(info(epk, recipientPublic)),
      aad: hex(associated),
      contentKey: hex(key),
    },
  };
}

const MEMBERS = ["ct", "epk", "iv", "kid", "suite", "v"];

/** Opens per spec §7, throwing NodeEnvelopeError("format" | "open"). */
export function open(envelope: unknown, recipientSecret: Buffer, delivery: Delivery): string {
  if (envelope === null || typeof envelope !== "object" || Array.isArray(envelope)) {
    throw new NodeEnvelopeError("format");
  }
  const e = envelope as Record<string, unknown>;
  if (Object.keys(e).sort().join() !== MEMBERS.join()) throw new NodeEnvelopeError("format");
  if (e.v !== 1 || e.suite !== SUITE || typeof e.kid !== "string" || e.kid.length === 0) {
    throw new NodeEnvelopeError("format");
  }
  const epk = decodeB64u(e.epk);
  const iv = decodeB64u(e.iv);
  const ct = decodeB64u(e.ct);
  if (epk.length !== 32 || iv.length !== 12 || ct.length < 16) throw new NodeEnvelopeError("format");
  const recipientPublic = publicFromSecret(recipientSecret);
  if (e.kid !== thumbprint(recipientPublic)) throw new NodeEnvelopeError("open");
  try {
    const associated = aad(delivery);
    const key = deriveKey(x25519(recipientSecret, epk), epk, recipientPublic);
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: 16 });
    decipher.setAAD(associated);
    decipher.setAuthTag(ct.subarray(ct.length - 16));
    const plain = Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]);
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(plain);
  } catch {
    throw new NodeEnvelopeError("open");
  }
}
