/**
 * How two capability names compare. Names reach the SDK from many registries
 * and hands (`web-search`, `web_search`, `WebSearch`, `search web`), so they
 * are normalised first: Unicode NFKC, camelCase split, lower case, every run
 * of non-alphanumerics one space. Fuzzy similarity is difflib's
 * Ratcliff/Obershelp ratio (the reference's, so its 0.8 threshold keeps its
 * meaning), taken over two views of the normalised names — the letters with
 * separators dropped (`websearch`), and the words sorted then joined (order
 * does not matter) — and the better of the two, in either direction.
 */
import { similarityRatio } from "./similarity.js";

/** The reference's default fuzzy threshold. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;

/** `WebSearch_v2` → `web search v2`. */
export function normalizeCapabilityName(name: string): string {
  return name
    .normalize("NFKC")
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const compact = (normalized: string): string => normalized.replaceAll(" ", "");
const sortedWords = (normalized: string): string => normalized.split(" ").sort().join("");

const ratio = (a: string, b: string): number => Math.max(similarityRatio(a, b), similarityRatio(b, a));

/**
 * Similarity of two names in [0, 1]. With `normalize` (the default) it is the
 * documented two-view ratio over normalised names, 1 for names equal after
 * normalisation; without, the plain ratio of the names as given.
 */
export function capabilitySimilarity(a: string, b: string, options: { normalize?: boolean } = {}): number {
  if (options.normalize === false) return a === b ? 1 : ratio(a, b);
  const x = normalizeCapabilityName(a);
  const y = normalizeCapabilityName(b);
  if (x === y) return 1;
  return Math.max(ratio(compact(x), compact(y)), ratio(sortedWords(x), sortedWords(y)));
}
