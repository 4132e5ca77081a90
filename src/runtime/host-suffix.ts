/**
 * The one host-suffix allowlist rule, shared by `NOVAOS_ALLOWED_HOSTS`
 * (config.ts) and the discovery SSRF guard. Hosts are compared the way the
 * transport connects: in ASCII (IDNA) form, lower-case, without a trailing
 * dot, and on a dot boundary, so `partner.example` covers `api.partner.example`
 * but never `evilpartner.example`. A leading dot is accepted and ignored. An
 * IP-literal host is covered only by a suffix equal to it: `0.0.1` must not
 * cover `127.0.0.1`.
 */

const IPV4_OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`^${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}$`);

/**
 * Whether `host` is an IP literal (dotted-quad IPv4, or IPv6 without
 * brackets). Written over the WHATWG URL parser rather than `node:net`, so
 * the rule runs wherever the client does (browsers, workers).
 */
export function isIpLiteral(host: string): boolean {
  if (IPV4.test(host)) return true;
  if (!host.includes(":") || /[^0-9a-f:.]/i.test(host)) return false;
  try {
    new URL(`http://[${host}]/`);
    return true;
  } catch {
    return false;
  }
}

/** `host` in ASCII (IDNA) form, lower-case; "" when it cannot name a host (a port, a path, spaces). */
function domainToAscii(host: string): string {
  if (host === "" || /[\s/\\:?#@[\]%]/.test(host)) return "";
  try {
    const ascii = new URL(`http://${host}/`).hostname;
    // A name made only of digits and dots is not a domain: the URL parser would read it as IPv4 ("0.0.1" → 0.0.0.1).
    return /^[\d.]+$/.test(host) ? host : ascii;
  } catch {
    return "";
  }
}

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
  const ascii = isIpLiteral(bare) ? bare.toLowerCase() : domainToAscii(bare);
  return ascii === "" ? undefined : ascii;
}

/** Whether `hostname` (normalized with `normalizeHostname`) is covered by a normalized suffix. */
export function hostMatchesSuffix(hostname: string, normalizedSuffix: string): boolean {
  if (hostname === normalizedSuffix) return true;
  return !isIpLiteral(hostname) && hostname.endsWith(`.${normalizedSuffix}`);
}
