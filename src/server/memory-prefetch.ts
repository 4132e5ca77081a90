/**
 * The runtime's memory pre-fetch: before a skill runs on a request whose
 * platform context carries a memory budget (`ctx.memoryBudget`: the agent
 * declares the memory capability), one `memory.assemble` recalls by the
 * message's text, within that budget, and `ctx.memory.context` holds the
 * bundle. A failure (no Memory Service URL, no token, the service down) is
 * logged and leaves `context` undefined: it never fails the skill. It runs
 * inside the skill's run, so a preemption ends it like any skill call.
 */
import { assembleOptionsFromBudget } from "../memory/memory-namespace.js";
import type { AgentExecutionContext } from "./agent-execution-context.js";
import { isCancellation } from "./cancellation.js";
import type { SkillHandler } from "./execution.js";
import type { SkillResult } from "./skill-result.js";

async function prefetchMemory(ctx: AgentExecutionContext<unknown>, query: string, budget: Record<string, number>) {
  try {
    await using client = ctx.memory.client();
    ctx.memory.context = await client.assembleContext(query, {
      ...assembleOptionsFromBudget(budget),
      signal: ctx.signal,
    });
  } catch (error) {
    if (ctx.isCancelled || isCancellation(error)) throw error;
    ctx.logger.warn({ err: error }, "memory pre-fetch failed; ctx.memory.context is undefined");
  }
}

/** The skill's call: the handler, after the pre-fetch when the run has a memory budget and the message has text. */
export function withMemoryPrefetch(
  handler: SkillHandler,
  ctx: AgentExecutionContext<unknown>,
  inputText: string,
): () => SkillResult | Promise<SkillResult> {
  const budget = ctx.memoryBudget;
  if (budget === undefined || inputText.trim() === "") return () => handler(ctx, inputText);
  return async () => {
    await prefetchMemory(ctx, inputText, budget);
    ctx.throwIfCancelled();
    return handler(ctx, inputText);
  };
}
