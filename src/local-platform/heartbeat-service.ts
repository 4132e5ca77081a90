/**
 * Heartbeats on agent-ops (openapi/heartbeat.yaml) of the local platform:
 * create, list, pause and resume an instance's config, over the
 * `HeartbeatScheduler` that fires its runs. A config belongs to the tenant
 * of the call that made it (`X-Tenant-ID`, else the platform's default), as
 * runs do at the gateway.
 */
import type { components } from "../../gen/openapi/heartbeat.js";
import type { GatewayService } from "./gateway-service.js";
import type { HeartbeatScheduler } from "./heartbeat-scheduler.js";
import type { OperationCall, OperationHandler } from "./spec-router.js";

export function heartbeatHandlers(
  scheduler: HeartbeatScheduler,
  gateway: GatewayService,
): Record<string, OperationHandler> {
  const where = ({ params, headers }: OperationCall) =>
    [gateway.tenantOf(headers), params.agentId as string, params.instanceId as string] as const;
  return {
    createHeartbeatConfig: (call) => ({
      status: 201,
      body: scheduler.create(...where(call), call.body as components["schemas"]["HeartbeatConfigCreate"]),
    }),
    listHeartbeatConfigs: (call) => ({ status: 200, body: { configs: scheduler.list(...where(call)) } }),
    pauseHeartbeatConfig: (call) => ({
      status: 200,
      body: scheduler.setStatus(...where(call), call.params.configId as string, "paused"),
    }),
    resumeHeartbeatConfig: (call) => ({
      status: 200,
      body: scheduler.setStatus(...where(call), call.params.configId as string, "active"),
    }),
  };
}
