/**
 * The SSRF guard for agent URLs that come from remote documents (an Agent
 * Card's interfaces, an Agent DNS record): a scheme allow-list, a host-suffix
 * allowlist, and a block on every non-public address the host is or resolves
 * to. The same checks run again at connect time (guarded-fetch.ts), because
 * a name can resolve differently a moment later (DNS rebinding).
 *
 * Hosts are read the way the transport reads them: every URL, and every bare
 * `host:port` gRPC authority, is parsed by the WHATWG URL parser as an
 * `http:` URL, which turns IDNA names into their ASCII form and the numeric
 * IPv4 spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`) into `127.0.0.1`.
 * A bare `host:port` is recognised before that: `new URL("host:50051")` reads
 * `host:` as a scheme and finds no host at all.
 */
import type { LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import { hostMatchesSuffix, normalizeHostname, normalizeHostSuffix } from "../runtime/host-suffix.js";
import { AgentUrlRejectedError } from "./agent-url-error.js";
import { blockedAddressCategory } from "./blocked-addresses.js";

/** Schemes an agent URL may use unless the caller narrows them; a bare `host:port` is always a gRPC target. */
export const DEFAULT_AGENT_URL_SCHEMES: readonly string[] = ["https", "http", "grpcs", "grpc"];

/** Resolves a host name to every address it has (the default is `dns.lookup` with `all: true`). */
export type ResolveHost = (hostname: string) => Promise<readonly LookupAddress[]>;

const resolveWithSystemDns: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface AgentUrlPolicy {
  /** Host suffixes the URL must fall under (dot boundary, IDNA, case-insensitive); empty or absent means any host. */
  allowedHostSuffixes?: readonly string[] | undefined;
  /** Skip the private / loopback / link-local / reserved address block (trusted registries only). */
  allowPrivateIps?: boolean | undefined;
  /** Schemes to accept, lower-case; default {@link DEFAULT_AGENT_URL_SCHEMES}. */
  allowedSchemes?: readonly string[] | undefined;
  /** Name resolution; inject one in tests or to use a private resolver. */
  resolve?: ResolveHost | undefined;
}

export interface ParsedAgentUrl {
  /** The lower-case scheme, or undefined for a bare `host:port` authority. */
  scheme: string | undefined;
  /** The host in ASCII form: lower-case, IPv6 without brackets, no trailing dot. */
  hostname: string;
  port: number | undefined;
}

export interface ValidatedAgentUrl extends ParsedAgentUrl {
  /** The URL as given. */
  url: string;
  /** What the host resolved to when it was checked (empty when the address block was skipped). */
  addresses: readonly string[];
}

const WITH_AUTHORITY = /^([a-z][a-z0-9+.-]*):\/\//i;
/** `scheme:` followed by anything but a port: `mailto:x`, `javascript:…`, `http:/x`. `host:50051` is not one. */
const WITHOUT_AUTHORITY = /^[a-z][a-z0-9+.-]*:(?!\d+(?:[/?#]|$))/i;

function reject(reason: AgentUrlRejectedError["reason"], url: string, message: string, address?: string): never {
  throw new AgentUrlRejectedError(message, { reason, url, address });
}

/** Splits an agent URL or a bare `host:port` into scheme, ASCII host and port; throws AgentUrlRejectedError. */
export function parseAgentUrl(url: string): ParsedAgentUrl {
  const text = url.trim();
  const withAuthority = WITH_AUTHORITY.exec(text);
  if (!withAuthority && WITHOUT_AUTHORITY.test(text)) {
    reject("scheme", url, `Agent URL ${JSON.stringify(url)} has a scheme but no host`);
  }
  const scheme = withAuthority?.[1]?.toLowerCase();
  const rest = withAuthority ? text.slice(withAuthority[0].length) : text;
  let parsed: URL;
  try {
    parsed = new URL(`http://${rest}`);
  } catch {
    reject("unparseable", url, `Agent URL ${JSON.stringify(url)} cannot be parsed`);
  }
  if (parsed.username !== "" || parsed.password !== "") {
    reject("credentials", url, `Agent URL ${JSON.stringify(url)} must not carry credentials`);
  }
  const hostname = normalizeHostname(parsed.hostname);
  if (hostname === "" || rest === "") reject("unparseable", url, `Agent URL ${JSON.stringify(url)} has no host`);
  return { scheme, hostname, port: parsed.port === "" ? undefined : Number(parsed.port) };
}

/** A suffix the caller configured that names no host: a configuration error, not a refused URL. */
function checkedSuffix(suffix: string): string {
  const normalized = normalizeHostSuffix(suffix);
  if (normalized === undefined) {
    throw new NovaOSValidationError(`Not a host suffix: ${JSON.stringify(suffix)}`, { field: "allowedHostSuffixes" });
  }
  return normalized;
}

/** Throws unless `hostname` (normalized) is covered by one of the suffixes; no suffixes means any host. */
export function checkHostSuffix(hostname: string, suffixes: readonly string[] | undefined, url: string): void {
  if (!suffixes || suffixes.length === 0) return;
  const normalized = suffixes.map(checkedSuffix);
  if (normalized.some((suffix) => hostMatchesSuffix(hostname, suffix))) return;
  reject(
    "host-suffix",
    url,
    `Host ${JSON.stringify(hostname)} of ${JSON.stringify(url)} is not under an allowed suffix (${normalized.join(", ")})`,
  );
}

/** Throws when `address` is not public. */
export function checkAddress(address: string, hostname: string, url: string): void {
  const category = blockedAddressCategory(address);
  if (category === undefined) return;
  const via = address === hostname ? "" : ` (${hostname} resolves to it)`;
  reject(
    "blocked-address",
    url,
    `Refusing ${category} address ${address}${via} for ${JSON.stringify(url)}; ` +
      "to reach an agent on this machine or a private network (local development), pass allowPrivateIps: true",
    address,
  );
}

/** Resolves `hostname` and checks every address it has (one bad address refuses the host). */
export async function resolveCheckedAddresses(
  hostname: string,
  policy: AgentUrlPolicy,
  url: string,
): Promise<readonly LookupAddress[]> {
  if (isIP(hostname)) {
    if (!policy.allowPrivateIps) checkAddress(hostname, hostname, url);
    return [{ address: hostname, family: isIP(hostname) }];
  }
  let addresses: readonly LookupAddress[];
  try {
    addresses = await (policy.resolve ?? resolveWithSystemDns)(hostname);
  } catch (error) {
    throw new AgentUrlRejectedError(`Host ${JSON.stringify(hostname)} of ${JSON.stringify(url)} does not resolve`, {
      reason: "unresolvable",
      url,
      cause: error,
    });
  }
  if (addresses.length === 0) reject("unresolvable", url, `Host ${JSON.stringify(hostname)} has no addresses`);
  if (!policy.allowPrivateIps) for (const { address } of addresses) checkAddress(address, hostname, url);
  return addresses;
}

/**
 * Checks an agent URL before anything connects to it: parse (scheme URL or
 * bare `host:port`), scheme allow-list, no credentials, host-suffix
 * allowlist, then, unless `allowPrivateIps`, the host and every address it
 * resolves to against the non-public blocks. Suffixes are checked before
 * any DNS query, so a refused host is never even looked up.
 * Throws {@link AgentUrlRejectedError}.
 */
export async function validateAgentUrl(url: string, policy: AgentUrlPolicy = {}): Promise<ValidatedAgentUrl> {
  const parsed = parseAgentUrl(url);
  const schemes = policy.allowedSchemes ?? DEFAULT_AGENT_URL_SCHEMES;
  if (parsed.scheme !== undefined && !schemes.includes(parsed.scheme)) {
    reject("scheme", url, `Scheme ${JSON.stringify(parsed.scheme)} is not allowed (${schemes.join(", ")})`);
  }
  checkHostSuffix(parsed.hostname, policy.allowedHostSuffixes, url);
  const addresses = policy.allowPrivateIps
    ? []
    : (await resolveCheckedAddresses(parsed.hostname, policy, url)).map((a) => a.address);
  return { ...parsed, url, addresses };
}
