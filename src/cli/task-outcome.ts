/**
 * What a finished exchange means for the exit code, and what Ctrl-C does to
 * a running task: a task that ended failed or rejected exits 1; an
 * interrupted stream offers (on a terminal) to cancel the task it was
 * watching, and otherwise says how to.
 */
import { confirm, isCancel } from "@clack/prompts";
import { type Client, isTerminal, type Message, type Task, TaskState } from "../index.js";
import { CliFailure } from "./cli-errors.js";
import { EXIT } from "./exit-codes.js";
import type { Output } from "./output.js";
import { paintState, stateName } from "./render/task-text.js";

export function failIfUnsuccessful(result: Task | Message | undefined): void {
  if (result?.$typeName !== "lf.a2a.v1.Task") return;
  const state = result.status?.state;
  if (state === TaskState.FAILED || state === TaskState.REJECTED) {
    throw new CliFailure(`task ${result.id} ended ${stateName(state)}`, EXIT.FAILED);
  }
}

/** After Ctrl-C: offer to cancel `task` on the agent, then end with exit 130. */
export async function interrupted(
  task: Task | undefined,
  client: Client,
  out: Output,
  agentUrl: string,
): Promise<never> {
  if (task && !isTerminal(task)) {
    const interactive = out.live && out.io.stdin.isTTY === true;
    const answer = interactive
      ? await confirm({
          message: `Cancel task ${task.id} on the agent?`,
          initialValue: false,
          input: out.io.stdin,
          output: out.io.stdout,
        })
      : false;
    if (answer === true && !isCancel(answer)) {
      const canceled = await client.cancelTask(task.id);
      out.note(`task ${canceled.id} ${paintState(canceled.status?.state, out.colors)}`);
    } else {
      out.note(
        `task ${task.id} is still ${stateName(task.status?.state)}; cancel it with: novaos-a2a task cancel ${agentUrl} ${task.id}`,
      );
    }
  }
  throw new CliFailure("interrupted", EXIT.INTERRUPTED);
}
