/**
 * One X25519 private key a pod opens sealed envelopes with. The private
 * scalar lives in a private field and is never rendered: `String`,
 * `JSON.stringify` and `util.inspect` show the kid only, and no method returns
 * the scalar.
 */
import { x25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { isJsonObject } from "../a2a/json-object.js";
import { b64uDecode, b64uEncode } from "./base64url.js";

/** The public half as a JWK (RFC 8037), with its thumbprint as `kid`. */
export interface X25519PublicJwk {
  kty: "OKP";
  crv: "X25519";
  x: string;
  kid: string;
}

/**
 * The RFC 7638 thumbprint (SHA-256, unpadded base64url) of an X25519 public
 * key given as its JWK `x`. The canonical JSON is written out literally
 * (RFC 8037 §2 members `crv`, `kty`, `x` in that order, no whitespace).
 */
export function jwkThumbprint(x: string): string {
  return b64uEncode(sha256(new TextEncoder().encode(`{"crv":"X25519","kty":"OKP","x":"${x}"}`)));
}

export class RecipientKey {
  /** The thumbprint of the public key: safe to log. */
  readonly kid: string;
  readonly #publicKey: Uint8Array;
  readonly #secretKey: Uint8Array;

  private constructor(secretKey: Uint8Array) {
    if (secretKey.length !== 32) throw new RangeError("An X25519 private key is 32 bytes");
    this.#secretKey = Uint8Array.from(secretKey);
    this.#publicKey = x25519.getPublicKey(this.#secretKey);
    this.kid = jwkThumbprint(b64uEncode(this.#publicKey));
  }

  /** A new random key (for tests and tooling; pods load theirs). */
  static generate(): RecipientKey {
    return new RecipientKey(x25519.utils.randomSecretKey());
  }

  /** A key from its 32 raw private bytes (copied). */
  static fromSecretKey(secretKey: Uint8Array): RecipientKey {
    return new RecipientKey(secretKey);
  }

  /**
   * A key from a private X25519 JWK `{kty:"OKP", crv:"X25519", d, x, kid?}`.
   * `x` must be the public half of `d`, and `kid`, when present, its
   * thumbprint. Throws a `RangeError` naming the problem, never the key.
   */
  static fromJwk(jwk: unknown): RecipientKey {
    if (!isJsonObject(jwk) || jwk.kty !== "OKP" || jwk.crv !== "X25519") {
      throw new RangeError('Not an X25519 JWK (kty "OKP", crv "X25519")');
    }
    let secret: Uint8Array;
    try {
      secret = b64uDecode(jwk.d, "d", 32);
    } catch {
      throw new RangeError('The JWK "d" is not 32 bytes of unpadded base64url');
    }
    const key = new RecipientKey(secret);
    secret.fill(0);
    if (jwk.x !== undefined && jwk.x !== b64uEncode(key.#publicKey)) {
      throw new RangeError('The JWK "x" is not the public half of its "d"');
    }
    if (jwk.kid !== undefined && jwk.kid !== key.kid) {
      throw new RangeError('The JWK "kid" is not the thumbprint of its public key');
    }
    return key;
  }

  /** The 32 raw bytes of the public key (a copy). */
  get publicKey(): Uint8Array {
    return Uint8Array.from(this.#publicKey);
  }

  publicJwk(): X25519PublicJwk {
    return { kty: "OKP", crv: "X25519", x: b64uEncode(this.#publicKey), kid: this.kid };
  }

  /** X25519 with a peer's public key. Throws for a low-order peer key (an all-zero result). */
  deriveSharedSecret(peerPublicKey: Uint8Array): Uint8Array {
    return x25519.getSharedSecret(this.#secretKey, peerPublicKey);
  }

  toString(): string {
    return `RecipientKey(${this.kid})`;
  }

  toJSON(): { kid: string } {
    return { kid: this.kid };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `RecipientKey { kid: ${JSON.stringify(this.kid)} }`;
  }
}
