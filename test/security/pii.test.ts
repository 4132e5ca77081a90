import { create } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MessageSchema, PartSchema, Role } from "../../gen/a2a_pb.js";
import { isSensitiveKey, maskPii, maskPiiInObject } from "../../src/security/pii.js";
import { maskEmails, maskPhoneNumbers, maskPhoneRun } from "../../src/security/pii-scan.js";
import { ADVERSARIAL_PII_UNITS } from "./support/adversarial-pii.js";

describe("maskPii patterns", () => {
  it.each([
    ["mail john.doe+tag@example.co.uk now", "mail [EMAIL] now"],
    ["écrire à zoë@exemple.fr", "écrire à [EMAIL]"],
    ["call +1 (555) 123-4567 or 555.123.4567", "call [PHONE] or [PHONE]"],
    ["intl +44 20 7946 0958", "intl [PHONE]"],
    ["short 555-1234", "short [PHONE]"],
    ["ssn 123-45-6789, 123 45 6789, 123.45.6789, 123456789", "ssn [SSN], [SSN], [SSN], [SSN]"],
    ["visa 4111 1111 1111 1111", "visa [CARD]"],
    ["visa 4111-1111-1111-1111 and 4111111111111111", "visa [CARD] and [CARD]"],
    ["amex 378282246310005, diners 30569309025904", "amex [CARD], diners [CARD]"],
    ["ip 192.168.1.10. next", "ip [IP]. next"],
    ["ni AB 12 34 56 C and AB123456C", "ni [NATIONAL_ID] and [NATIONAL_ID]"],
  ])("%s", (input, expected) => {
    expect(maskPii(input)).toBe(expected);
  });

  it("masks tokens and keys, keeping the name of a key=value pair", () => {
    expect(maskPii('password=hunter2 and "api_key": "abc123"')).toBe('password=[SECRET] and "api_key": "[SECRET]"');
    expect(maskPii("Authorization: Bearer abc.def.ghi")).toBe("Authorization: [SECRET]");
    expect(maskPii("curl -H 'X: y' Bearer abcdefgh12345678")).toBe("curl -H 'X: y' Bearer [SECRET]");
    expect(maskPii("jwt eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln end")).toBe("jwt [SECRET] end");
    expect(maskPii("keys sk-proj-abcdefghijklmnop1234 AKIAIOSFODNN7EXAMPLE")).toBe("keys [SECRET] [SECRET]");
    expect(maskPii(`gh ghp_${"a".repeat(36)}`)).toBe("gh [SECRET]");
    expect(maskPii("-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n-----END RSA PRIVATE KEY-----!")).toBe(
      "[SECRET]!",
    );
  });

  it("leaves a 16-digit number that fails the Luhn check (order ids are not cards)", () => {
    expect(maskPii("order 4111111111111112")).toBe("order 4111111111111112");
  });

  it("finds a valid card inside a longer digit-group run", () => {
    expect(maskPii("ref 12 4111 1111 1111 1111")).toBe("ref [CARD]");
  });

  it("masks a space-separated list of phone numbers chunk by chunk", () => {
    expect(maskPii("555 123 4567 555 987 6543")).toBe("[PHONE] [PHONE]");
  });

  it("does not mask ordinary text: ISO dates, UUIDs, versions, decimals, prose", () => {
    for (const text of [
      "at 2024-01-15T10:00:00Z and on 2024-01-15.",
      "id 123e4567-e89b-12d3-a456-426614174000",
      "version 1.2.3, pi 3.14159, 42 items",
      "use a Bearer token",
      "plain text with no PII",
    ]) {
      expect(maskPii(text)).toBe(text);
    }
  });

  it("is idempotent: masked text stays as it is", () => {
    const once = maskPii("a@b.cd 555-123-4567 4111111111111111 password=x 10.0.0.1");
    expect(maskPii(once)).toBe(once);
  });

  // Their timing (linear: 1 MB and 10 MB of each) is measured by bench/pii-mask.ts, not asserted here.
  describe("handles adversarial input", () => {
    it.each(ADVERSARIAL_PII_UNITS)("1 MB of %j", (unit) => {
      const input = unit.repeat(Math.ceil(1_000_000 / unit.length));
      expect(maskPii(input).length).toBeGreaterThan(0);
    });
  });
});

