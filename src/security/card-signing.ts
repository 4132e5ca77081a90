/**
 * Agent card signatures (spec §8.4): a detached JWS over the card's RFC 8785
 * canonical form, one entry per signature in `signatures`.
 *
 * Canonicalization: drop `signatures`, strip empty values (`""`, `null`, `[]`,
 * `{}`, and messages that empty out; `false` and `0` stay), then JCS, as the
 * reference (a2a-sdk `_canonicalize_agent_card`) does, with one difference:
 * an empty value is stripped only where it means "not set". Where emptiness
 * is itself the data it stays, read from the card's schema: every item of a
 * list (`securityRequirements: [{}]` allows anonymous access), every entry of
 * a map (`"schemes": {"bearer": {}}`: bearer, no scopes; an OAuth scope with
 * an empty description), the member a oneof chose (an mTLS scheme is `{}`),
 * and whatever a `google.protobuf.Struct` holds (extension `params`).
 * Stripping those let a signature survive removing or swapping them. It works
 * on the raw fetched JSON, because parsing into a typed card and back loses
 * any field the parser does not model, and the signature covers the bytes the
 * signer saw, not our model of them; members the schema does not know are
 * stripped as the reference does.
 *
 * The peers (a2a-js, a2a-python) sign a different form: the card parsed into
 * the v1.0 schema and re-serialized (unknown fields and implicit defaults such
 * as `"required": false` dropped) before the reference's stripping, of every
 * empty value. A verifier may opt in to accepting that "schema" form too; it
 * does not cover fields the schema does not model, nor meaningful empty
 * values (a scope-less security requirement), which is why it is not the
 * default.
 *
 * Verification keys come only from the `jwksUrl` the caller configured: a
 * `jku` in the card's own header is never followed (trusting a URL the
 * document under check points to would make the check circular). One valid
 * signature suffices, so a publisher can carry old and new signatures across a
 * key rotation.
 */
import {
  type DescField,
  type DescMessage,
  fromJson,
  isMessage,
  type JsonObject,
  type JsonValue,
  toJson,
} from "@bufbuild/protobuf";
import canonicalize from "canonicalize";
import {
  base64url,
  type CryptoKey,
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  type FlattenedJWSInput,
  FlattenedSign,
  flattenedVerify,
  type JWK,
  type KeyObject,
} from "jose";
import { type AgentCard, AgentCardSchema } from "../../gen/a2a_pb.js";
import { isJsonObject } from "../a2a/json-object.js";
import {
  AgentCardSignatureError,
  InvalidAgentCardSignatureError,
  NoAgentCardSignatureError,
} from "../errors/novaos-errors.js";
import { validateHostAllowed } from "../runtime/config.js";

/**
 * The JWS algorithms a card signature may use unless narrowed: asymmetric
 * only. `none` and `HS*` can never verify a public document (an HMAC key
 * would have to be public to check it, so anyone could sign).
 */
export const DEFAULT_SIGNATURE_ALGORITHMS: readonly string[] = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

const ASYMMETRIC = new Set(DEFAULT_SIGNATURE_ALGORITHMS);

/** The `typ` a signature's protected header carries (spec §8.4.2: SHOULD be "JOSE"). */
export const CARD_SIGNATURE_TYP = "JOSE";

/** The card as JSON: raw JSON as given, a card built in memory through `toJson`. */
function cardJson(card: JsonObject | AgentCard): JsonObject {
  return isMessage(card, AgentCardSchema) ? (toJson(AgentCardSchema, card) as JsonObject) : card;
}

/** The reference's `_clean_empty`: undefined (nothing left) for `""`, `null`, `[]`, `{}` and containers that empty out. */
function stripEmpty(value: JsonValue | undefined): JsonValue | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  if (Array.isArray(value)) {
    const items = value.map(stripEmpty).filter((v): v is JsonValue => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === "object") return objectOf(Object.entries(value).map(([key, v]) => [key, stripEmpty(v)]));
  return value;
}

