/**
 * The two PII grammars of pii.ts that are scanned by hand: emails and phone
 * numbers. Both repeat a group (`(?:\.label)*`, `(?:separator digits)*`), and
 * V8's regular expressions keep a backtracking entry per repetition, so one
 * long run (`"1 ".repeat(4e6)`) overflowed their stack and made `maskPii`
 * throw. These scanners match exactly what those expressions matched
 * (test/security/pii.test.ts holds them to the expressions), in one pass and
 * constant stack. Letters and numbers are Unicode (`\p{L}`, `\p{N}`, whole
 * code points); phone digits are ASCII.
 */

const PHONE_MIN_DIGITS = 7;
const PHONE_MAX_DIGITS = 15;
const ISO_DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;

const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
const LETTER = /^\p{L}$/u;

/** The code point starting at `i` (undefined past the end). */
function codePointAt(text: string, i: number): number | undefined {
  return text.codePointAt(i);
}

/** The code point ending just before `i` (undefined at the start). */
function codePointBefore(text: string, i: number): number | undefined {
  if (i <= 0) return undefined;
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(i - 2);
  }
  return low;
}

const width = (cp: number) => (cp > 0xffff ? 2 : 1);

function isAsciiDigit(cp: number | undefined): boolean {
  return cp !== undefined && cp >= 48 && cp <= 57;
}

/** `\p{L}` or `\p{N}` (ASCII answered without a regular expression). */
function isLetterOrNumber(cp: number | undefined): boolean {
  if (cp === undefined) return false;
  if (cp < 128) return (cp >= 48 && cp <= 57) || ((cp | 32) >= 97 && (cp | 32) <= 122);
  return LETTER_OR_NUMBER.test(String.fromCodePoint(cp));
}

function isLetter(cp: number | undefined): boolean {
  if (cp === undefined) return false;
  if (cp < 128) return (cp | 32) >= 97 && (cp | 32) <= 122;
  return LETTER.test(String.fromCodePoint(cp));
}

/** `[\p{L}\p{N}._%+'-]`: what the local part of an email is made of. */
function isLocalChar(cp: number | undefined): boolean {
  return cp === 46 || cp === 95 || cp === 37 || cp === 43 || cp === 39 || cp === 45 || isLetterOrNumber(cp);
}

/** `[\p{L}\p{N}-]`: what a domain label is made of. */
function isLabelChar(cp: number | undefined): boolean {
  return cp === 45 || isLetterOrNumber(cp);
}

/**
 * Emails: `local@label(.label)*.tld`, the local part a whole run of
 * `[\p{L}\p{N}._%+'-]`, labels of `[\p{L}\p{N}-]`, the top-level domain two or
 * more letters (the last dot followed by two letters wins).
 */
export function maskEmails(text: string, placeholder: string): string {
  let out = "";
  let copied = 0;
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    let start = at;
    for (let cp = codePointBefore(text, start); isLocalChar(cp); cp = codePointBefore(text, start)) {
      start -= width(cp as number);
    }
    // An empty local part, or one that begins inside the previous match, is no match.
    if (start === at || start < copied) continue;
    const end = emailDomainEnd(text, at + 1);
    if (end === undefined) continue;
    out += `${text.slice(copied, start)}${placeholder}`;
    copied = end;
    at = end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Where the domain starting at `from` ends, or undefined when it has no top-level domain. */
function emailDomainEnd(text: string, from: number): number | undefined {
  let i = from;
  let end: number | undefined;
  for (;;) {
    const labelStart = i;
    for (let cp = codePointAt(text, i); isLabelChar(cp); cp = codePointAt(text, i)) i += width(cp as number);
    if (i === labelStart) return end;
    if (text.charCodeAt(i) !== 46) return end;
    // A dot after a label: a top-level domain when two letters follow, running over every letter after them.
    let j = i + 1;
    let letters = 0;
    for (let cp = codePointAt(text, j); isLetter(cp); cp = codePointAt(text, j)) {
      j += width(cp as number);
      letters++;
    }
    if (letters >= 2) end = j;
    i++;
  }
}

/** `[\p{L}\p{N}_+.-]`: what may not come just before a phone number. */
function touchesPhoneStart(cp: number | undefined): boolean {
  return cp === 95 || cp === 43 || cp === 46 || cp === 45 || isLetterOrNumber(cp);
}

/** `[ .-]` */
const isPhoneSeparator = (c: number) => c === 32 || c === 46 || c === 45;

function digitsEnd(text: string, i: number): number {
  while (isAsciiDigit(text.charCodeAt(i))) i++;
  return i;
}

/**
 * Where the digit group after the separator at `i` starts, or -1: a space,
 * dot or dash and an optional `(`; a `)` and an optional space, dot or dash;
 * or a `(`.
 */
function nextGroupStart(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  if (isPhoneSeparator(c) || c === 41) {
    const second = c === 41 ? isPhoneSeparator(next) : next === 40;
    if (second && isAsciiDigit(text.charCodeAt(i + 2))) return i + 2;
    return isAsciiDigit(next) ? i + 1 : -1;
  }
  return c === 40 && isAsciiDigit(next) ? i + 1 : -1;
}

/**
 * Phone numbers: a standalone run of digit groups joined by single
 * separators, an optional `+` or `(` before it, not touching a letter, a
 * digit or `_` after it (`maskPhoneRun` decides what in the run is a number).
 */
export function maskPhoneNumbers(text: string, placeholder: string): string {
  let out = "";
  let copied = 0;
  const length = text.length;
  for (let p = 0; p < length; p++) {
    const c = text.charCodeAt(p);
    const prefixed = c === 43 || c === 40;
    if (!isAsciiDigit(c) && !(prefixed && isAsciiDigit(text.charCodeAt(p + 1)))) continue;
    if (touchesPhoneStart(codePointBefore(text, p))) continue;
    let end = digitsEnd(text, prefixed ? p + 1 : p);
    let lastGood: number | undefined;
    for (let group = nextGroupStart(text, end); group >= 0; group = nextGroupStart(text, end)) {
      lastGood = end;
      end = digitsEnd(text, group);
    }
    // The run may not touch a letter, a digit or `_`; then it ends a group earlier (after a separator, it does not).
    const after = codePointAt(text, end);
    if (after === 95 || isLetterOrNumber(after)) {
      if (lastGood === undefined) {
        p = end - 1;
        continue;
      }
      end = lastGood;
    }
    out += text.slice(copied, p) + maskPhoneRun(text.slice(p, end), placeholder);
    copied = end;
    p = end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function digitCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/**
 * A run of digit groups is one phone number when it has 7–15 digits. A longer
 * run (a space-separated list of numbers) is split at spaces and masked chunk
 * by chunk, greedily, so a list of phone numbers is not left in the clear.
 * ISO dates are not phone numbers.
 */
export function maskPhoneRun(run: string, placeholder: string): string {
  const isPhone = (text: string, digits: number) =>
    digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS && !ISO_DATE.test(text);
  const total = digitCount(run);
  if (total <= PHONE_MAX_DIGITS) return isPhone(run, total) ? placeholder : run;
  const chunks = run.split(" ");
  const out: string[] = [];
  let pending: string[] = [];
  let pendingDigits = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const joined = pending.join(" ");
    out.push(isPhone(joined, pendingDigits) ? placeholder : joined);
    pending = [];
    pendingDigits = 0;
  };
  for (const chunk of chunks) {
    const n = digitCount(chunk);
    if (pendingDigits + n > PHONE_MAX_DIGITS) flush();
    pending.push(chunk);
    pendingDigits += n;
  }
  flush();
  return out.join(" ");
}
