/**
 * PII masking for log lines and skill output (the reference's `pii` module).
 *
 * Pattern-based detection is best effort and deliberately broad: masking
 * something that was not PII is the safe failure, missing something that was
 * is the dangerous one. Keys whose name says the value is sensitive are
 * redacted whatever the value looks like (`maskPiiInObject`).
 *
 * Every pattern runs in time linear in its input: each begins with a
 * lookbehind that refuses to start inside a run of the characters it
 * consumes, so a run is scanned from its first character only; quantifiers
 * that follow a literal are bounded. A minimum count is written `X{n}X*`,
 * never `X{n,}`: V8 runs the latter with a backtracking entry per character,
 * which a long enough run overflows. Digits are ASCII digits.
 *
 * Emails and phone numbers repeat a group, which V8's regular expressions
 * pay for with stack: they are found by the scanners of pii-scan.ts, so no
 * input makes `maskPii` throw.
 */

/** The placeholders masked text carries, one per kind of match. */
export const PII_PLACEHOLDERS = {
  secret: "[SECRET]",
  email: "[EMAIL]",
  card: "[CARD]",
  ssn: "[SSN]",
  nationalId: "[NATIONAL_ID]",
  ip: "[IP]",
  phone: "[PHONE]",
  redacted: "[REDACTED]",
} as const;

import { maskEmails, maskPhoneNumbers } from "./pii-scan.js";

type Replacer = (match: string, ...groups: string[]) => string;

/** A pattern: a regular expression and its replacement, or a scanner that masks its own matches. */
type PiiPattern = { readonly regex: RegExp; readonly replace: string | Replacer } | ((text: string) => string);

const { secret, email, card, ssn, nationalId, ip, phone } = PII_PLACEHOLDERS;

/** Names whose value is masked in `name=value` / `"name": "value"` text (the value runs to a quote, space or separator). */
const SECRET_KEY_NAMES =
  "password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|authorization|credentials?";

/**
 * In application order: secrets first (a token may contain anything), then
 * emails, then the digit patterns from the most to the least specific, so
 * that a card or SSN is never half-masked as a phone number.
 */
const PATTERNS: readonly PiiPattern[] = [
  // PEM private keys: the body stops at the first `-`, so an unterminated block cannot make the scan quadratic.
  {
    regex: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[A-Za-z0-9+/=\s]*(?:-----END [A-Z ]{0,40}PRIVATE KEY-----)?/g,
    replace: secret,
  },
  // `password=…`, `"api_key": "…"`, `Authorization: Bearer …`: the key stays, the value goes.
  {
    regex: new RegExp(
      `((?:${SECRET_KEY_NAMES})["']?[ \\t]{0,8}[:=][ \\t]{0,8}["']?)(?:(?:Bearer|Basic|Token)[ \\t]{1,8})?[^\\s"'\`,;&<>()[\\]{}]+`,
      "gi",
    ),
    replace: (_match, key) => `${key}${secret}`,
  },
  // A credential after an HTTP auth scheme word (8+ characters, so prose like "a Bearer token" stays).
  {
    regex: /\b(Bearer|Basic)([ \t]{1,8})[A-Za-z0-9._~+/-]{8}[A-Za-z0-9._~+/-]*=*/g,
    replace: (_m, s, sp) => `${s}${sp}${secret}`,
  },
  // JSON Web Tokens (the header is a base64url JSON object, so it starts `eyJ`).
  {
    regex: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
    replace: secret,
  },
  // Well-known API key shapes: OpenAI/Stripe `sk-`/`sk_live_`…, GitHub, GitLab, Slack, AWS, Google.
  {
    regex:
      /(?<![A-Za-z0-9_-])(?:(?:sk|pk|rk)[-_](?:live_|test_|proj-|ant-)?[A-Za-z0-9_-]{16}[A-Za-z0-9_-]*|gh[pousr]_[A-Za-z0-9]{30}[A-Za-z0-9]*|github_pat_[A-Za-z0-9_]{30}[A-Za-z0-9_]*|glpat-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*|xox[abposr]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35})/g,
    replace: secret,
  },
  (text) => maskEmails(text, email),
  // 13–19 digits, single space or dash between groups, Luhn-checked.
  { regex: /(?<!\p{N})\d(?:[ -]?\d){12,18}(?!\p{N})/gu, replace: (m) => (isCardNumber(m) ? card : m) },
  // US SSN: 3-2-4 digits, optional space, dot or dash separators.
  { regex: /(?<![\p{L}\p{N}_])\d{3}[-. ]?\d{2}[-. ]?\d{4}(?![\p{L}\p{N}_])/gu, replace: ssn },
  // UK National Insurance number.
  {
    regex: /(?<![\p{L}\p{N}_])[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![\p{L}\p{N}_])/gu,
    replace: nationalId,
  },
  {
    regex:
      /(?<![\p{L}\p{N}_.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\p{L}\p{N}_]|\.\d)/gu,
    replace: ip,
  },
  (text) => maskPhoneNumbers(text, phone),
];