/** An object of the entries whose value is left (`__proto__` kept as a key), or undefined when none is. */
function objectOf(entries: [string, JsonValue | undefined][]): JsonObject | undefined {
  const kept = entries.filter((entry): entry is [string, JsonValue] => entry[1] !== undefined);
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

const fieldsByName = new WeakMap<DescMessage, Map<string, DescField>>();

/** The field a JSON member names (JSON name or proto name, as ProtoJSON readers accept). */
function fieldNamed(schema: DescMessage, name: string): DescField | undefined {
  let fields = fieldsByName.get(schema);
  if (!fields) {
    fields = new Map(schema.fields.flatMap((f) => [[f.name, f] as const, [f.jsonName, f] as const]));
    fieldsByName.set(schema, fields);
  }
  return fields.get(name);
}

const isWellKnown = (schema: DescMessage) => schema.typeName.startsWith("google.protobuf.");

/** A message's JSON with its unset fields stripped; undefined when nothing is left. */
function stripMessage(value: JsonValue, schema: DescMessage): JsonValue | undefined {
  if (!isJsonObject(value)) return stripEmpty(value);
  return objectOf(
    Object.entries(value).map(([key, v]) => {
      const field = fieldNamed(schema, key);
      return [key, field ? stripField(v, field) : stripEmpty(v)];
    }),
  );
}

/** A message that is a list item, a map value or a oneof member: present, so kept even when empty. */
function keepMessage(value: JsonValue, schema: DescMessage): JsonValue {
  return isWellKnown(schema) ? value : (stripMessage(value, schema) ?? {});
}

function stripField(value: JsonValue, field: DescField): JsonValue | undefined {
  if (value === null) return undefined;
  switch (field.fieldKind) {
    case "list":
      if (!Array.isArray(value)) return stripEmpty(value);
      if (value.length === 0) return undefined;
      return field.listKind === "message" ? value.map((item) => keepMessage(item, field.message)) : value;
    case "map": {
      if (!isJsonObject(value)) return stripEmpty(value);
      const entries = Object.entries(value);
      if (entries.length === 0) return undefined;
      if (field.mapKind !== "message") return value;
      return Object.fromEntries(entries.map(([key, v]) => [key, keepMessage(v, field.message)]));
    }
    case "message":
      if (field.oneof) return keepMessage(value, field.message);
      return isWellKnown(field.message) ? value : stripMessage(value, field.message);
    default:
      return value === "" && !field.oneof ? undefined : value;
  }
}

/** The card's JSON without `signatures`. */
function unsignedJson(card: JsonObject | AgentCard): JsonObject {
  const { signatures: _signatures, ...unsigned } = cardJson(card);
  return unsigned;
}

/**
 * The RFC 8785 canonical JSON text a card's signatures are computed over.
 * Pass the raw fetched JSON for a fetched card; a protobuf-es `AgentCard` is
 * serialized with `toJson` first (for cards built in memory). Never mutates
 * its input.
 */
export function canonicalizeAgentCard(card: JsonObject | AgentCard): string {
  return canonicalize(stripMessage(unsignedJson(card), AgentCardSchema) ?? {}) ?? "{}";
}

/** Which canonical forms a signature may cover: this SDK's and the reference's (`raw`), or the peers' (`schema`). */
export type CardCanonicalForm = "raw" | "schema";

/**
 * The peers' canonical form: the card through the v1.0 schema and back
 * (unknown fields and implicit-presence defaults dropped), every empty value
 * stripped (meaningful ones too, as the peers do), then JCS. Undefined when
 * the card does not parse.
 */
export function canonicalizeAgentCardSchemaForm(card: JsonObject | AgentCard): string | undefined {
  let parsed: AgentCard;
  try {
    parsed = isMessage(card, AgentCardSchema) ? card : fromJson(AgentCardSchema, card, { ignoreUnknownFields: true });
  } catch {
    return undefined;
  }
  return canonicalize(stripEmpty(unsignedJson(parsed)) ?? {}) ?? "{}";
}

/** A private key jose can sign with (jose's `CryptoKey` is the Web Crypto key, typed without the DOM lib). */
export type CardSigningKey = CryptoKey | KeyObject | JWK;

export interface SignAgentCardOptions {
  /** The key id the verifier finds the public key under in its JWKS. */
  kid: string;
  /** An asymmetric JWS algorithm matching the key, e.g. `ES256`, `RS256`, `EdDSA`. */
  alg: string;
  /** A JWKS URL to name in the protected header (informative only: verifiers should not follow it). */
  jku?: string;
  /** An unprotected header to attach. */
  header?: Record<string, JsonValue>;
}

/**
 * Signs a card and returns a copy with the signature appended to
 * `signatures` (existing ones are kept, for rotation). The protected header is
 * `{ alg, kid, typ: "JOSE", jku? }`.
 */
export async function signAgentCard(
  card: JsonObject,
  privateKey: CardSigningKey,
  options: SignAgentCardOptions,
): Promise<JsonObject>;
export async function signAgentCard(
  card: AgentCard,
  privateKey: CardSigningKey,
  options: SignAgentCardOptions,
): Promise<AgentCard>;
export async function signAgentCard(
  card: JsonObject | AgentCard,
  privateKey: CardSigningKey,
  options: SignAgentCardOptions,
): Promise<JsonObject | AgentCard> {
  if (!ASYMMETRIC.has(options.alg)) throw new RangeError(`Not an asymmetric JWS algorithm: ${options.alg}`);
  if (!options.kid) throw new RangeError("A card signature needs a kid");
  const payload = new TextEncoder().encode(canonicalizeAgentCard(card));
  const signer = new FlattenedSign(payload).setProtectedHeader({
    alg: options.alg,
    kid: options.kid,
    typ: CARD_SIGNATURE_TYP,
    ...(options.jku ? { jku: options.jku } : {}),
  });
  if (options.header) signer.setUnprotectedHeader(options.header);
  const jws = await signer.sign(privateKey);
  const entry: JsonObject = {
    protected: jws.protected!,
    signature: jws.signature,
    ...(jws.header ? { header: jws.header as JsonObject } : {}),
  };
  const json = cardJson(card);
  const existing = Array.isArray(json.signatures) ? json.signatures : [];
  const signed = { ...json, signatures: [...existing, entry] };
  return isMessage(card, AgentCardSchema) ? fromJson(AgentCardSchema, signed) : signed;
}

export interface VerifyAgentCardOptions {
  /** Trusted configuration: the only place verification keys come from. */
  jwksUrl: string;
  /** Accepted algorithms, a subset of `DEFAULT_SIGNATURE_ALGORITHMS` (the default). */
  algorithms?: readonly string[];
  /** The fetch used for the JWKS (e.g. a guarded one); the global fetch by default. */
  fetch?: typeof fetch;
  /** Hostname suffixes `jwksUrl` must match; `NOVAOS_ALLOWED_HOSTS` when omitted. */
  allowedHosts?: readonly string[];
  /** JWKS fetch timeout in milliseconds (default 5000). */
  timeoutMs?: number;
  /** How long fetched keys are reused by one verifier, in seconds (default 300). */
  cacheTtlSeconds?: number;
  /**
   * The canonical forms a signature may cover, tried in order. Default
   * `["raw"]`; add `"schema"` to accept cards signed by a2a-js / a2a-python
   * whose served JSON carries explicit defaults or vendor fields (those fields
   * are then not covered by the signature).
   */
  canonicalForms?: readonly CardCanonicalForm[];
}

/** Verifies cards against one JWKS; throws like `verifyAgentCardSignatures`. */
export type AgentCardVerifier = (card: JsonObject | AgentCard) => Promise<void>;

const DEFAULT_CARD_JWKS_TTL_SECONDS = 300;

/**
 * A verifier bound to one JWKS, reusing the fetched keys across cards (a
 * discovery service verifies every fetch). The `jwksUrl` host is checked
 * against the allowlist here, before any request.
 */
export function createAgentCardVerifier(options: VerifyAgentCardOptions): AgentCardVerifier {
  const algorithms = [...(options.algorithms ?? DEFAULT_SIGNATURE_ALGORITHMS)];
  const refused = algorithms.filter((alg) => !ASYMMETRIC.has(alg));
  if (refused.length > 0 || algorithms.length === 0) {
    throw new RangeError(
      `Card signatures are verified with asymmetric algorithms only; refused: ${refused.join(", ") || "(empty list)"}`,
    );
  }
  validateHostAllowed(options.jwksUrl, options.allowedHosts);
  const fetchImpl = options.fetch;
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), {
    cacheMaxAge: (options.cacheTtlSeconds ?? DEFAULT_CARD_JWKS_TTL_SECONDS) * 1000,
    ...(options.timeoutMs !== undefined ? { timeoutDuration: options.timeoutMs } : {}),
    ...(fetchImpl ? { [customFetch]: (url: string, init: RequestInit) => fetchImpl(url, init) } : {}),
  });
  const allowed = new Set(algorithms);
  const forms = options.canonicalForms ?? ["raw"];
  if (forms.length === 0) throw new RangeError("canonicalForms must name at least one form");

  return async (card) => {
    const json = cardJson(card);
    const entries = Array.isArray(json.signatures) ? json.signatures : [];
    if (entries.length === 0) throw new NoAgentCardSignatureError("The agent card carries no signature");
    let payloads: string[];
    try {
      payloads = forms
        .map((form) => (form === "raw" ? canonicalizeAgentCard(json) : canonicalizeAgentCardSchemaForm(json)))
        .filter((text): text is string => text !== undefined)
        .map((text) => base64url.encode(text));
    } catch (cause) {
      throw new InvalidAgentCardSignatureError("The agent card cannot be canonicalized", { cause });
    }
    if (!keys.fresh) {
      try {
        await keys.reload();
      } catch (cause) {
        throw new AgentCardSignatureError(`The JWKS at ${options.jwksUrl} could not be fetched`, { cause });
      }
    }
    const failures: string[] = [];
    let lastError: unknown;
    for (const [index, entry] of entries.entries()) {
      try {
        const jws = signatureEntry(entry);
        const header = decodeProtectedHeader(jws);
        if (typeof header.kid !== "string" || !header.kid) throw new Error("protected header has no kid");
        if (typeof header.alg !== "string" || !allowed.has(header.alg)) {
          throw new Error(`algorithm ${JSON.stringify(header.alg)} is not accepted`);
        }
        if (await verifiesAny(jws, payloads, keys, algorithms)) return;
      } catch (error) {
        lastError = error;
        failures.push(`signature ${index}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    throw new InvalidAgentCardSignatureError(`No agent card signature verifies (${failures.join("; ")})`, {
      details: { failures },
      cause: lastError,
    });
  };
}

/**
 * Whether the detached JWS verifies over one of the payloads. The key
 * resolver sees the header but resolves from jwksUrl only: jku is never read.
 * Throws the last verification error when none does.
 */
async function verifiesAny(
  jws: { protected: string; signature: string; header?: JsonObject },
  payloads: readonly string[],
  keys: ReturnType<typeof createRemoteJWKSet>,
  algorithms: string[],
): Promise<boolean> {
  let lastError: unknown = new Error("the card has no canonical form");
  for (const payload of payloads) {
    try {
      await flattenedVerify({ ...jws, payload } as FlattenedJWSInput, keys, { algorithms });
      return true;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** The JWS parts of one `signatures` entry; throws when the entry is not shaped like one. */
function signatureEntry(entry: JsonValue): { protected: string; signature: string; header?: JsonObject } {
  if (!isJsonObject(entry)) throw new Error("not an object");
  const { protected: protectedHeader, signature, header } = entry;
  if (typeof protectedHeader !== "string" || typeof signature !== "string") {
    throw new Error("protected and signature must be strings");
  }
  if (header !== undefined && !isJsonObject(header)) {
    throw new Error("header must be an object");
  }
  return { protected: protectedHeader, signature, ...(header ? { header } : {}) };
}

/**
 * Verifies that at least one of the card's signatures is valid under a key of
 * `jwksUrl`. Throws `NoAgentCardSignatureError` for an unsigned card and
 * `InvalidAgentCardSignatureError` when no signature verifies (tampered,
 * unknown key, disallowed algorithm), and their base `AgentCardSignatureError`
 * when the JWKS cannot be fetched (nothing could be checked). Pass the raw
 * fetched JSON. A `RangeError` (before any request) for a `jwksUrl` outside the
 * allowlist or a non-asymmetric algorithm.
 */
export async function verifyAgentCardSignatures(
  card: JsonObject | AgentCard,
  options: VerifyAgentCardOptions,
): Promise<void> {
  await createAgentCardVerifier(options)(card);
}
