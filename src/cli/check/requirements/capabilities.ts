/**
 * What the card's capabilities promise, and what their absence requires
 * (spec §3.3.4): push notification configs (§3.1.7–§3.1.10), streaming, and
 * the extended card (§3.1.11).
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { A2AMethodName } from "../../../protocol/index.js";
import { type BindingContext, type BindingRequirement, fail, pass, skip, type Verdict } from "../requirement.js";
import {
  describeError,
  expectError,
  finishedTask,
  isVerdict,
  sendRequest,
  taskRequest,
  unknownId,
  withTenant,
} from "../scenario.js";

const WEBHOOK = "https://push.invalid/novaos-a2a-check";

/** Each push config method, with a request for `taskId`. */
function pushCalls(taskId: string, configId: string): [A2AMethodName, JsonObject][] {
  return [
    ["CreateTaskPushNotificationConfig", { taskId, url: WEBHOOK }],
    ["GetTaskPushNotificationConfig", { taskId, id: configId }],
    ["ListTaskPushNotificationConfigs", { taskId }],
    ["DeleteTaskPushNotificationConfig", { taskId, id: configId }],
  ];
}

/** A push config just created on a finished task, or why there is none (push not declared, no task, Create failed). */
async function createdConfig(ctx: BindingContext): Promise<{ taskId: string; id: string } | Verdict> {
  if (ctx.card.capabilities?.pushNotifications !== true) return skip("the card does not declare push notifications");
  const task = await finishedTask(ctx);
  if (isVerdict(task)) return task;
  const taskId = String(task.id);
  const created = await ctx.wire.call("CreateTaskPushNotificationConfig", withTenant(ctx, { taskId, url: WEBHOOK }));
  if (!created.ok) return fail(`Create failed: ${describeError(created)}`);
  const id = created.json.id;
  if (typeof id !== "string" || id === "") return fail("the created config has no id");
  return { taskId, id };
}

export const CAPABILITY_REQUIREMENTS: readonly BindingRequirement[] = [
  {
    id: "PUSH-NOT-SUPPORTED",
    section: "§3.3.4",
    level: "MUST",
    scope: "binding",
    title: "without capabilities.pushNotifications, every push config method is PushNotificationNotSupportedError",
    async run(ctx) {
      if (ctx.card.capabilities?.pushNotifications === true) return skip("the card declares push notifications");
      const task = await finishedTask(ctx);
      const taskId = isVerdict(task) ? unknownId() : String(task.id);
      for (const [method, request] of pushCalls(taskId, "check-config")) {
        const verdict = expectError(
          ctx,
          await ctx.wire.call(method, withTenant(ctx, request)),
          "PushNotificationNotSupportedError",
          method,
        );
        if (verdict.status === "fail") return verdict;
      }
      return pass();
    },
  },
  {
    id: "PUSH-CONFIG-LIFECYCLE",
    section: "§3.1.7–§3.1.10",
    level: "MUST",
    scope: "binding",
    title: "with push notifications: a config is created with an id, read back, listed, deleted, then gone",
    async run(ctx) {
      const config = await createdConfig(ctx);
      if (isVerdict(config)) return config;
      const { taskId, id } = config;
      const got = await ctx.wire.call("GetTaskPushNotificationConfig", withTenant(ctx, { taskId, id }));
      if (!got.ok || got.json.url !== WEBHOOK) return fail(`Get did not return the config: ${describeError(got)}`);
      const listed = await ctx.wire.call("ListTaskPushNotificationConfigs", withTenant(ctx, { taskId }));
      const configs = listed.ok && Array.isArray(listed.json.configs) ? (listed.json.configs as JsonObject[]) : [];
      if (!configs.some((c) => c.id === id)) return fail(`List does not include config ${id}`);
      const deleted = await ctx.wire.call("DeleteTaskPushNotificationConfig", withTenant(ctx, { taskId, id }));
      if (!deleted.ok) return fail(`Delete failed: ${describeError(deleted)}`);
      const gone = await ctx.wire.call("GetTaskPushNotificationConfig", withTenant(ctx, { taskId, id }));
      return gone.ok ? fail("Get still returns the deleted config") : pass();
    },
  },
  {
    id: "PUSH-DELETE-IDEMPOTENT",
    section: "§3.1.10",
    level: "MUST",
    scope: "binding",
    title: "with push notifications: deleting a config twice has the effect of deleting it once",
    async run(ctx) {
      const config = await createdConfig(ctx);
      if (isVerdict(config)) return config.status === "fail" ? skip(config.reason) : config;
      const request = withTenant(ctx, config);
      await ctx.wire.call("DeleteTaskPushNotificationConfig", request);
      const again = await ctx.wire.call("DeleteTaskPushNotificationConfig", request);
      return again.ok ? pass() : fail(`the second Delete failed: ${describeError(again)}`);
    },
  },
  {
    id: "STREAM-NOT-SUPPORTED",
    section: "§3.3.4",
    level: "MUST",
    scope: "binding",
    title: "without capabilities.streaming, SendStreamingMessage and SubscribeToTask are UnsupportedOperationError",
    async run(ctx) {
      if (ctx.card.capabilities?.streaming === true) return skip("the card declares streaming");
      const options = { timeoutMs: ctx.options.timeoutMs, graceMs: ctx.options.graceMs };
      for (const [method, request] of [
        ["SendStreamingMessage", sendRequest(ctx, ctx.options.quick)],
        ["SubscribeToTask", taskRequest(ctx, unknownId())],
      ] as const) {
        const record = await ctx.wire.stream(method, request, options);
        if (!record.error) return fail(`${method} streamed ${record.frames.length} frame(s)`);
        const verdict = expectError(ctx, { ok: false, error: record.error }, "UnsupportedOperationError", method);
        if (verdict.status === "fail") return verdict;
      }
      return pass();
    },
  },
  {
    id: "EXTENDED-CARD",
    section: "§3.3.4, §3.1.11",
    level: "MUST",
    scope: "binding",
    title:
      "GetExtendedAgentCard: UnsupportedOperationError unless the card declares it; then a card or ExtendedAgentCardNotConfiguredError",
    async run(ctx) {
      const reply = await ctx.wire.call("GetExtendedAgentCard", withTenant(ctx, {}));
      if (ctx.card.capabilities?.extendedAgentCard !== true) {
        return expectError(ctx, reply, "UnsupportedOperationError", "GetExtendedAgentCard (not declared)");
      }
      if (reply.ok) return typeof reply.json.name === "string" ? pass() : fail("the answer is not an agent card");
      const e = reply.error;
      if (e.httpStatus === 401 || e.httpStatus === 403 || e.grpcCode === 16 || e.grpcCode === 7) {
        return skip("the extended card needs credentials: pass --auth");
      }
      const configured = expectError(ctx, reply, "ExtendedAgentCardNotConfiguredError", "GetExtendedAgentCard");
      return configured.status === "pass" ? pass("declared but not configured") : configured;
    },
  },
];
