/**
 * `ctx.tools.notify`: one notification to up to 50 recipients of one
 * channel (email, Slack, Teams, SMS, a configured webhook, in-app). It leaves
 * the platform, so it is write-class (it may need the user's confirmation)
 * and sent once, never retried: pass an `idempotency_key` to make a repeat
 * of your own harmless.
 */
import { ToolBinding } from "./tool-binding.js";
import type { ToolCallOptions } from "./tool-caller.js";
import type { ToolArguments, ToolResult } from "./tool-catalog.js";

export type NotifySendArguments = ToolArguments<"novaos.notify.send">;

export class NotifyTool extends ToolBinding {
  /** `send({ channel: "email", to: ["ada@example.com"], subject: "Report ready", body: "…" })`; email needs a subject. */
  send(args: NotifySendArguments, options?: ToolCallOptions): Promise<ToolResult<"novaos.notify.send">> {
    return this.caller.call("novaos.notify.send", args, options);
  }
}
