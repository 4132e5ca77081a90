/**
 * The write-confirmation gate of the local MCP Gateway (human in the loop
 * for writes). While it is on (the platform's `confirmWrites`, default on),
 * a write-class call (`requiresWriteHitl`: notify, `http.request`,
 * `browser.interact`, a connector operation that is not a read verb) runs
 * only under a token that carries the user's confirmation for that tool;
 * any other is refused before it runs with JSON-RPC -32042
 * `WRITE_CONFIRMATION_REQUIRED` naming the call (`_meta["novaos/call_id"]`)
 * and the tool, which the SDK turns into `WriteConfirmationRequiredError`.
 *
 * The flow is the cluster's: the skill pauses the run with
 * `createWriteConfirmationRequiredMessage(text, error.callId,
 * error.toolName)`; the user answers the pause through the gateway
 * (`execute` with the run's id as `thread_id`); an approving answer makes
 * the gateway mint the resumed turn's token with that confirmation in its
 * `write_confirmations` claim, bound to the paused call's id; and the skill
 * calls the tool again. One confirmation lets one call through.
 */

import { readWriteConfirmationRequired } from "../../messages/pause.js";
import { NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY } from "../../messages/wire-keys.js";
import { GatewayRpcCode } from "../../tools/gateway-rpc-error.js";
import { requiresWriteHitl } from "../../tools/write-class.js";
import type { WriteConfirmation } from "../execution-tokens.js";
import type { RunEvent } from "../run.js";
import { type ToolCall, ToolRefusal } from "./tool-call.js";

/** An answer that approves a write: yes, y, ok, confirm(ed), approve(d), case-insensitive, a final `.` or `!` allowed. */
export const APPROVING_ANSWER = /^\s*(?:yes|y|ok|confirm(?:ed)?|approved?)\s*[.!]?\s*$/i;

export class WriteConfirmationGate {
  readonly active: boolean;
  /** Confirmations already spent, by run and confirmed call id. */
  readonly #spent = new Set<string>();

  constructor(active: boolean) {
    this.active = active;
  }

  /** Lets `call` through, spending a confirmation its token carries, or refuses it with -32042. */
  admit(call: ToolCall): void {
    if (!this.active || !requiresWriteHitl(call.name)) return;
    for (const confirmation of call.claims.write_confirmations ?? []) {
      const key = `${call.claims.run_id}\u0000${confirmation.call_id}`;
      if (confirmation.tool_name !== call.name || this.#spent.has(key)) continue;
      this.#spent.add(key);
      return;
    }
    throw new ToolRefusal(GatewayRpcCode.WRITE_CONFIRMATION_REQUIRED, `${call.name} needs the user's confirmation`, {
      reason: "WRITE_CONFIRMATION_REQUIRED",
      call_id: call.callId,
      tool_name: call.name,
    });
  }
}

/**
 * The confirmation an answer grants: the write-confirmation pause of the
 * run's last `hitl` event, when `answer` approves it; else none.
 */
export function confirmationGranted(events: readonly RunEvent[], answer: string): WriteConfirmation | undefined {
  if (!APPROVING_ANSWER.test(answer)) return undefined;
  const pause = events.findLast((event) => event.type === "hitl")?.payload as
    | { data?: Record<string, unknown> }
    | undefined;
  const read = readWriteConfirmationRequired(pause?.data?.[NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY]);
  return read ? { call_id: read.payload.callId, tool_name: read.payload.toolName } : undefined;
}
