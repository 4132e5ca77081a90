/**
 * Reading HTTP-style headers from whatever a server or client framework hands
 * over: Fetch `Headers`, Node's `IncomingHttpHeaders` (arrays for repeated
 * lines), plain records, `Map`s or entry lists (Fetch `Headers` iterate as
 * entries too). Names compare
 * case-insensitively (RFC 9110 §5.1).
 */

export type HeadersLike =
  | Headers
  | ReadonlyMap<string, string | readonly string[]>
  | Iterable<readonly [string, string]>
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Every value of the header `name`, one per header line, in order. */
export function headerValues(headers: HeadersLike | null | undefined, name: string): string[] {
  if (!headers) return [];
  const wanted = name.toLowerCase();
  const out: string[] = [];
  const push = (value: string | readonly string[] | undefined) => {
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) out.push(...value);
  };
  const entries =
    Symbol.iterator in headers
      ? (headers as Iterable<readonly [string, string | readonly string[]]>)
      : Object.entries(headers as Record<string, string | readonly string[] | undefined>);
  for (const [key, value] of entries) {
    if (key.toLowerCase() === wanted) push(value);
  }
  return out;
}

/** The header's value with repeated lines joined by ", " (RFC 9110 §5.3), or undefined when absent. */
export function headerValue(headers: HeadersLike | null | undefined, name: string): string | undefined {
  const values = headerValues(headers, name);
  return values.length === 0 ? undefined : values.join(", ");
}
