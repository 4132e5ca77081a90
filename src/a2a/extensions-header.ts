/**
 * The `A2A-Extensions` service parameter (spec §3.2.6): a comma-separated list
 * of extension URIs, possibly split over several header lines. URIs compare
 * exactly (no normalisation); the formatted value is sorted and de-duplicated
 * so that equal sets give equal headers.
 */
import { type HeadersLike, headerValues } from "./headers.js";

export const A2A_EXTENSIONS_HEADER = "A2A-Extensions";

/** The URIs a request names, sorted and de-duplicated; blanks are dropped. */
export function parseExtensionsHeader(headers: HeadersLike | null | undefined): string[] {
  return normalizeExtensionUris(headerValues(headers, A2A_EXTENSIONS_HEADER).flatMap((line) => line.split(",")));
}

/** The header value for a set of URIs, or undefined when there are none (then no header is sent). */
export function formatExtensionsHeader(uris: Iterable<string>): string | undefined {
  const list = normalizeExtensionUris(uris);
  return list.length === 0 ? undefined : list.join(",");
}

/** Trimmed, blank-free, de-duplicated and sorted by code point. */
export function normalizeExtensionUris(uris: Iterable<string>): string[] {
  const set = new Set<string>();
  for (const uri of uris) {
    const trimmed = uri.trim();
    if (trimmed !== "") set.add(trimmed);
  }
  return [...set].sort(compareCodePoints);
}

/** Code-point order, as the reference's sorted() (JS's default sort compares UTF-16 units). */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
