/**
 * Process-level configuration read from the environment (the reference's
 * `config` module, minus the Agent DNS URL lookup, which lives in
 * src/discovery). Every reader takes the environment as a parameter
 * (default `process.env`) so that tests and embedders never have to mutate
 * the real one. Bad values throw `RangeError` naming the variable.
 */

import { hostMatchesSuffix, normalizeHostname, normalizeHostSuffix } from "./host-suffix.js";
import { type Env, processEnv } from "./process-env.js";

export type Environment = "dev" | "staging" | "prod";

export const ENVIRONMENTS: readonly Environment[] = ["dev", "staging", "prod"];
export const DEFAULT_ENVIRONMENT: Environment = "dev";

/** Outbound-host allowlist: comma-separated hostname suffixes. Unset means no restriction. */
export const ALLOWED_HOSTS_ENV = "NOVAOS_ALLOWED_HOSTS";
/** Default per-tool MCP call timeout, in whole seconds. */
export const TOOL_TIMEOUT_ENV = "NOVAOS_TOOL_TIMEOUT_S";
/**
 * 128 s: the MCP Gateway's highest upstream ceiling (120 s, built-in and
 * service-registry tools) plus an 8 s margin, so the gateway times out first
 * and the caller sees its error rather than a premature SDK timeout.
 */
export const DEFAULT_TOOL_TIMEOUT_S = 128;

function isEnvironment(value: string): value is Environment {
  return (ENVIRONMENTS as readonly string[]).includes(value);
}

/**
 * The deployment environment: `ENVIRONMENT`, then `ENV`, case-insensitive,
 * `dev` when neither names one. `ENVIRONMENT` is ours, so an unknown value
 * there is an error; `ENV` is shared with POSIX shells (a start-up file
 * path), so a value there that is not an environment name is ignored.
 */
export function getEnvironment(env: Env = processEnv()): Environment {
  const explicit = env.ENVIRONMENT?.trim().toLowerCase();
  if (explicit) {
    if (isEnvironment(explicit)) return explicit;
    throw new RangeError(`ENVIRONMENT=${JSON.stringify(env.ENVIRONMENT)} is not one of ${ENVIRONMENTS.join(", ")}`);
  }
  const shared = env.ENV?.trim().toLowerCase();
  return shared && isEnvironment(shared) ? shared : DEFAULT_ENVIRONMENT;
}

/**
 * Entries in comparison form (host-suffix.ts), blank ones skipped. An entry
 * that names no host is a RangeError: dropping it could leave an empty list,
 * which means "no restriction".
 */
function normalizeAllowlist(entries: readonly string[], source: string): string[] {
  return entries
    .filter((entry) => entry.trim().replace(/^\.+/, "") !== "")
    .map((entry) => {
      const suffix = normalizeHostSuffix(entry);
      if (suffix === undefined) throw new RangeError(`${source} entry ${JSON.stringify(entry)} is not a host suffix`);
      return suffix;
    });
}

/** The `NOVAOS_ALLOWED_HOSTS` suffixes, or undefined when unset or blank (no restriction). */
export function getAllowedHostsFromEnv(env: Env = processEnv()): string[] | undefined {
  const list = normalizeAllowlist((env[ALLOWED_HOSTS_ENV] ?? "").split(","), ALLOWED_HOSTS_ENV);
  return list.length > 0 ? list : undefined;
}

/**
 * Rejects `url` when an allowlist is configured (the argument, else
 * `NOVAOS_ALLOWED_HOSTS`) and its host is not covered by one of the suffixes.
 * A suffix covers itself and its subdomains, on a dot boundary:
 * `example.com` covers `api.example.com` but not `evilexample.com` (the rule
 * of host-suffix.ts, the discovery guard's too). This is a coarse check for
 * trusted configuration, not an SSRF guard.
 */
export function validateHostAllowed(
  url: string | URL,
  allowedHosts?: readonly string[],
  env: Env = processEnv(),
): void {
  const allowlist = allowedHosts ? normalizeAllowlist(allowedHosts, "allowedHosts") : getAllowedHostsFromEnv(env);
  if (!allowlist || allowlist.length === 0) return;
  let host: string;
  try {
    host = normalizeHostname(new URL(url).hostname);
  } catch {
    throw new RangeError(`Not a valid URL: ${JSON.stringify(String(url))}`);
  }
  if (allowlist.some((suffix) => hostMatchesSuffix(host, suffix))) return;
  throw new RangeError(`Host ${JSON.stringify(host)} is not in the outbound-host allowlist (${allowlist.join(", ")})`);
}

/** `NOVAOS_TOOL_TIMEOUT_S` as a positive whole number of seconds, else {@link DEFAULT_TOOL_TIMEOUT_S}. */
export function getDefaultToolTimeoutS(env: Env = processEnv()): number {
  const raw = env[TOOL_TIMEOUT_ENV];
  if (raw === undefined || raw.trim() === "") return DEFAULT_TOOL_TIMEOUT_S;
  const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${TOOL_TIMEOUT_ENV}=${JSON.stringify(raw)} is not a positive whole number of seconds`);
  }
  return value;
}

/**
 * Rejects a tool timeout shorter than the gateway ceiling the caller declared
 * (equal is fine); without a declared ceiling there is nothing to check.
 */
export function validateToolTimeout(timeoutS: number, gatewayTimeoutS?: number): void {
  if (gatewayTimeoutS === undefined) return;
  if (timeoutS < gatewayTimeoutS) {
    throw new RangeError(
      `Tool timeout ${timeoutS}s is shorter than the gateway timeout ${gatewayTimeoutS}s: the SDK would give up first`,
    );
  }
}
