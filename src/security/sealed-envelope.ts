/**
 * NovaOS Sealed Envelope v1, both halves, byte for byte as
 * docs/specs/sealed-envelope-v1.md specifies: X25519 with a fresh ephemeral
 * key per envelope, HKDF-SHA256 to an AES-256-GCM key, associated data bound
 * to the delivery (tenant, instance, run, secret name) and never transmitted.
 *
 * Opening reports every failure to open with one error and one message: which
 * of wrong key, tampering or a binding mismatch it was is not told, since
 * telling them apart would be a decryption oracle.
 */
import { gcm } from "@noble/ciphers/aes.js";
import { randomBytes } from "@noble/ciphers/utils.js";
import { x25519 } from "@noble/curves/ed25519.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { isJsonObject } from "../a2a/json-object.js";
import { SealedEnvelopeError, SealedEnvelopeFormatError } from "../errors/novaos-errors.js";
import { b64uDecode, b64uEncode } from "./base64url.js";
import { jwkThumbprint, type RecipientKey } from "./recipient-key.js";

export const SEALED_ENVELOPE_VERSION = 1;
export const SEALED_ENVELOPE_SUITE = "X25519-HKDF-SHA256-A256GCM";
const LABEL = "NovaOS-Sealed-Envelope-v1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const MEMBERS = ["v", "suite", "kid", "epk", "iv", "ct"] as const;

/** The one message of every failure to open. */
export const ENVELOPE_OPEN_FAILED = "The sealed envelope could not be opened";

/** The envelope on the wire (a type, not an interface, so that it is a protobuf-es `JsonValue` as it is). */
export type SealedEnvelope = {
  v: 1;
  suite: typeof SEALED_ENVELOPE_SUITE;
  kid: string;
  epk: string;
  iv: string;
  ct: string;
};

/**
 * The one delivery an envelope is valid for. Prefer identifiers the
 * auth-proxy sidecar vouched for (the `X-NovaOS-Tenant-Id` header) over ones
 * read from the request body: a binding built from the header also defeats a
 * caller who lies about who they are.
 */
export interface SecretDelivery {
  readonly tenantId: string;
  readonly instanceId: string;
  readonly runId: string;
  readonly secretName: string;
}

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** In `u` mode a surrogate pair is one code point, so `\p{Cs}` matches only an unpaired surrogate. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

function isWellFormed(value: string): boolean {
  return !UNPAIRED_SURROGATE.test(value);
}

/** `uint32_be(len) || UTF-8`; undefined for a string with unpaired surrogates. */
function lengthPrefixed(value: string): Uint8Array | undefined {
  if (!isWellFormed(value)) return undefined;
  const bytes = utf8.encode(value);
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length);
  out.set(bytes, 4);
  return out;
}

/** The associated data of a delivery (spec §4); undefined when an identifier is not well-formed Unicode. */
export function deliveryAad(delivery: SecretDelivery): Uint8Array | undefined {
  const parts = [delivery.tenantId, delivery.instanceId, delivery.runId, delivery.secretName].map((s) =>
    typeof s === "string" ? lengthPrefixed(s) : undefined,
  );
  return parts.every((p): p is Uint8Array => p !== undefined) ? concat(...parts) : undefined;
}

/** The HKDF info of spec §5. */
function keyInfo(epk: Uint8Array, recipientPublic: Uint8Array): Uint8Array {
  return concat(
    utf8.encode(LABEL),
    Uint8Array.of(0),
    utf8.encode(SEALED_ENVELOPE_SUITE),
    Uint8Array.of(0),
    epk,
    recipientPublic,
  );
}

function contentKey(sharedSecret: Uint8Array, epk: Uint8Array, recipientPublic: Uint8Array): Uint8Array {
  return hkdf(sha256, sharedSecret, new Uint8Array(0), keyInfo(epk, recipientPublic), KEY_BYTES);
}

function isAllZero(bytes: Uint8Array): boolean {
  let acc = 0;
  for (const b of bytes) acc |= b;
  return acc === 0;
}

/**
 * The kid an envelope names, without opening it (a keyring picks its key
 * with it). Validates only that much: an object with a non-empty string kid.
 */
export function envelopeKeyId(envelope: unknown): string {
  if (!isJsonObject(envelope)) throw new SealedEnvelopeFormatError("A sealed envelope must be a JSON object");
  if (typeof envelope.kid !== "string" || envelope.kid === "") {
    throw new SealedEnvelopeFormatError('Sealed envelope field "kid" must be a non-empty string');
  }
  return envelope.kid;
}

interface ParsedEnvelope {
  kid: string;
  epk: Uint8Array;
  iv: Uint8Array;
  ct: Uint8Array;
}

