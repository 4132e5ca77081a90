/**
 * The one host-suffix allowlist rule, shared by `NOVAOS_ALLOWED_HOSTS`
 * (config.ts) and the discovery SSRF guard. Hosts are compared the way the
 * transport connects: in ASCII (IDNA) form, lower-case, without a trailing
 * dot, and on a dot boundary, so `partner.example` covers `api.partner.example`
 * but never `evilpartner.example`. A leading dot is accepted and ignored. An
 * IP-literal host is covered only by a suffix equal to it: `0.0.1` must not
 * cover `127.0.0.1`.
 */
import { isIP } from "node:net";
import { domainToASCII } from "node:url";

/** A host as hosts are compared: lower-case, IPv6 without brackets, no trailing dot. */
export function normalizeHostname(host: string): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare.replace(/\.$/, "").toLowerCase();
}

/**
 * `suffix` in the form hosts are compared in, or undefined when it cannot
 * name a host (spaces, a port, a URL). Each caller decides what a bad entry
 * is: an allowlist must never quietly lose one, since that would widen it.
 */
export function normalizeHostSuffix(suffix: string): string | undefined {
  const trimmed = suffix.trim().replace(/^\.+/, "").replace(/\.$/, "");
  const bare = trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed;
  const ascii = isIP(bare) ? bare.toLowerCase() : domainToASCII(bare);
  return ascii === "" ? undefined : ascii;
}

/** Whether `hostname` (normalized with `normalizeHostname`) is covered by a normalized suffix. */
export function hostMatchesSuffix(hostname: string, normalizedSuffix: string): boolean {
  if (hostname === normalizedSuffix) return true;
  return isIP(hostname) === 0 && hostname.endsWith(`.${normalizedSuffix}`);
}