describe("sensitive keys", () => {
  it.each([
    "password",
    "db_password",
    "apiKey",
    "x-api-key",
    "ACCESS_TOKEN",
    "clientSecret",
    "phone",
    "phoneNumber",
    "ssn",
    "user_ssn",
    "cardNumber",
    "email",
    "pin",
    "cvv",
    "dateOfBirth",
  ])("%s is sensitive", (key) => {
    expect(isSensitiveKey(key)).toBe(true);
  });

  it.each(["className", "shipping", "mapping", "author", "name", "description", "lessons"])(
    "%s is not sensitive",
    (key) => {
      expect(isSensitiveKey(key)).toBe(false);
    },
  );
});

describe("maskPiiInObject", () => {
  it("redacts sensitive keys whatever the value, masks every other string, keeps other types", () => {
    const input = {
      phone: 5551234,
      ssn: { area: "123" },
      className: "x",
      user: { name: "Ann", note: "call 555-123-4567", tags: ["a@b.cd", 3, true, null] },
      apiKey: null,
      count: 4,
      when: new Date(0),
    };
    expect(maskPiiInObject(input)).toEqual({
      phone: "[REDACTED]",
      ssn: "[REDACTED]",
      className: "x",
      user: { name: "Ann", note: "call [PHONE]", tags: ["[EMAIL]", 3, true, null] },
      apiKey: null,
      count: 4,
      when: new Date(0),
    });
  });

  it("never mutates its input", () => {
    const input = { nested: { email: "a@b.cd", text: "ip 10.0.0.1" }, list: ["555-123-4567"] };
    const snapshot = structuredClone(input);
    const out = maskPiiInObject(input);
    expect(input).toEqual(snapshot);
    expect(out.nested).not.toBe(input.nested);
  });

  it("masks a bare string and returns non-walkable values as they are", () => {
    expect(maskPiiInObject("a@b.cd")).toBe("[EMAIL]");
    expect(maskPiiInObject(42)).toBe(42);
    const bytes = new Uint8Array([1]);
    expect(maskPiiInObject(bytes)).toBe(bytes);
  });

  it("keeps circular and shared references", () => {
    const shared = { text: "a@b.cd" };
    const input: Record<string, unknown> = { a: shared, b: shared };
    input.self = input;
    const out = maskPiiInObject(input);
    expect(out.self).toBe(out);
    expect(out.a).toBe(out.b);
    expect(out.a).toEqual({ text: "[EMAIL]" });
  });

  it("walks deep nesting without overflowing the stack", () => {
    let deep: Record<string, unknown> = { text: "a@b.cd" };
    for (let i = 0; i < 100_000; i++) deep = { child: deep };
    let out = maskPiiInObject(deep);
    for (let i = 0; i < 100_000; i++) out = out.child as Record<string, unknown>;
    expect(out.text).toBe("[EMAIL]");
  });

  it("masks the text of a protobuf-es message and keeps it a message", () => {
    const message = create(MessageSchema, {
      messageId: "m1",
      role: Role.AGENT,
      parts: [create(PartSchema, { content: { case: "text", value: "reach me at a@b.cd" } })],
    });
    const out = maskPiiInObject(message);
    expect(out.$typeName).toBe("lf.a2a.v1.Message");
    expect(out.parts[0]?.content).toEqual({ case: "text", value: "reach me at [EMAIL]" });
    expect(message.parts[0]?.content.value).toBe("reach me at a@b.cd");
  });

  it("copies an own __proto__ key as data, never as the copy's prototype", () => {
    const input = JSON.parse('{"__proto__": {"polluted": "a@b.cd"}, "x": "ok"}');
    const out = maskPiiInObject(input);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
    expect(Object.keys(out)).toEqual(["__proto__", "x"]);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ polluted: "[EMAIL]" });
  });

  it("masks an Error's message, stack, cause and own fields, keeping its class", () => {
    class LookupError extends Error {
      user = "jane.doe@example.com";
    }
    const cause = new Error("upstream answered for 555-123-4567");
    const error = new LookupError("no account for jane.doe@example.com", { cause });
    const out = maskPiiInObject({ err: error }).err;
    expect(out).toBeInstanceOf(LookupError);
    expect(out).not.toBe(error);
    expect(out.message).toBe("no account for [EMAIL]");
    expect(out.stack).toContain("no account for [EMAIL]");
    expect(out.stack).not.toContain("jane.doe");
    expect(out.user).toBe("[EMAIL]");
    expect((out.cause as Error).message).toBe("upstream answered for [PHONE]");
    // Enumerability is kept: the message stays out of JSON.stringify, as on any Error.
    expect(Object.keys(out)).toEqual(["user"]);
    expect(error.message).toBe("no account for jane.doe@example.com");
  });
});

