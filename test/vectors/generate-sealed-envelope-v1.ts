/**
 * Writes test/vectors/sealed-envelope-v1.json from fixed inputs with the
 * independent node:crypto implementation. Deterministic: every secret and
 * nonce is SHA-256 of a label, so re-running reproduces the file.
 *
 *   npx tsx test/vectors/generate-sealed-envelope-v1.ts
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { type Delivery, publicFromSecret, SUITE, seal, thumbprint } from "./node-crypto-envelope.js";

const label = (name: string) => createHash("sha256").update(`NovaOS sealed envelope v1 test vector / ${name}`).digest();
const b64u = (b: Buffer) => b.toString("base64url");
const wire = (d: Delivery) => ({
  tenant_id: d.tenantId,
  instance_id: d.instanceId,
  run_id: d.runId,
  secret_name: d.secretName,
});

const secrets = { R1: label("recipient R1"), R2: label("recipient R2") };
const keys = Object.fromEntries(
  Object.entries(secrets).map(([name, d]) => {
    const x = publicFromSecret(d);
    return [name, { kty: "OKP", crv: "X25519", d: b64u(d), x: b64u(x), kid: thumbprint(x) }];
  }),
);

const D1: Delivery = { tenantId: "t-acme", instanceId: "inst-42", runId: "run-7f3a", secretName: "OPENAI_API_KEY" };
const positiveInputs: Array<{ name: string; recipient: "R1" | "R2"; delivery: Delivery; plaintext: string }> = [
  { name: "ASCII API key", recipient: "R1", delivery: D1, plaintext: "sk-live-4eC39HqLyjWDarjtT1zdp7dc" },
  { name: "empty plaintext", recipient: "R1", delivery: { ...D1, secretName: "EMPTY" }, plaintext: "" },
  {
    name: "non-ASCII plaintext and identifiers",
    recipient: "R2",
    delivery: { tenantId: "tenant-ü", instanceId: "inst-☃", runId: "run-1", secretName: "DB_PASSWORD_ÜBER" },
    plaintext: "pässwörd ☃ 😀 密码",
  },
  {
    name: "long plaintext, empty instance id",
    recipient: "R2",
    delivery: { tenantId: "t-acme", instanceId: "", runId: "run-9", secretName: "TLS_KEY" },
    plaintext: `-----BEGIN PRIVATE KEY-----\n${"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC".repeat(20)}\n-----END PRIVATE KEY-----\n`,
  },
];

const positive = positiveInputs.map((input, i) => {
  const ephemeralSecret = label(`ephemeral ${i + 1}`);
  const iv = label(`iv ${i + 1}`).subarray(0, 12);
  const recipientPublic = publicFromSecret(secrets[input.recipient]);
  const { envelope, intermediates } = seal(input.plaintext, recipientPublic, input.delivery, ephemeralSecret, iv);
  return {
    name: input.name,
    recipient: input.recipient,
    ephemeralSecret: b64u(ephemeralSecret),
    iv: b64u(iv),
    delivery: wire(input.delivery),
    plaintext: input.plaintext,
    intermediates,
    envelope,
  };
});

const base = positive[0]!.envelope;
const flip = (field: string, byte: number, mask = 1) => {
  const bytes = Buffer.from(field, "base64url");
  const at = byte < 0 ? bytes.length + byte : byte;
  bytes[at]! ^= mask;
  return b64u(bytes);
};
const without = (member: keyof typeof base) => {
  const { [member]: _dropped, ...rest } = base;
  return rest;
};
const lastCharFlipped = (value: string) => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  return value.slice(0, -1) + alphabet[alphabet.indexOf(value.at(-1)!) ^ 1];
};
const toR2 = seal(
  "sk-live-4eC39HqLyjWDarjtT1zdp7dc",
  publicFromSecret(secrets.R2),
  D1,
  label("ephemeral R2"),
  label("iv R2").subarray(0, 12),
).envelope;

type Outcome = "format" | "open";
const negatives: Array<[string, unknown, Outcome, Delivery?]> = [
  ["envelope is an array", [base], "format"],
  ["envelope is a string", JSON.stringify(base), "format"],
  ["envelope is null", null, "format"],
  ...(["v", "suite", "kid", "epk", "iv", "ct"] as const).map((m): [string, unknown, Outcome] => [
    `member ${m} missing`,
    without(m),
    "format",
  ]),
  ["unexpected extra member", { ...base, alg: "ECDH-ES" }, "format"],
  ["v is 2", { ...base, v: 2 }, "format"],
  ['v is the string "1"', { ...base, v: "1" }, "format"],
  ["v is true", { ...base, v: true }, "format"],
  ["unknown suite", { ...base, suite: "X25519-HKDF-SHA256-CHACHA20POLY1305" }, "format"],
  ["suite in lower case", { ...base, suite: SUITE.toLowerCase() }, "format"],
  ["kid empty", { ...base, kid: "" }, "format"],
  ["kid not a string", { ...base, kid: 7 }, "format"],
  ["epk padded with =", { ...base, epk: `${base.epk}=` }, "format"],
  ["epk in the standard alphabet (+)", { ...base, epk: `+${base.epk.slice(1)}` }, "format"],
  ["ct in the standard alphabet (/)", { ...base, ct: `/${base.ct.slice(1)}` }, "format"],
  ["iv with a space", { ...base, iv: `${base.iv.slice(0, 8)} ${base.iv.slice(8)}` }, "format"],
  ["ct with a line break", { ...base, ct: `${base.ct.slice(0, 20)}\n${base.ct.slice(20)}` }, "format"],
  ["epk length 1 mod 4", { ...base, epk: `${base.epk}AA` }, "format"],
  ["epk with non-zero trailing bits", { ...base, epk: lastCharFlipped(base.epk) }, "format"],
  ["epk decodes to 31 bytes", { ...base, epk: b64u(Buffer.alloc(31, 9)) }, "format"],
  ["iv decodes to 16 bytes", { ...base, iv: b64u(Buffer.alloc(16, 1)) }, "format"],
  ["ct shorter than the tag", { ...base, ct: b64u(Buffer.alloc(15, 1)) }, "format"],
  ["ct not a string", { ...base, ct: 123 }, "format"],
  ["iv null", { ...base, iv: null }, "format"],
  ["kid of another recipient", { ...base, kid: keys.R2!.kid }, "open"],
  ["sealed to another key, kid relabelled", { ...toR2, kid: base.kid }, "open"],
  ["ct first byte flipped", { ...base, ct: flip(base.ct, 0) }, "open"],
  ["tag last byte flipped", { ...base, ct: flip(base.ct, -1, 0x80) }, "open"],
  ["ct truncated by one byte", { ...base, ct: b64u(Buffer.from(base.ct, "base64url").subarray(1)) }, "open"],
  ["ct is a tag only", { ...base, ct: b64u(Buffer.from(base.ct, "base64url").subarray(-16)) }, "open"],
  ["iv bit flipped", { ...base, iv: flip(base.iv, 5) }, "open"],
  ["epk bit flipped", { ...base, epk: flip(base.epk, 0) }, "open"],
  ["epk top bit set (the same point under RFC 7748 masking)", { ...base, epk: flip(base.epk, 31, 0x80) }, "open"],
  ["epk low order: 0", { ...base, epk: b64u(Buffer.alloc(32)) }, "open"],
  ["epk low order: 1", { ...base, epk: b64u(Buffer.concat([Buffer.of(1), Buffer.alloc(31)])) }, "open"],
  ["binding: another tenant", base, "open", { ...D1, tenantId: "t-other" }],
  ["binding: another instance", base, "open", { ...D1, instanceId: "inst-43" }],
  ["binding: another run (replay)", base, "open", { ...D1, runId: "run-7f3b" }],
  ["binding: moved to another secret name", base, "open", { ...D1, secretName: "SMTP_PASSWORD" }],
  ["binding: identifiers shifted across fields", base, "open", { ...D1, tenantId: "t-acmei", instanceId: "nst-42" }],
  ["binding: unpaired surrogate in an identifier", base, "open", { ...D1, runId: "run-\ud800" }],
];

const vectors = {
  description:
    "Known-answer vectors for NovaOS Sealed Envelope v1. Binary inputs are unpadded base64url, intermediates hex. " +
    "Every positive vector reproduces byte for byte from its inputs; every negative vector fails with its outcome.",
  spec: "docs/specs/sealed-envelope-v1.md",
  suite: SUITE,
  keys,
  positive,
  negative: negatives.map(([name, envelope, outcome, delivery]) => ({
    name,
    recipient: "R1",
    delivery: wire(delivery ?? D1),
    envelope,
    outcome,
  })),
};

writeFileSync(new URL("./sealed-envelope-v1.json", import.meta.url), `${JSON.stringify(vectors, null, 2)}\n`);
console.log(`wrote ${positive.length} positive and ${vectors.negative.length} negative vectors`);
