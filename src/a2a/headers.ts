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

/** Every header line as `[name, value]`, names as given, repeated lines (arrays) flattened, in order. */
export function* headerEntries(headers: HeadersLike | null | undefined): Generator<[string, string]> {
  if (!headers) return;
  const entries =
    Symbol.iterator in headers
      ? (headers as Iterable<readonly [string, string | readonly string[]]>)
      : Object.entries(headers as Record<string, string | readonly string[] | undefined>);
  for (const [key, value] of entries) {
    if (typeof value === "string") yield [key, value];
    else if (Array.isArray(value)) for (const v of value) yield [key, v];
  }
}

/**
 * Every value of the header `name`, one per header line, in order. Fetch
 * `Headers` already join repeated lines (their iteration does too). Looked up
 * directly where the shape allows: servers read a dozen headers per request.
 */
export function headerValues(headers: HeadersLike | null | undefined, name: string): string[] {
  if (!headers) return [];
  const wanted = name.toLowerCase();
  if (headers instanceof Headers) {
    const value = headers.get(wanted);
    return value === null ? [] : [value];
  }
  const out: string[] = [];
  if (Symbol.iterator in headers) {
    for (const [key, value] of headerEntries(headers)) if (key.toLowerCase() === wanted) out.push(value);
    return out;
  }
  const record = headers as HeaderRecord;
  for (const key in record) {
    if (!namesHeader(key, wanted)) continue;
    const value = record[key];
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) out.push(...value);
  }
  return out;
}

type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Whether a record key names the (lower-case) header: only a key of the same length can; most are lower-case already. */
function namesHeader(key: string, wanted: string): boolean {
  return key === wanted || (key.length === wanted.length && key.toLowerCase() === wanted);
}

/**
 * The header's value with repeated lines joined by ", " (RFC 9110 §5.3), or
 * undefined when absent. A plain record (Node's headers) is scanned without
 * building the list `headerValues` returns: most lookups find nothing.
 */
export function headerValue(headers: HeadersLike | null | undefined, name: string): string | undefined {
  if (!headers || headers instanceof Headers || Symbol.iterator in headers) {
    const values = headerValues(headers, name);
    return values.length === 0 ? undefined : values.join(", ");
  }
  const wanted = name.toLowerCase();
  const record = headers as HeaderRecord;
  let joined: string | undefined;
  for (const key in record) {
    if (!namesHeader(key, wanted)) continue;
    const value = record[key];
    if (typeof value === "string") joined = joinLine(joined, value);
    else if (value) for (const line of value) joined = joinLine(joined, line);
  }
  return joined;
}

const joinLine = (joined: string | undefined, line: string): string =>
  joined === undefined ? line : `${joined}, ${line}`;
