/**
 * The caller's custom headers: what a skill reads (`ctx.customHeaders`) and
 * what its tool calls forward. A service-account caller passes them on
 * execute and the platform delivers them as request headers. Everything the
 * platform, HTTP or A2A own is kept out, so a skill never mistakes a
 * credential or a routing header for caller data, and a forwarded header
 * never overrides one the SDK sets. Names are compared and returned
 * lower-cased.
 */
import { type HeadersLike, headerEntries } from "../a2a/headers.js";

const OWNED_NAMES: ReadonlySet<string> = new Set([
  // Credentials and cookies.
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  // Tracing (the SDK propagates these itself).
  "traceparent",
  "tracestate",
  "baggage",
  // A2A service parameters.
  "a2a-version",
  "a2a-extensions",
  // HTTP mechanics.
  "host",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "transfer-encoding",
  "content-length",
  "content-type",
  "content-encoding",
  "accept",
  "accept-encoding",
  "accept-language",
  "user-agent",
  "expect",
  "origin",
  "referer",
  "forwarded",
  "via",
  "x-real-ip",
  "x-request-id",
  "cache-control",
  "pragma",
  // Platform call headers the SDK sets itself (the tenant of a platform call, an MCP session).
  "x-tenant-id",
  "mcp-session-id",
]);

const OWNED_PREFIXES: readonly string[] = ["x-novaos-", "x-forwarded-", "sec-", "proxy-", "x-envoy-", "x-b3-"];

/** True for a header name a caller may legitimately set for a skill to read. */
export function isSafeCustomHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === "" || lower.startsWith(":")) return false;
  return !OWNED_NAMES.has(lower) && !OWNED_PREFIXES.some((p) => lower.startsWith(p));
}

/** The safe headers of a request, lower-cased, repeated lines joined with ", ". */
export function customHeaders(headers: HeadersLike): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headerEntries(headers)) {
    if (!isSafeCustomHeaderName(name)) continue;
    const lower = name.toLowerCase();
    out[lower] = lower in out ? `${out[lower]}, ${value}` : value;
  }
  return out;
}
