/**
 * `ctx.tools.agents`: other agents, called over A2A by the platform on this
 * run's behalf (the token is chained, so the callee sees who asked).
 * `call` waits up to `wait_s` (default 60 s) for the task to finish or pause
 * and answers its state then; follow a longer task with `getTask`. A call
 * starts a task, so it is sent once, never retried.
 */
import { ToolBinding } from "./tool-binding.js";
import type { ToolCallOptions } from "./tool-caller.js";
import type { ToolArguments, ToolResult } from "./tool-catalog.js";

export type AgentsCallArguments = Omit<ToolArguments<"novaos.agents.call">, "agent_id">;
export type AgentTaskResult = ToolResult<"novaos.agents.call">;

export class AgentsTool extends ToolBinding {
  /** Sends `args.input` to the agent (its id or registered name): `agents.call("translator", { input: "Bonjour" })`. */
  call(agentId: string, args: AgentsCallArguments, options?: ToolCallOptions): Promise<AgentTaskResult> {
    return this.caller.call("novaos.agents.call", { ...args, agent_id: agentId }, options);
  }

  /** A task started by `call`, as it stands now. */
  getTask(
    taskId: string,
    args: Omit<ToolArguments<"novaos.agents.get_task">, "task_id"> = {},
    options?: ToolCallOptions,
  ): Promise<AgentTaskResult> {
    return this.caller.call("novaos.agents.get_task", { ...args, task_id: taskId }, options);
  }

  /** The agents this run may call, with their skills; filter with `query`, page with `page_token`. */
  list(
    args: ToolArguments<"novaos.agents.list"> = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.agents.list">> {
    return this.caller.call("novaos.agents.list", args, options);
  }
}
