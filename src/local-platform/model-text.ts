/**
 * How the local LLM gateway's deterministic model reads text: tokens it
 * counts (usage, `max_tokens`), words it compares and sentences it answers
 * with. No vocabulary, no randomness: the same text always splits the same.
 */

/** A run of letters and digits, or one other character, each with the whitespace before it. */
const TOKEN = /\s*(?:[\p{L}\p{N}]+|[^\s\p{L}\p{N}])/gu;

/** The tokens of `text`; joined they give `text` back without its trailing whitespace. */
export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** The case-folded words of `text` (runs of letters and digits). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The sentences of `text`: split after `.`, `!` or `?` followed by a space, and at line breaks. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "");
}

/** The words `wordsOf` finds that say something: four or more characters, or any with a digit. */
export function significantWords(text: string): Set<string> {
  return new Set(wordsOf(text).filter((word) => word.length >= 4 || /\p{N}/u.test(word)));
}

/** FNV-1a, 32 bits: a fixed, fast hash for ids and embedding buckets (not for security). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
