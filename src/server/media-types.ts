/**
 * Media-type matching for content negotiation (skill input and output modes
 * against what a caller sends or accepts). Parameters are ignored, names
 * compare case-insensitively, and `*` wildcards match on either side
 * (`*\/*`, `text/*`).
 */

function essence(mediaType: string): [string, string] {
  const [type = "", subtype = ""] = (mediaType.split(";", 1)[0] ?? "").trim().toLowerCase().split("/", 2);
  return [type, subtype];
}

/** True when the two media types can name the same content. */
export function mediaTypesMatch(a: string, b: string): boolean {
  const [ta, sa] = essence(a);
  const [tb, sb] = essence(b);
  if (ta === "*" || tb === "*") return true;
  return ta === tb && (sa === "*" || sb === "*" || sa === sb);
}

/** True when some type of `offered` matches some type of `wanted`. */
export function anyMediaTypeMatches(wanted: readonly string[], offered: readonly string[]): boolean {
  return wanted.some((w) => offered.some((o) => mediaTypesMatch(w, o)));
}
