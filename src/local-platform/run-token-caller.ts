/**
 * Who calls a service that takes a run's execution token as its bearer (the
 * Memory Service, as the MCP Gateway does): the claims of a token this
 * platform minted, else 401; an `X-Tenant-ID` other than the token's tenant
 * is 403, so a caller never reaches another tenant's data by a header.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { ExecutionTokenIssuer } from "./execution-tokens.js";
import type { MemoryOwner } from "./memory-store.js";
import { bearerToken, headerValue } from "./request-headers.js";
import { PlatformReplyError } from "./spec-router.js";

/** The caller the run token in `headers` names, or a `PlatformReplyError` (401, 403). */
export async function runTokenCaller(tokens: ExecutionTokenIssuer, headers: IncomingHttpHeaders): Promise<MemoryOwner> {
  const token = bearerToken(headers);
  const claims = token ? await tokens.claimsOf(token) : undefined;
  if (!claims) {
    throw new PlatformReplyError(401, "unauthenticated", "A valid execution token of this platform is required");
  }
  const tenant = headerValue(headers, "x-tenant-id");
  if (tenant !== undefined && tenant !== claims.tenant_id) {
    throw new PlatformReplyError(403, "forbidden", `X-Tenant-ID ${tenant} is not the token's tenant`);
  }
  return {
    tenantId: claims.tenant_id,
    agentId: claims.agent_id ?? claims.instance_id,
    runId: claims.run_id,
    userId: claims.user_id,
  };
}
