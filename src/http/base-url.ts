/** The one check of a platform service's base URL (no client library behind it, so any entry may use it). */
import { NovaOSValidationError } from "../errors/novaos-errors.js";

/**
 * `baseUrl` when it is an http(s) URL, else NovaOSValidationError naming
 * `service`. `new URL("execution-gateway:8081")` parses, with the host read as
 * a scheme, so parsing alone is not enough.
 */
export function checkBaseUrl(baseUrl: string, service: string): string {
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new NovaOSValidationError(`${service} baseUrl ${JSON.stringify(baseUrl)} is not an http(s) URL`, {
      field: "baseUrl",
    });
  }
  return baseUrl;
}
