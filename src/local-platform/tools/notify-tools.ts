/**
 * `novaos.notify.send` on the local MCP Gateway: nothing leaves the machine.
 * Each notification is recorded (`platform.notifications`) with who sent it
 * and answered `sent`; a repeat of a tenant's `idempotency_key` answers the
 * first notification again and records nothing, as a deduplicated send does.
 */
import { randomUUID } from "node:crypto";
import type { components } from "../../../gen/openapi/mcp-gateway.js";
import { ownerOf, type ToolHandler } from "./tool-call.js";

type Schemas = components["schemas"];

/** One notification the platform would have sent. */
export interface Notification extends Readonly<Schemas["NotifySendArguments"]> {
  readonly notification_id: string;
  readonly tenant_id: string;
  readonly agent_id: string;
  readonly run_id: string;
  readonly sent_at: string;
}

export function notifyTools(sent: Notification[]): Record<string, ToolHandler> {
  return {
    "novaos.notify.send": ({ claims, args }): Schemas["NotifySendResult"] => {
      const request = args as Schemas["NotifySendArguments"];
      const owner = ownerOf(claims);
      const earlier =
        request.idempotency_key === undefined
          ? undefined
          : sent.find((n) => n.tenant_id === owner.tenantId && n.idempotency_key === request.idempotency_key);
      const notification = earlier ?? {
        ...request,
        notification_id: `ntf_${randomUUID()}`,
        tenant_id: owner.tenantId,
        agent_id: owner.agentId,
        run_id: owner.runId,
        sent_at: new Date().toISOString(),
      };
      if (!earlier) sent.push(notification);
      return {
        notification_id: notification.notification_id,
        channel: notification.channel,
        status: "sent",
        recipients: notification.to.length,
      };
    },
  };
}
