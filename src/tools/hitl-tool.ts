/**
 * `ctx.tools.hitl`: human-in-the-loop helpers. The platform has no
 * human-input service behind the gateway, so `requestInput` fails closed
 * without calling anything: ask a person by pausing the task instead
 * (`ctx.taskUpdater.requiresInput(...)`, or a `WAITING_USER` SkillResult).
 * `requiresWriteHitl` is the platform's write-class rule, answered locally.
 */
import { ToolBinding } from "./tool-binding.js";
import { HitlUnavailableError } from "./tool-errors.js";
import { requiresWriteHitl } from "./write-class.js";

export class HITLTool extends ToolBinding {
  /** Always rejects with HitlUnavailableError, sending nothing. */
  async requestInput(_prompt: string, inputType = "text"): Promise<never> {
    throw new HitlUnavailableError(
      "No human-input service is available to tools: pause the task for input instead " +
        "(ctx.taskUpdater.requiresInput, or return a WAITING_USER SkillResult)",
      { details: { inputType } },
    );
  }

  /**
   * Whether a call of `toolName` may be held for the user's confirmation
   * (-32042) while the run's write confirmation is active: decide up front
   * whether to pause before calling it. A hint: a tenant's policy may differ.
   */
  requiresWriteHitl(toolName: string): boolean {
    return requiresWriteHitl(toolName);
  }
}
