/**
 * The caller the NovaOS pod headers describe. The auth-proxy sidecar in front
 * of a NovaOS agent verifies the execution token and sets `X-NovaOS-Tenant-Id`,
 * `-User-Id`, `-Run-Id`, `-Agent-Id`, `-Instance-Id` and `-Execution-Token`
 * from it; whoever reads them trusts that nothing reaches the agent around
 * the proxy (`trustedProxy`, and an agent without an auth mode on loopback).
 */
import { type HeadersLike, headerValue } from "../../a2a/headers.js";
import { NOVAOS_CONTEXT_HEADERS } from "../../runtime/execution-context.js";
import type { CallerIdentityInit } from "./caller-identity.js";

const read = (headers: HeadersLike, name: string): string | undefined =>
  headerValue(headers, name)?.trim() || undefined;

/** The caller the pod headers name; undefined when they name nobody (no tenant, user, run or token). */
export function podHeaderCaller(headers: HeadersLike): CallerIdentityInit | undefined {
  const tenantId = read(headers, NOVAOS_CONTEXT_HEADERS.tenantId);
  const userId = read(headers, NOVAOS_CONTEXT_HEADERS.userId);
  const runId = read(headers, NOVAOS_CONTEXT_HEADERS.runId);
  const token = read(headers, NOVAOS_CONTEXT_HEADERS.executionToken);
  // Most calls on loopback carry none of them: four lookups, and no identity to build.
  if (!tenantId && !userId && !runId && !token) return undefined;
  return {
    tenantId,
    userId,
    runId,
    agentId: read(headers, NOVAOS_CONTEXT_HEADERS.agentId),
    instanceId: read(headers, NOVAOS_CONTEXT_HEADERS.instanceId),
    token,
  };
}
