import { describe, expect, it } from "vitest";
import { getDnsUrlFromEnv } from "../../src/discovery/index.js";
import { platformEnv, platformEnvFile } from "../../src/local-platform/index.js";
import { platform } from "./support.js";

describe("the environment that points the SDK at a local platform", () => {
  it("names each local service in the variable the SDK reads it from", async () => {
    const local = await platform();
    const env = platformEnv(local);
    expect(getDnsUrlFromEnv({ env })).toBe(local.urls["agent-dns"]);
    expect(env).toMatchObject({
      NOVAOS_GATEWAY_URL: local.urls.gateway,
      GATEWAY_URL: local.urls.gateway,
      MCP_GATEWAY_URL: local.urls["mcp-gateway"],
      MEMORY_SERVICE_URL: local.urls.memory,
      NOVAOS_AGENT_OPS_URL: local.urls.heartbeat,
      LLM_GATEWAY_URL: local.urls["llm-gateway"],
      NOVAOS_TOKEN_ISSUER: local.tokens.issuer,
    });
    expect(platformEnvFile(local).split("\n")).toContain(`AGENT_DNS_URL=${local.urls["agent-dns"]}`);
  });
});
