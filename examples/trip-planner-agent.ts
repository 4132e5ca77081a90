/**
 * The trip planner: a NovaOS agent whose one skill, `plan-trip`, uses the
 * platform the way an agent in the cluster does, with nothing configured but
 * the environment (sandbox mode on the local platform, the pod's own in the
 * cluster):
 *
 * 1. recalls earlier plans from memory (`ctx.tools.memory`);
 * 2. files the travel guides in the knowledge base and waits for the jobs;
 * 3. searches them for the question (`ctx.tools.knowledge`);
 * 4. asks the LLM, with the run's own token, and streams its answer as the
 *    `plan` artifact (`LLMClient`);
 * 5. asks before it saves the plan (a HITL pause); answered yes, it writes the
 *    plan to memory and finds it there.
 *
 * Each step is a status message `[n/5] …`, which a gateway app can show as
 * progress.
 */
import { artifactText, createHitlMessage, HitlType, TaskState, textPart } from "@novaos/client-sdk";
import { LLMClient } from "@novaos/client-sdk/platform";
import { AgentBuilder, type Logger } from "@novaos/client-sdk/server";

/** The guides the planner files before it searches them. */
export const TRAVEL_GUIDES = [
  "Lisbon: the 28 tram climbs from Baixa to the castle. Pastel de nata is a custard tart from Belém.",
  "Porto: port wine cellars line the river in Gaia. The Livraria Lello bookshop opens at nine.",
  "Sintra: the Pena palace sits on a hill above the town. Trains to Sintra leave Rossio every twenty minutes.",
];

/** The LLM the planner asks: the local platform's deterministic chat model unless `PLANNER_MODEL` names another. */
const MODEL = process.env.PLANNER_MODEL ?? "novaos-local-chat";
const STEPS = 5;

export function createTripPlannerAgent(options: { logger?: Logger } = {}): AgentBuilder {
  const agent = new AgentBuilder({
    name: "trip-planner",
    version: "1.0.0",
    description: "Plans a trip from its travel guides, remembers the plans you approve.",
    ...(options.logger ? { logger: options.logger } : {}),
  });

  agent.skill(
    "plan-trip",
    { description: "Answers a travel question from the guides and saves the plan once you approve", tags: ["travel"] },
    async (ctx, text) => {
      const step = (n: number, what: string) =>
        ctx.taskUpdater.updateStatus(TaskState.WORKING, `[${n}/${STEPS}] ${what}`);

      // The answer to the pause: the same task, its plan already streamed as an artifact.
      if (ctx.task.history.length > 1) {
        const streamed = ctx.task.artifacts.find((artifact) => artifact.artifactId === "plan");
        const plan = streamed ? artifactText(streamed) : "";
        if (!/^\s*y(es)?\s*$/i.test(text)) return { output: "The plan was not saved." };
        const saved = await ctx.tools.memory.write("agent", plan, { tags: ["plan"] });
        const found = await ctx.tools.memory.query("agent", plan);
        return {
          output: `Saved the plan as ${saved.memory_id}; memory now holds ${found.items.length} matching plan(s).`,
        };
      }

      await step(1, "recalling earlier plans");
      const earlier = await ctx.tools.memory.query("agent", text);
      await step(2, `filing ${TRAVEL_GUIDES.length} travel guides`);
      for (const guide of TRAVEL_GUIDES) {
        const { job_id } = await ctx.tools.knowledge.ingest(guide, { collection: "guides" });
        await ctx.tools.knowledge.pollUntilComplete(job_id);
      }
      await step(3, "searching the guides");
      const { results } = await ctx.tools.knowledge.search(text, { collection_id: "guides", top_k: 2 });

      await step(4, `asking the model (${results.length} guide(s), ${earlier.items.length} earlier plan(s))`);
      await using llm = new LLMClient({ executionContext: ctx.executionContext });
      const notes = [...results.map((hit) => hit.content), ...earlier.items.map((item) => item.content)];
      const stream = await llm.chat.completions.create(
        {
          model: MODEL,
          messages: [
            { role: "system", content: `Answer from these notes.\n${notes.join("\n")}` },
            { role: "user", content: text },
          ],
          stream: true,
        },
        { signal: ctx.signal },
      );
      let first = true;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta.content;
        if (!delta) continue;
        await ctx.taskUpdater.addArtifact([textPart(delta)], { artifactId: "plan", name: "Plan", append: !first });
        first = false;
      }

      await step(5, "waiting for your approval");
      const question = createHitlMessage(
        "Save this plan to your memory? Answer yes or no.",
        HitlType.PLAN_CONFIRMATION,
        {
          sessionId: ctx.contextId,
        },
      );
      await ctx.taskUpdater.requiresInput(question);
      return { status: "WAITING_USER" };
    },
  );
  return agent;
}
