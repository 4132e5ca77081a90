/**
 * How two capability names compare. Names reach the SDK from many registries
 * and hands (`web-search`, `web_search`, `WebSearch`, `Web Scraping`), so they
 * are normalised first, the reference's way: lower case, words joined by
 * hyphens, anything else dropped (`Web Scraping` → `web-scraping`); camelCase
 * is split and Unicode folded (NFKC) on top of it. Fuzzy similarity is
 * difflib's Ratcliff/Obershelp ratio (the reference's, so its 0.8 threshold
 * keeps its meaning), taken over two views of the normalised names — the
 * letters with separators dropped (`websearch`), and the words sorted then
 * joined (order does not matter) — and the better of the two, in either
 * direction. A name whose words all occur in the other (`api` in
 * `api-integration`) is a partial match and scores at least
 * {@link CONTAINED_NAME_SIMILARITY}.
 */
import { similarityRatio } from "./similarity.js";

/** The reference's default fuzzy threshold. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;

/**
 * The least similarity of a name to one that contains all its words. The
 * reference scores `api` against `API Integration` 0.6: related, but under the
 * default threshold, so asking for `api` does not silently match every
 * `api-*` capability unless the caller lowers the threshold.
 */
export const CONTAINED_NAME_SIMILARITY = 0.6;

/** `Web Scraping` → `web-scraping`, `web_scraping` → `web-scraping`, `WebSearch_v2` → `web-search-v2`. */
export function normalizeCapabilityName(name: string): string {
  return name
    .normalize("NFKC")
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-|-$/g, "");
}

const words = (normalized: string): string[] => normalized.split("-");
const compact = (normalized: string): string => normalized.replaceAll("-", "");
const sortedWords = (normalized: string): string => words(normalized).sort().join("");

const ratio = (a: string, b: string): number => Math.max(similarityRatio(a, b), similarityRatio(b, a));

/** Whether every word of one normalised name is a word of the other. */
function contained(x: string, y: string): boolean {
  const [fewer, more] = x.length <= y.length ? [x, y] : [y, x];
  if (fewer === "") return false;
  const all = new Set(words(more));
  return words(fewer).every((w) => all.has(w));
}

/**
 * Similarity of two names in [0, 1]. With `normalize` (the default) it is the
 * documented two-view ratio over normalised names, at least
 * {@link CONTAINED_NAME_SIMILARITY} when one name's words are all in the
 * other, and 1 for names equal after normalisation; without, the plain ratio
 * of the names as given.
 */
export function capabilitySimilarity(a: string, b: string, options: { normalize?: boolean } = {}): number {
  if (options.normalize === false) return a === b ? 1 : ratio(a, b);
  const x = normalizeCapabilityName(a);
  const y = normalizeCapabilityName(b);
  if (x === y) return 1;
  const fuzzy = Math.max(ratio(compact(x), compact(y)), ratio(sortedWords(x), sortedWords(y)));
  return contained(x, y) ? Math.max(fuzzy, CONTAINED_NAME_SIMILARITY) : fuzzy;
}

/** The capability of `available` most similar to `required`, if it reaches `threshold`; the first wins ties. */
export function bestCapabilityMatch(
  required: string,
  available: readonly string[],
  threshold: number,
  options: { normalize?: boolean } = {},
): { capability: string; similarity: number } | undefined {
  let best: { capability: string; similarity: number } | undefined;
  for (const capability of available) {
    const similarity = capabilitySimilarity(required, capability, options);
    if (similarity >= threshold && similarity > (best?.similarity ?? -1)) {
      best = { capability, similarity };
      if (similarity === 1) break;
    }
  }
  return best;
}