/**
 * The regular expressions the email and phone scanners replaced, as they
 * were: the scanners must match exactly what these matched, wherever these
 * finish (they overflowed V8's backtracking stack on long runs).
 */
const REFERENCE_EMAIL = /(?<![\p{L}\p{N}._%+'-])[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
const REFERENCE_PHONE = /(?<![\p{L}\p{N}_+.-])(?:\+|\()?\d+(?:(?:[ .-]\(?|\)[ .-]?|\()\d+)*(?![\p{L}\p{N}_])/gu;

/** Single characters (code points) from the two grammars, ASCII and not: a non-ASCII digit, astral letters and symbols. */
const characters = (chars: string) => fc.constantFrom(...Array.from(chars));

describe("the email and phone scanners", () => {
  it("mask exactly the emails the regular expression matched", () => {
    fc.assert(
      fc.property(fc.string({ unit: characters("ab.-_%+'@é٣𝐀😀 1"), maxLength: 40 }), (text) => {
        expect(maskEmails(text, "[E]")).toBe(text.replace(REFERENCE_EMAIL, "[E]"));
      }),
      { numRuns: 5000 },
    );
  });

  it("mask exactly the phone runs the regular expression matched", () => {
    fc.assert(
      fc.property(fc.string({ unit: characters("0123456789 .-()+_a٣😀"), maxLength: 60 }), (text) => {
        expect(maskPhoneNumbers(text, "[P]")).toBe(text.replace(REFERENCE_PHONE, (run) => maskPhoneRun(run, "[P]")));
      }),
      { numRuns: 5000 },
    );
  });
});

/** One of every kind of PII, as maskPii must mask it inside any surroundings. */
const KNOWN_POSITIVES: readonly [string, string][] = [
  ["jane.doe@example.com", "[EMAIL]"],
  ["+1 (555) 123-4567", "[PHONE]"],
  ["4111 1111 1111 1111", "[CARD]"],
  ["123-45-6789", "[SSN]"],
  ["AB 12 34 56 C", "[NATIONAL_ID]"],
  ["192.168.1.10", "[IP]"],
  ["password=hunter2", "password=[SECRET]"],
  ["eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln", "[SECRET]"],
];

describe("maskPii on adversarial input up to 10 MB", () => {
  it("never throws, and still masks what it knows between adversarial runs", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ADVERSARIAL_PII_UNITS),
        fc.string({ maxLength: 6 }),
        fc.integer({ min: 1, max: 10 * 1024 * 1024 }),
        fc.constantFrom(...KNOWN_POSITIVES),
        (unit, extra, size, [positive, placeholder]) => {
          const pad = (unit + extra).repeat(Math.ceil(size / 2 / (unit.length + extra.length))).slice(0, size / 2);
          const masked = maskPii(`${pad}\n${positive}\n${pad}`);
          expect(masked).not.toContain(positive);
          // A private-key header in the padding swallows the lines after it as [SECRET]; else the placeholder is there.
          if (!pad.includes("-----BEGIN")) expect(masked).toContain(placeholder);
        },
      ),
      { numRuns: 16 },
    );
  }, 240_000);

  it("masks the long runs that used to overflow the stack", () => {
    for (const unit of ["1 ", "1-", "1.", "555 123 4567 "]) {
      expect(() => maskPii(unit.repeat(4_000_000 / unit.length))).not.toThrow();
    }
    expect(maskPii(`${"a.".repeat(3_000_000)}`)).toHaveLength(6_000_000);
    // Minimum-count quantifiers over a 10 MB token (a backtracking entry per character, once).
    const long = "a".repeat(10_000_000);
    expect(maskPii("sk-".repeat(3_400_000))).toBe("[SECRET]");
    expect(maskPii(`Bearer ${long}`)).toBe("Bearer [SECRET]");
    expect(maskPii(`ghp_${long} and xoxb-${long}`)).toBe("[SECRET] and [SECRET]");
    expect(maskPii(`x@${"a.".repeat(3_000_000)}co`)).toBe("[EMAIL]");
  });
});
