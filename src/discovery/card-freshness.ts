/**
 * How long a fetched Agent Card may be reused (A2A §8.6.2, RFC 9111 §5.2):
 * the origin's `max-age` (less the `Age` it already spent in a cache) when it
 * sends one, never longer than the caller's own TTL; `no-cache` means
 * "revalidate every time", `no-store` means "do not keep it at all".
 */

export interface CardFreshness {
  /** Milliseconds the card may be reused without asking the origin. */
  lifetimeMs: number;
  /** Whether the card may be kept at all (for reuse or for a conditional request). */
  storable: boolean;
}

function directive(cacheControl: string, name: string): string | true | undefined {
  for (const part of cacheControl.split(",")) {
    const [key, value] = part.split("=", 2).map((s) => s.trim());
    if (key?.toLowerCase() === name) return value === undefined ? true : value.replace(/^"|"$/g, "");
  }
  return undefined;
}

export function cardFreshness(
  { cacheControl, age }: { cacheControl?: string | undefined; age?: string | undefined },
  ttlMs: number,
): CardFreshness {
  if (cacheControl === undefined) return { lifetimeMs: ttlMs, storable: true };
  if (directive(cacheControl, "no-store") !== undefined) return { lifetimeMs: 0, storable: false };
  if (directive(cacheControl, "no-cache") !== undefined) return { lifetimeMs: 0, storable: true };
  const maxAge = directive(cacheControl, "max-age");
  if (typeof maxAge !== "string" || !/^\d+$/.test(maxAge)) return { lifetimeMs: ttlMs, storable: true };
  const spent = age !== undefined && /^\d+$/.test(age.trim()) ? Number(age.trim()) : 0;
  return { lifetimeMs: Math.min(ttlMs, Math.max(0, Number(maxAge) - spent) * 1000), storable: true };
}
