/** Reading the request headers the local services act on (node gives a repeated header as an array). */
import type { IncomingHttpHeaders } from "node:http";

/** The first value of header `name` (lower case), trimmed; undefined when absent or blank. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/** The token of an `Authorization: Bearer <token>` header; undefined for none or another scheme. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  return /^bearer\s+(.+)$/i.exec(headerValue(headers, "authorization") ?? "")?.[1];
}
