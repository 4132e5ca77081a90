/**
 * Where Agent DNS is, from configuration. There is deliberately no default
 * host for any environment: a fallback URL that resolves nowhere would hide a
 * missing platform setting until the first lookup failed far from its cause.
 * Like the rest of the environment readers (src/runtime/config.ts), a bad or
 * missing value is a `RangeError` naming the variables involved.
 */
import { type Environment, getEnvironment } from "../runtime/config.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The platform convention (control plane, Temporal workers). */
export const AGENT_DNS_URL_ENV = "AGENT_DNS_URL";
/** The older generic variable, still honoured. */
export const ACP_DNS_URL_ENV = "ACP_DNS_URL";
/** The agent-registrar convention: a host and a port. */
export const DNS_SERVICE_HOST_ENV = "DNS_SERVICE_HOST";
export const DNS_SERVICE_PORT_ENV = "DNS_SERVICE_PORT";
/** The port used with `DNS_SERVICE_HOST` when `DNS_SERVICE_PORT` is unset. */
export const DEFAULT_DNS_SERVICE_PORT = 8000;

export interface DnsUrlOptions {
  /** Used as is, ahead of every variable. */
  customUrl?: string;
  /** A variable to read ahead of the standard ones. */
  envVar?: string;
  /** Selects `ACP_DNS_URL_<ENV>`; default `getEnvironment()` (ENVIRONMENT, then ENV, else dev). */
  environment?: Environment;
  /** Default `process.env`. */
  env?: Env;
}

function checkedUrl(value: string, source: string): string {
  const url = value.trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError(`${source}=${JSON.stringify(value)} is not a valid URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new RangeError(`${source}=${JSON.stringify(value)} must be an http(s) URL`);
  }
  return url;
}

function hostPortUrl(host: string, rawPort: string | undefined): string {
  const port = rawPort === undefined || rawPort.trim() === "" ? String(DEFAULT_DNS_SERVICE_PORT) : rawPort.trim();
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    throw new RangeError(`${DNS_SERVICE_PORT_ENV}=${JSON.stringify(rawPort)} is not a port number`);
  }
  const bare = host.trim();
  const authority = bare.includes(":") && !bare.startsWith("[") ? `[${bare}]` : bare;
  return checkedUrl(`http://${authority}:${port}`, DNS_SERVICE_HOST_ENV);
}

/**
 * The Agent DNS base URL. First match wins:
 * 1. `customUrl`;
 * 2. the variable named by `envVar`;
 * 3. `AGENT_DNS_URL`;
 * 4. `ACP_DNS_URL`;
 * 5. `DNS_SERVICE_HOST` with `DNS_SERVICE_PORT` (default 8000), as `http://host:port`;
 * 6. `ACP_DNS_URL_<ENV>` for the environment (`ACP_DNS_URL_DEV`, `_STAGING`, `_PROD`).
 *
 * A blank variable counts as unset; a value that is set but is not an
 * http(s) URL is an error, not a reason to look further. When nothing is set
 * the RangeError names every variable that was checked.
 */
export function getDnsUrlFromEnv(options: DnsUrlOptions = {}): string {
  const env = options.env ?? process.env;
  if (options.customUrl !== undefined) return checkedUrl(options.customUrl, "customUrl");
  const checked: string[] = [];
  const read = (name: string): string | undefined => {
    checked.push(name);
    const value = env[name];
    return value === undefined || value.trim() === "" ? undefined : value;
  };
  for (const name of [options.envVar, AGENT_DNS_URL_ENV, ACP_DNS_URL_ENV]) {
    if (name === undefined) continue;
    const value = read(name);
    if (value !== undefined) return checkedUrl(value, name);
  }
  const host = read(DNS_SERVICE_HOST_ENV);
  if (host !== undefined) return hostPortUrl(host, env[DNS_SERVICE_PORT_ENV]);
  const perEnvironment = `${ACP_DNS_URL_ENV}_${(options.environment ?? getEnvironment(env)).toUpperCase()}`;
  const value = read(perEnvironment);
  if (value !== undefined) return checkedUrl(value, perEnvironment);
  throw new RangeError(
    `No Agent DNS URL is configured: set one of ${checked.join(", ")} (with ${DNS_SERVICE_PORT_ENV}, default ` +
      `${DEFAULT_DNS_SERVICE_PORT}, for ${DNS_SERVICE_HOST_ENV}), or pass customUrl. There is no default host.`,
  );
}

/**
 * The Agent DNS URL configured for `environment` (default
 * `getEnvironment()`): `getDnsUrlFromEnv` with that environment's
 * `ACP_DNS_URL_<ENV>`. There is no per-environment default host, so when
 * nothing is configured this throws the RangeError naming `AGENT_DNS_URL`,
 * `ACP_DNS_URL`, `DNS_SERVICE_HOST` (+ `DNS_SERVICE_PORT`) and
 * `ACP_DNS_URL_<ENV>`.
 */
export function getDnsUrlForEnvironment(environment?: Environment, env?: Env): string {
  return getDnsUrlFromEnv({ ...(environment ? { environment } : {}), ...(env ? { env } : {}) });
}
