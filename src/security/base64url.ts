/**
 * Strict unpadded base64url, the only encoding the sealed envelope uses.
 * Node's decoder is lenient (it accepts `+`, `/`, padding and stray
 * characters), so a value is accepted only when it re-encodes to itself.
 */
import { SealedEnvelopeFormatError } from "../errors/novaos-errors.js";

const ALPHABET = /^[A-Za-z0-9_-]*$/;

export function b64uEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}

/**
 * Decodes `value` (whatever arrived where a string was expected) or throws
 * `SealedEnvelopeFormatError` naming `field`, never the value.
 */
export function b64uDecode(value: unknown, field: string, expectedBytes?: number): Uint8Array {
  if (typeof value !== "string")
    throw new SealedEnvelopeFormatError(`Sealed envelope field "${field}" is not a string`);
  if (!ALPHABET.test(value) || value.length % 4 === 1) {
    throw new SealedEnvelopeFormatError(`Sealed envelope field "${field}" is not unpadded base64url`);
  }
  const bytes = new Uint8Array(Buffer.from(value, "base64url"));
  if (b64uEncode(bytes) !== value) {
    throw new SealedEnvelopeFormatError(`Sealed envelope field "${field}" is not canonical base64url`);
  }
  if (expectedBytes !== undefined && bytes.length !== expectedBytes) {
    throw new SealedEnvelopeFormatError(`Sealed envelope field "${field}" must decode to ${expectedBytes} bytes`);
  }
  return bytes;
}