/** Spec §7 steps 1–6: everything that is a format error. */
function parseEnvelope(envelope: unknown): ParsedEnvelope {
  const kid = envelopeKeyId(envelope);
  const record = envelope as Record<string, unknown>;
  const keys = Object.keys(record);
  const missing = MEMBERS.filter((m) => !Object.hasOwn(record, m));
  const extra = keys.filter((k) => !(MEMBERS as readonly string[]).includes(k));
  if (missing.length > 0 || extra.length > 0) {
    throw new SealedEnvelopeFormatError(
      `A sealed envelope has exactly the members ${MEMBERS.join(", ")}` +
        (missing.length > 0 ? `; missing: ${missing.join(", ")}` : "") +
        (extra.length > 0 ? `; unexpected: ${extra.length} member(s)` : ""),
    );
  }
  if (record.v !== SEALED_ENVELOPE_VERSION) {
    throw new SealedEnvelopeFormatError(`Unsupported sealed envelope version (expected ${SEALED_ENVELOPE_VERSION})`);
  }
  if (record.suite !== SEALED_ENVELOPE_SUITE) {
    throw new SealedEnvelopeFormatError(`Unsupported sealed envelope suite (expected ${SEALED_ENVELOPE_SUITE})`);
  }
  const epk = b64uDecode(record.epk, "epk", 32);
  const iv = b64uDecode(record.iv, "iv", NONCE_BYTES);
  const ct = b64uDecode(record.ct, "ct");
  if (ct.length < TAG_BYTES) {
    throw new SealedEnvelopeFormatError(`Sealed envelope field "ct" must decode to at least ${TAG_BYTES} bytes`);
  }
  return { kid, epk, iv, ct };
}

/**
 * Opens one envelope with `recipient` for `delivery` and returns the secret.
 * Throws `SealedEnvelopeFormatError` for a malformed envelope or an unknown
 * version or suite, and `SealedEnvelopeError` (always with the message
 * `ENVELOPE_OPEN_FAILED`) when it names another kid or does not open.
 */
export function openEnvelope(envelope: unknown, recipient: RecipientKey, delivery: SecretDelivery): string {
  const { kid, epk, iv, ct } = parseEnvelope(envelope);
  if (kid !== recipient.kid) throw new SealedEnvelopeError(ENVELOPE_OPEN_FAILED);
  try {
    const aad = deliveryAad(delivery);
    if (!aad) throw new Error("ill-formed delivery");
    const shared = recipient.deriveSharedSecret(epk);
    if (isAllZero(shared)) throw new Error("low-order point");
    const key = contentKey(shared, epk, recipient.publicKey);
    return strictUtf8.decode(gcm(key, iv, aad).decrypt(ct));
  } catch {
    // The cause is deliberately dropped: it is the oracle.
    throw new SealedEnvelopeError(ENVELOPE_OPEN_FAILED);
  }
}

/** A recipient public key as the control plane holds it: a public X25519 JWK (its `kid` is checked when present). */
export interface RecipientPublicJwk {
  kty?: string;
  crv?: string;
  x: string;
  kid?: string;
}

/**
 * Seals `plaintext` to a recipient for one delivery (the platform's half,
 * here for tooling and tests). A fresh ephemeral key and nonce every call.
 * Throws `TypeError` for ill-formed Unicode and `RangeError` for a recipient
 * key that is not a usable X25519 public key.
 */
export function sealEnvelope(
  plaintext: string,
  recipient: RecipientPublicJwk,
  delivery: SecretDelivery,
): SealedEnvelope {
  if (typeof plaintext !== "string" || !isWellFormed(plaintext)) {
    throw new TypeError("A sealed secret must be a well-formed Unicode string");
  }
  const aad = deliveryAad(delivery);
  if (!aad) throw new TypeError("Delivery identifiers must be well-formed Unicode strings");
  if ((recipient.kty ?? "OKP") !== "OKP" || (recipient.crv ?? "X25519") !== "X25519") {
    throw new RangeError("The recipient key is not an X25519 public key");
  }
  let recipientPublic: Uint8Array;
  try {
    recipientPublic = b64uDecode(recipient.x, "x", 32);
  } catch {
    throw new RangeError('The recipient key "x" is not 32 bytes of unpadded base64url');
  }
  const kid = jwkThumbprint(recipient.x);
  if (recipient.kid !== undefined && recipient.kid !== kid) {
    throw new RangeError('The recipient key "kid" is not the thumbprint of its public key');
  }
  const ephemeral = x25519.utils.randomSecretKey();
  const epk = x25519.getPublicKey(ephemeral);
  let shared: Uint8Array;
  try {
    shared = x25519.getSharedSecret(ephemeral, recipientPublic);
  } catch {
    throw new RangeError("The recipient key is a low-order X25519 point");
  }
  ephemeral.fill(0);
  const iv = randomBytes(NONCE_BYTES);
  const ct = gcm(contentKey(shared, epk, recipientPublic), iv, aad).encrypt(utf8.encode(plaintext));
  return {
    v: SEALED_ENVELOPE_VERSION,
    suite: SEALED_ENVELOPE_SUITE,
    kid,
    epk: b64uEncode(epk),
    iv: b64uEncode(iv),
    ct: b64uEncode(ct),
  };
}
