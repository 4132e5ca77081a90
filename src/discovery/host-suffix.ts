/**
 * Host-suffix allowlists, compared the way the transport connects: in
 * ASCII (IDNA) form, lower-case, without a trailing dot, and on a dot
 * boundary, so `partner.example` covers `api.partner.example` but never
 * `evilpartner.example`. A leading dot is accepted and ignored (the same rule
 * as `NOVAOS_ALLOWED_HOSTS`). An IP-literal host is covered only by a suffix
 * equal to it: `0.0.1` must not cover `127.0.0.1`.
 */
import { isIP } from "node:net";
import { domainToASCII } from "node:url";
import { NovaOSValidationError } from "../errors/novaos-errors.js";

/** `suffix` in the form hosts are compared in; throws NovaOSValidationError when it is not a domain. */
export function normalizeHostSuffix(suffix: string): string {
  const trimmed = suffix.trim().replace(/^\.+/, "").replace(/\.$/, "");
  const bare = trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed;
  const ascii = isIP(bare) ? bare.toLowerCase() : domainToASCII(bare);
  if (ascii === "") {
    throw new NovaOSValidationError(`Not a host suffix: ${JSON.stringify(suffix)}`, {
      field: "allowedHostSuffixes",
    });
  }
  return ascii;
}

/** Whether `hostname` (already normalized: ASCII, lower-case, no brackets or trailing dot) is covered. */
export function hostMatchesSuffix(hostname: string, normalizedSuffix: string): boolean {
  if (hostname === normalizedSuffix) return true;
  return isIP(hostname) === 0 && hostname.endsWith(`.${normalizedSuffix}`);
}
