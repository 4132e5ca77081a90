/**
 * The similarity ratio the reference's fuzzy capability match uses: Python's
 * `difflib.SequenceMatcher(None, a, b).ratio()` (Ratcliff/Obershelp,
 * 2·M / T where M counts the characters of the recursively found longest
 * common blocks), so the 0.8 threshold means here exactly what it means
 * there. No junk heuristic: difflib only applies one to sequences of 200+
 * characters, and capability names are short.
 */

/** The longest common block of a[alo:ahi] and b[blo:bhi], earliest in `a` then in `b` on ties (difflib's rule). */
function longestMatch(
  a: readonly string[],
  alo: number,
  ahi: number,
  b: readonly string[],
  blo: number,
  bhi: number,
): [number, number, number] {
  let best: [number, number, number] = [alo, blo, 0];
  let lengths = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>();
    for (let j = blo; j < bhi; j++) {
      if (a[i] !== b[j]) continue;
      const k = (lengths.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > best[2]) best = [i - k + 1, j - k + 1, k];
    }
    lengths = next;
  }
  return best;
}

function matchingCharacters(
  a: readonly string[],
  alo: number,
  ahi: number,
  b: readonly string[],
  blo: number,
  bhi: number,
): number {
  const [i, j, k] = longestMatch(a, alo, ahi, b, blo, bhi);
  if (k === 0) return 0;
  return k + matchingCharacters(a, alo, i, b, blo, j) + matchingCharacters(a, i + k, ahi, b, j + k, bhi);
}

/** `difflib.SequenceMatcher(None, a, b).ratio()`, over code points. */
export function similarityRatio(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const total = left.length + right.length;
  if (total === 0) return 1;
  return (2 * matchingCharacters(left, 0, left.length, right, 0, right.length)) / total;
}
