/**
 * Repeated units that stress the PII patterns: long digit-group runs,
 * domains, partial tokens, keys and credentials, a non-ASCII digit, an
 * astral symbol. test/security/pii.test.ts masks them; bench/pii-mask.ts
 * times them.
 */
export const ADVERSARIAL_PII_UNITS: readonly string[] = [
  "a",
  "1",
  "a@",
  "a@b.",
  "a@a.",
  "@a",
  "1-",
  "1 ",
  "1-1-",
  "1.1.",
  "+1",
  "(1",
  "1)",
  ".",
  "eyJ",
  "eyJa.",
  "password=",
  "password ",
  "Bearer ",
  "-----BEGIN PRIVATE KEY-----",
  "sk-",
  "AB12",
  "4111 ",
  "555 123 4567 ",
  "٣",
  "😀",
];
