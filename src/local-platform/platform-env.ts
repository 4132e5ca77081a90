/**
 * The environment that points the SDK at a local platform: the variables
 * every client and `ctx.tools` already read (the SDK has no sandbox switch),
 * with the local URLs. The bin prints them and can write them to a file for
 * `node --env-file`.
 */
import { AGENT_DNS_URL_ENV } from "../discovery/dns-url-from-env.js";
import { MCP_GATEWAY_URL_ENV } from "../tools/tool-errors.js";
import type { LocalPlatform } from "./local-platform.js";

/** The issuer variable `JwksTokenVerifier` users read. */
export const TOKEN_ISSUER_ENV = "NOVAOS_TOKEN_ISSUER";

/** `NAME=value` pairs, in a stable order. */
export function platformEnv(platform: Pick<LocalPlatform, "urls" | "tokens">): Record<string, string> {
  const { urls } = platform;
  return {
    NOVAOS_GATEWAY_URL: urls.gateway,
    GATEWAY_URL: urls.gateway,
    [AGENT_DNS_URL_ENV]: urls["agent-dns"],
    [MCP_GATEWAY_URL_ENV]: urls["mcp-gateway"],
    MEMORY_SERVICE_URL: urls.memory,
    NOVAOS_AGENT_OPS_URL: urls.heartbeat,
    LLM_GATEWAY_URL: urls["llm-gateway"],
    [TOKEN_ISSUER_ENV]: platform.tokens.issuer,
  };
}

/** The env-file text (`NAME=value` lines). */
export function platformEnvFile(platform: Pick<LocalPlatform, "urls" | "tokens">): string {
  return Object.entries(platformEnv(platform))
    .map(([name, value]) => `${name}=${value}\n`)
    .join("");
}
