/**
 * The local LLM gateway's embedding model: a hashed bag of words. Each
 * case-folded word (and each pair of neighbouring words) is hashed to one of
 * `dimensions` buckets with a sign; the counts are scaled to unit length. The
 * same text always gives the same vector, and texts that share words point the
 * same way, so a cosine ranks them as a real embedding would (by words, not
 * meaning: synonyms do not meet).
 */
import { fnv1a, wordsOf } from "./model-text.js";

/** The vector length of the local embedding model (and the most `dimensions` may ask for). */
export const LOCAL_EMBEDDING_DIMENSIONS = 256;

/** The features of one input: its words and word pairs, or for token ids the ids and their pairs. */
function features(input: string | readonly number[]): string[] {
  const units = typeof input === "string" ? wordsOf(input) : input.map((id) => `#${id}`);
  const pairs = units.slice(1).map((unit, i) => `${units[i]} ${unit}`);
  return [...units, ...pairs];
}

/** The unit vector of `input` in `dimensions` buckets, or undefined when it has no words. */
export function embed(
  input: string | readonly number[],
  dimensions = LOCAL_EMBEDDING_DIMENSIONS,
): number[] | undefined {
  const found = features(input);
  if (found.length === 0) return undefined;
  const vector = new Array<number>(dimensions).fill(0);
  for (const feature of found) {
    const hash = fnv1a(feature);
    vector[hash % dimensions] = (vector[hash % dimensions] as number) + (hash & 0x80000000 ? -1 : 1);
  }
  const norm = Math.hypot(...vector);
  // Opposite signs can cancel to zero; a fixed direction keeps the vector a unit one.
  if (norm === 0) return vector.map((_, i) => (i === 0 ? 1 : 0));
  return vector.map((value) => value / norm);
}

/** The tokens an input counts for usage: its words, or its token ids. */
export function embeddingTokens(input: string | readonly number[]): number {
  return typeof input === "string" ? wordsOf(input).length : input.length;
}

/** Little-endian float32, base64: OpenAI's `encoding_format: "base64"`. */
export function base64Floats(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [i, value] of vector.entries()) bytes.writeFloatLE(value, i * 4);
  return bytes.toString("base64");
}
