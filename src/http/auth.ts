/**
 * Client credentials as headers. The SDK never obtains, validates or
 * refreshes credentials: the application supplies them and the SDK formats
 * the headers, read afresh on every call (so a rotated token takes effect on
 * the next call).
 */
import { processEnv } from "../runtime/process-env.js";

export interface AuthProvider {
  /** The headers to add to the next call. */
  headers(): Record<string, string> | Promise<Record<string, string>>;
}

/** `Authorization: Bearer <token>`. The token may be replaced at any time. */
export class BearerTokenAuth implements AuthProvider {
  #token: string;
  constructor(token: string) {
    this.#token = token;
  }
  get token(): string {
    return this.#token;
  }
  set token(value: string) {
    this.#token = value;
  }
  headers(): Record<string, string> {
    return { Authorization: `Bearer ${this.#token}` };
  }
  /** Never print the token. */
  toJSON(): { type: string } {
    return { type: "BearerTokenAuth" };
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return "BearerTokenAuth { token: [redacted] }";
  }
}

export const DEFAULT_API_KEY_HEADER = "X-API-Key";
export const DEFAULT_API_KEY_ENV = "ACP_API_KEY";

/** `<headerName>: <apiKey>`, `X-API-Key` by default. */
export class ApiKeyAuth implements AuthProvider {
  readonly #apiKey: string;
  readonly headerName: string;
  constructor(apiKey: string, headerName: string = DEFAULT_API_KEY_HEADER) {
    this.#apiKey = apiKey;
    this.headerName = headerName;
  }
  get apiKey(): string {
    return this.#apiKey;
  }
  headers(): Record<string, string> {
    return { [this.headerName]: this.#apiKey };
  }
  toJSON(): { type: string; headerName: string } {
    return { type: "ApiKeyAuth", headerName: this.headerName };
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `ApiKeyAuth { headerName: ${JSON.stringify(this.headerName)}, apiKey: [redacted] }`;
  }
}

/** An `ApiKeyAuth` from the environment (`ACP_API_KEY` by default); throws when unset or blank. */
export function apiKeyAuthFromEnv(
  envVar: string = DEFAULT_API_KEY_ENV,
  headerName: string = DEFAULT_API_KEY_HEADER,
  env: Record<string, string | undefined> = processEnv(),
): ApiKeyAuth {
  const value = env[envVar]?.trim();
  if (!value) throw new RangeError(`Environment variable ${envVar} is not set (an API key is required)`);
  return new ApiKeyAuth(value, headerName);
}
