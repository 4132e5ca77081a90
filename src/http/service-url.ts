/**
 * Where a platform service is: the client's `baseUrl` option, else the
 * service's environment variable (set in every NovaOS pod). Neither is a
 * typed error that names the variable, raised when the client is built so a
 * misconfigured pod fails at start-up rather than on its first call.
 */
import { type NovaOSErrorOptions, NovaOSValidationError } from "../errors/novaos-errors.js";
import { type Env, processEnv } from "../runtime/process-env.js";
import { checkBaseUrl } from "./base-url.js";

/** No base URL was given and the service's environment variable is unset or blank. */
export class MissingServiceUrlError extends NovaOSValidationError {
  static override readonly brand: string = "MissingServiceUrlError";
  /** The environment variable that would have named the service. */
  readonly variable: string;
  constructor(message: string, options: NovaOSErrorOptions & { variable: string }) {
    super(message, { ...options, field: "baseUrl", reason: "missing_base_url" });
    this.variable = options.variable;
  }
}

/** `baseUrl`, else `env[variable]` (trimmed), checked to be an http(s) URL; without trailing slashes. */
export function serviceBaseUrl(
  service: string,
  variable: string,
  baseUrl: string | undefined,
  env: Env = processEnv(),
): string {
  const url = baseUrl ?? env[variable]?.trim();
  if (!url) {
    throw new MissingServiceUrlError(`No ${service} URL: pass baseUrl or set the environment variable ${variable}`, {
      variable,
      details: { variable },
    });
  }
  return checkBaseUrl(url, service).replace(/\/+$/, "");
}
