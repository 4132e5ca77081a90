/**
 * The PushNotificationSender's delivery rules, against a real webhook on
 * loopback: retries with backoff on the sender's clock (what may succeed
 * later), a final answer is final, the SSRF guard refuses a private address
 * unless the policy allows it, a task never waits for its webhooks, and the
 * queue is bounded without losing the terminal update.
 */
import { afterEach, describe, expect, it } from "vitest";
import { textPart } from "../../src/a2a/parts.js";
import { createLogger, type Logger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import {
  PushNotificationSender,
  type PushNotificationSenderOptions,
} from "../../src/server/push/push-notification-sender.js";
import { ManualClock } from "../runtime/manual-clock.js";
import { deferred, type RunningServer, result, serveAgent, userMessage } from "./support/agent-server.js";
import { describeFrame, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

const silent = createLogger({ level: "silent" });

let running: RunningServer | undefined;
let webhook: WebhookReceiver | undefined;
let sender: PushNotificationSender | undefined;
afterEach(async () => {
  await running?.close();
  await sender?.close();
  await webhook?.close();
  running = webhook = sender = undefined;
});

/** Warnings the sender logged, as their messages. */
function recordingLogger(): { logger: Logger; warnings: string[]; fields: unknown[] } {
  const warnings: string[] = [];
  const fields: unknown[] = [];
  const logger = {
    ...silent,
    warn: (obj: unknown, msg?: string) => {
      fields.push(obj);
      warnings.push(String(msg ?? obj));
    },
  } as Logger;
  return { logger, warnings, fields };
}

/** An agent whose skill answers `done`, after `gate` when one is given, adding `artifacts` first. */
async function serve(options: PushNotificationSenderOptions, gate?: Promise<void>, artifacts: string[] = []) {
  webhook = await startWebhookReceiver();
  sender = new PushNotificationSender(options);
  const agent = new AgentBuilder({ name: "sender", logger: silent, pushNotificationDelivery: sender });
  agent.skill("work", async (ctx) => {
    await gate;
    for (const text of artifacts) await ctx.taskUpdater.addArtifact([textPart(text)]);
    return { output: "done" };
  });
  running = await serveAgent(agent);
  const send = () =>
    result((running as RunningServer).url, "SendMessage", {
      message: userMessage("go"),
      configuration: { taskPushNotificationConfig: { url: (webhook as WebhookReceiver).url } },
    });
  return { webhook, sender, send };
}

async function framesToTheEnd(receiver: WebhookReceiver): Promise<string[]> {
  const frames: string[] = [];
  for (;;) {
    const frame = describeFrame((await receiver.nextDelivery()).body);
    frames.push(frame);
    if (frame === "status TASK_STATE_COMPLETED") return frames;
  }
}

const ALL = ["status TASK_STATE_WORKING", "artifact done", "status TASK_STATE_COMPLETED"];

describe("PushNotificationSender", () => {
  it("retries a webhook that answers 503, after a backoff on its clock, and then delivers the rest in order", async () => {
    const clock = new ManualClock();
    const { webhook, send } = await serve({
      urlPolicy: { allowPrivateIps: true },
      clock,
      random: () => 0,
      logger: silent,
    });
    webhook.statuses.push(503);
    await send();
    // First try 503; the backoff before the first retry is the base delay, jittered down by half at most.
    expect(await clock.nextSleep()).toBe(500);
    clock.advance(500);
    expect(await framesToTheEnd(webhook)).toEqual(["status TASK_STATE_WORKING", ...ALL]);
  });

  it("does not retry a final answer (400): the update is logged as not delivered and the next ones go on", async () => {
    const clock = new ManualClock();
    const { logger, warnings } = recordingLogger();
    const { webhook, send, sender } = await serve({ urlPolicy: { allowPrivateIps: true }, clock, logger });
    webhook.statuses.push(400);
    await send();
    expect(await framesToTheEnd(webhook)).toEqual(ALL);
    await sender.whenIdle();
    expect(clock.requested).toEqual([]);
    expect(warnings).toEqual(["push notification not delivered: HTTP 400"]);
  });

  it("refuses a loopback webhook under the default policy: nothing reaches it, and a warning says why", async () => {
    const { logger, warnings, fields } = recordingLogger();
    const { webhook, send, sender } = await serve({ logger });
    await send();
    await sender.whenIdle();
    expect(webhook.deliveries).toEqual([]);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatch(/^push notification refused: /);
    expect(fields[0]).toMatchObject({ reason: "blocked-address" });
  });

  it("never makes the task wait: SendMessage completes while the webhook holds every answer", async () => {
    const { webhook, send } = await serve({ urlPolicy: { allowPrivateIps: true }, logger: silent });
    const release = webhook.hold();
    const { task } = await send();
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    release();
    expect(await framesToTheEnd(webhook)).toEqual(ALL);
  });

  it("beyond maxQueued drops intermediate updates, never the terminal one, and logs how many it dropped", async () => {
    const { logger, warnings, fields } = recordingLogger();
    const gate = deferred();
    const { webhook, send, sender } = await serve(
      { urlPolicy: { allowPrivateIps: true }, logger, maxQueued: 1, concurrency: 1 },
      gate.promise,
      ["a1", "a2"],
    );
    const release = webhook.hold();
    const reply = send();
    // WORKING is being delivered (held): nothing waits in the queue now.
    expect(describeFrame((await webhook.nextDelivery()).body)).toBe("status TASK_STATE_WORKING");
    gate.resolve();
    // a1 fills the queue; a2 and the reply's artifact are dropped; COMPLETED is kept.
    expect((await reply).task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(sender.queued).toBe(2);
    release();
    expect(await framesToTheEnd(webhook)).toEqual(["artifact a1", "status TASK_STATE_COMPLETED"]);
    await sender.whenIdle();
    expect(warnings).toEqual(["push notification queue full: updates were not delivered"]);
    expect(fields[0]).toMatchObject({ dropped: 2 });
  });
});