/** Masks the PII patterns in `text`. Text without any is returned unchanged. */
export function maskPii(text: string): string {
  let out = text;
  for (const pattern of PATTERNS) {
    if (typeof pattern === "function") out = pattern(out);
    else {
      const { regex, replace } = pattern;
      out = typeof replace === "string" ? out.replace(regex, replace) : out.replace(regex, replace as Replacer);
    }
  }
  return out;
}

/** Luhn check over the digits of `candidate`, also trying every group-aligned window of 13–19 digits. */
function isCardNumber(candidate: string): boolean {
  const groups = candidate.split(/[ -]/);
  for (let start = 0; start < groups.length; start++) {
    let digits = "";
    for (let end = start; end < groups.length; end++) {
      digits += groups[end];
      if (digits.length > 19) break;
      if (digits.length >= 13 && luhn(digits)) return true;
    }
  }
  return false;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Key names whose values are redacted whatever they look like. A key matches
 * when, lowercased with `_`, `-`, `.` and spaces removed, it contains one of
 * `SENSITIVE_KEY_SUBSTRINGS`, or when one of its words (split at camelCase and
 * separators) is one of `SENSITIVE_KEY_WORDS` (too short to match as substrings:
 * `ssn` is inside `className`).
 */
export const SENSITIVE_KEY_SUBSTRINGS: readonly string[] = [
  "password",
  "passwd",
  "passphrase",
  "secret",
  "token",
  "apikey",
  "accesskey",
  "privatekey",
  "authorization",
  "credential",
  "cookie",
  "socialsecurity",
  "phone",
  "mobilenumber",
  "email",
  "creditcard",
  "cardnumber",
  "iban",
  "taxid",
  "nationalid",
  "passport",
  "dateofbirth",
  "birthdate",
];

export const SENSITIVE_KEY_WORDS: readonly string[] = ["ssn", "pin", "cvv", "cvc", "dob", "otp", "pwd", "sin", "nino"];

const sensitiveWords = new Set(SENSITIVE_KEY_WORDS);

/** Whether values under `key` are redacted by `maskPiiInObject`. */
export function isSensitiveKey(key: string): boolean {
  const compact = key.toLowerCase().replace(/[-_. ]/g, "");
  if (SENSITIVE_KEY_SUBSTRINGS.some((s) => compact.includes(s))) return true;
  const words = key
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z\d]+/);
  return words.some((w) => sensitiveWords.has(w));
}

type Walkable = Record<string, unknown> | unknown[];

/** Plain objects (protobuf-es messages included), arrays and Errors are copied; everything else is kept. */
function isWalkable(value: unknown): value is Walkable {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value) || value instanceof Error) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Sets `key` on `target` as data, never through a setter: an own `__proto__` key stays a key, not a prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown, enumerable: boolean): void {
  if (enumerable && key !== "__proto__") target[key] = value;
  else Object.defineProperty(target, key, { value, writable: true, enumerable, configurable: true });
}

/**
 * A copy of `value` with every string masked by `maskPii` and every value
 * under a sensitive key (`isSensitiveKey`) replaced by `[REDACTED]` (null and
 * undefined stay as they are: there is nothing to hide). Plain objects and
 * arrays are walked, including protobuf-es messages; an Error becomes an
 * Error of the same class whose message, stack, cause and own fields are
 * masked (that is where personal data in an error sits); other objects (Date,
 * Uint8Array, class instances) are kept as they are. Own keys are copied as
 * data, `__proto__` included. The input is never mutated; shared and circular
 * references are preserved in the copy. The walk is iterative, so deep
 * nesting cannot overflow the stack.
 */
export function maskPiiInObject<T>(value: T): T {
  if (typeof value === "string") return maskPii(value) as T;
  if (!isWalkable(value)) return value;
  const copies = new Map<object, Walkable>();
  const stack: Array<[Walkable, Walkable]> = [];
  const copyOf = (source: Walkable) => {
    let target = copies.get(source);
    if (!target) {
      target = Array.isArray(source) ? new Array(source.length) : Object.create(Object.getPrototypeOf(source));
      copies.set(source, target!);
      stack.push([source, target!]);
    }
    return target!;
  };
  const maskValue = (v: unknown): unknown => {
    if (typeof v === "string") return maskPii(v);
    return isWalkable(v) ? copyOf(v) : v;
  };
  const root = copyOf(value);
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    if (Array.isArray(source)) {
      const out = target as unknown[];
      for (let i = 0; i < source.length; i++) out[i] = maskValue(source[i]);
      continue;
    }
    const out = target as Record<string, unknown>;
    // An Error's message, stack and cause are own properties, but not enumerable ones.
    const error = source instanceof Error;
    for (const key of error ? Object.getOwnPropertyNames(source) : Object.keys(source)) {
      const v = source[key];
      const masked = isSensitiveKey(key) && v !== null && v !== undefined ? PII_PLACEHOLDERS.redacted : maskValue(v);
      define(out, key, masked, !error || Object.prototype.propertyIsEnumerable.call(source, key));
    }
  }
  return root as T;
}
