/**
 * The local platform's one text search: the share of a query's distinct
 * words (letters and digits, case-folded) that appear in a text, in [0, 1].
 * Simple, deterministic and real: memory and knowledge queries rank by it.
 */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function textScore(query: string, text: string): number {
  const wanted = [...new Set(words(query))];
  if (wanted.length === 0) return 0;
  const have = new Set(words(text));
  return wanted.filter((word) => have.has(word)).length / wanted.length;
}
