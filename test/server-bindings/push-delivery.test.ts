/**
 * Push notifications are delivered when they are advertised: an agent with a
 * `PushNotificationSender` POSTs every update of a task to the webhooks
 * registered for it, whichever binding registered them (inline in
 * SendMessage, or with CreateTaskPushNotificationConfig), with the config's
 * authentication and token, in order, up to the terminal state; and a
 * config read back never shows its credentials (spec §13.2). Per binding,
 * over real sockets; the webhook is a real HTTP server on loopback, which
 * the sender's policy allows here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { PushNotificationSender } from "../../src/server/push/push-notification-sender.js";
import { describeFrame, startWebhookReceiver, type WebhookReceiver } from "../server/support/webhook-receiver.js";
import { type BindingDriver, grpcDriver, httpJsonDriver, jsonRpcDriver } from "./support/binding-drivers.js";

let agent: AgentBuilder;
let server: AgentServer;
let webhook: WebhookReceiver;
let sender: PushNotificationSender;
beforeAll(async () => {
  webhook = await startWebhookReceiver();
  sender = new PushNotificationSender({
    urlPolicy: { allowPrivateIps: true },
    logger: createLogger({ level: "silent" }),
  });
  agent = new AgentBuilder({
    name: "pushing",
    logger: createLogger({ level: "silent" }),
    pushNotificationDelivery: sender,
  });
  agent.skill("paint", async (ctx, text) => {
    if (text === "question") return { output: "Which colour?", status: "WAITING_USER" };
    await ctx.taskUpdater.startWork(`painting it ${text}`);
    return { output: `painted ${text}` };
  });
  server = await listen(agent, { port: 0, grpcPort: 0 });
});
afterAll(async () => {
  await server.close();
  await sender.close();
  await webhook.close();
});

const DRIVERS: Record<string, () => BindingDriver> = {
  JSONRPC: () => jsonRpcDriver(server.url),
  "HTTP+JSON": () => httpJsonDriver(server.url),
  GRPC: () => grpcDriver(server.grpcTarget as string),
};

// biome-ignore lint/suspicious/noExplicitAny: wire JSON is inspected freely.
type Json = any;

let unique = 0;
const message = (text: string, taskId?: string) => ({
  messageId: `push-${++unique}`,
  role: "ROLE_USER",
  parts: [{ text }],
  ...(taskId ? { taskId } : {}),
});

/** The deliveries up to and including the first terminal status update. */
async function deliveriesToTheEnd(): Promise<{ frames: string[]; headers: Json[]; taskIds: string[] }> {
  const out = { frames: [] as string[], headers: [] as Json[], taskIds: [] as string[] };
  for (;;) {
    const delivery = await webhook.nextDelivery();
    const frame = describeFrame(delivery.body);
    out.frames.push(frame);
    out.headers.push(delivery.headers);
    out.taskIds.push(delivery.body.statusUpdate?.taskId ?? delivery.body.artifactUpdate?.taskId);
    if (frame === "status TASK_STATE_COMPLETED") return out;
  }
}

it("advertises push notifications in the served card", async () => {
  const card = (await (await fetch(new URL("/.well-known/agent-card.json", server.url))).json()) as Json;
  expect(card.capabilities.pushNotifications).toBe(true);
});

describe.each(Object.keys(DRIVERS))("push notifications over %s", (name) => {
  let driver: BindingDriver;
  beforeAll(() => {
    driver = (DRIVERS[name] as () => BindingDriver)();
  });
  afterAll(() => driver.close());

  it("POSTs every update of a task registered inline in SendMessage, with its authentication and token, up to COMPLETED", async () => {
    const { task } = (await driver.call("SendMessage", {
      message: message("blue"),
      configuration: {
        taskPushNotificationConfig: {
          url: webhook.url,
          token: "inline-token",
          authentication: { scheme: "Bearer", credentials: "s3cret" },
        },
      },
    })) as Json;
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    const { frames, headers, taskIds } = await deliveriesToTheEnd();
    expect(frames).toEqual([
      "status TASK_STATE_WORKING",
      "status TASK_STATE_WORKING",
      "artifact painted blue",
      "status TASK_STATE_COMPLETED",
    ]);
    expect(new Set(taskIds)).toEqual(new Set([task.id]));
    for (const h of headers) {
      expect(h["content-type"]).toBe("application/a2a+json");
      expect(h.authorization).toBe("Bearer s3cret");
      expect(h["x-a2a-notification-token"]).toBe("inline-token");
    }
  });

  it("POSTs a paused task's resumed run to a config created later, which never shows its credentials", async () => {
    const { task } = (await driver.call("SendMessage", { message: message("question") })) as Json;
    expect(task.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    const created = (await driver.call("CreateTaskPushNotificationConfig", {
      taskId: task.id,
      url: webhook.url,
      authentication: { scheme: "Basic", credentials: "dXNlcjpwdw==" },
    })) as Json;
    expect(created.authentication.scheme).toBe("Basic");
    expect(created.authentication.credentials ?? "").toBe("");
    const read = (await driver.call("GetTaskPushNotificationConfig", { taskId: task.id, id: created.id })) as Json;
    expect(read.authentication.credentials ?? "").toBe("");
    const listed = (await driver.call("ListTaskPushNotificationConfigs", { taskId: task.id })) as Json;
    expect(listed.configs.map((c: Json) => c.authentication.credentials ?? "")).toEqual([""]);

    await driver.call("SendMessage", { message: message("green", task.id) });
    const { frames, headers } = await deliveriesToTheEnd();
    expect(frames).toEqual([
      "status TASK_STATE_WORKING",
      "status TASK_STATE_WORKING",
      "artifact painted green",
      "status TASK_STATE_COMPLETED",
    ]);
    for (const h of headers) expect(h.authorization).toBe("Basic dXNlcjpwdw==");
  });
});
