/**
 * The example agent: three skills that show the three shapes of work.
 *
 * - `echo` answers at once.
 * - `storyteller` streams a story sentence by sentence as one growing
 *   artifact, pausing between sentences; CancelTask stops it mid-story.
 * - `approval` asks before it acts (HITL): it pauses on INPUT_REQUIRED with a
 *   NovaOS plan-confirmation message, and resumes when the caller answers on
 *   the same task id.
 *
 * Callers pick a skill with `message.metadata.skillId`.
 */
import { setTimeout as delay } from "node:timers/promises";
import { createHitlMessage, HitlType, messageText, Role, textPart } from "@novaos/client-sdk";
import { AgentBuilder, type Logger, PushNotificationSender } from "@novaos/client-sdk/server";

export interface ExampleAgentOptions {
  /** Pause between two sentences of a story. Default 150 ms. */
  sentenceDelayMs?: number;
  logger?: Logger;
}

const STORY = [
  "Once upon a time, {topic} lived at the edge of a quiet map.",
  "Every morning it counted the roads that led away, and every evening it stayed.",
  "One day a traveller asked it for directions it had never needed.",
  "So {topic} walked the first road, then the second, and kept a note of each turn.",
  "By winter the notes were a map of their own, and the edge was somewhere else.",
  "And that is how {topic} learned that stories are roads you walk twice.",
];

export function createExampleAgent(options: ExampleAgentOptions = {}): AgentBuilder {
  const sentenceDelayMs = options.sentenceDelayMs ?? 150;
  const agent = new AgentBuilder({
    name: "example-agent",
    version: "1.0.0",
    description: "Echoes, tells stories as a stream, and asks before it books anything.",
    // Webhooks registered with this agent are POSTed every update of their task (private addresses refused).
    pushNotificationDelivery: new PushNotificationSender(options.logger ? { logger: options.logger } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });

  agent.skill("echo", { description: "Repeats what you say", tags: ["demo"] }, async (_ctx, text) => ({
    output: `You said: ${text}`,
  }));

  agent.skill(
    "storyteller",
    { description: "Tells a short story about a topic, one sentence at a time", tags: ["demo", "streaming"] },
    async (ctx, topic) => {
      const subject = topic.trim() || "a lighthouse";
      const sentences = STORY.map((line) => line.replaceAll("{topic}", subject));
      for (const [i, sentence] of sentences.entries()) {
        // Waiting with the skill's signal: CancelTask interrupts the pause.
        if (i > 0) await delay(sentenceDelayMs, undefined, { signal: ctx.signal });
        await ctx.taskUpdater.addArtifact([textPart(`${sentence} `)], {
          artifactId: "story",
          name: `A story about ${subject}`,
          append: i > 0,
          lastChunk: i === sentences.length - 1,
        });
      }
      return { output: "The end.", metadata: { sentences: sentences.length } };
    },
  );

  agent.skill(
    "approval",
    { description: "Books a trip after you confirm it", tags: ["demo", "hitl"] },
    async (ctx, text) => {
      // A follow-up on the paused task carries the earlier turns: the request, the question, the answer.
      const resuming = ctx.task.history.length > 1;
      if (!resuming) {
        const question = createHitlMessage(`Shall I book "${text}"? Answer yes or no.`, HitlType.PLAN_CONFIRMATION, {
          sessionId: ctx.contextId,
        });
        await ctx.taskUpdater.requiresInput(question);
        return { status: "WAITING_USER" };
      }
      const request = ctx.task.history.find((m) => m.role === Role.USER);
      const what = (request && messageText(request)) || "the trip";
      if (/^\s*y(es)?\s*$/i.test(text)) return { output: `Booked: ${what}.`, metadata: { confirmation: "NOVA-42" } };
      return { output: `Not booked: ${what}.`, status: "REJECTED" };
    },
  );

  return agent;
}
