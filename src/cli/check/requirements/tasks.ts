/** GetTask, ListTasks and CancelTask (spec §3.1.3–§3.1.5, §3.2.4). */
import type { JsonObject } from "@bufbuild/protobuf";
import { type BindingContext, type BindingRequirement, fail, pass, skip } from "../requirement.js";
import {
  describeError,
  expectError,
  finishedTask,
  isVerdict,
  quickReply,
  runningTask,
  stateOf,
  taskOf,
  taskRequest,
  unknownId,
  withTenant,
} from "../scenario.js";
import { isJsonObjectValue } from "../wire.js";

/** GetTask for an id nobody issued: read by TASK-NOT-FOUND and the error-mapping requirements. */
export function unknownTaskReply(ctx: BindingContext) {
  return ctx.memo("get-unknown", () => ctx.wire.call("GetTask", taskRequest(ctx, unknownId())));
}

/** CancelTask of a finished task, or why there is none. */
export function cancelFinishedReply(ctx: BindingContext) {
  return ctx.memo("cancel-finished", async () => {
    const task = await finishedTask(ctx);
    return isVerdict(task)
      ? task
      : { task, reply: await ctx.wire.call("CancelTask", taskRequest(ctx, String(task.id))) };
  });
}

function timestampOf(task: JsonObject): number | undefined {
  const status = task.status;
  const at =
    isJsonObjectValue(status) && typeof status.timestamp === "string" ? Date.parse(status.timestamp) : Number.NaN;
  return Number.isNaN(at) ? undefined : at;
}

function listTasks(ctx: BindingContext) {
  return ctx.memo("list", () => ctx.wire.call("ListTasks", withTenant(ctx, {})));
}

export const TASK_REQUIREMENTS: readonly BindingRequirement[] = [
  {
    id: "TASK-NOT-FOUND",
    section: "§3.1.3, §3.3.2",
    level: "MUST",
    scope: "binding",
    title: "GetTask of an unknown id is TaskNotFoundError",
    async run(ctx) {
      return expectError(ctx, await unknownTaskReply(ctx), "TaskNotFoundError", "GetTask of an unknown id");
    },
  },
  {
    id: "GET-TASK",
    section: "§3.1.3",
    level: "MUST",
    scope: "binding",
    title: "GetTask returns the task SendMessage created",
    async run(ctx) {
      const task = taskOf(await quickReply(ctx));
      if (!task) return skip("no task answered");
      const reply = await ctx.wire.call("GetTask", taskRequest(ctx, String(task.id)));
      if (!reply.ok) return fail(`GetTask failed: ${describeError(reply)}`);
      if (reply.json.id !== task.id) return fail(`GetTask returned task ${JSON.stringify(reply.json.id)}`);
      return reply.json.contextId === task.contextId ? pass() : fail("GetTask returned another contextId");
    },
  },
  {
    id: "GET-TASK-HISTORY-0",
    section: "§3.2.4",
    level: "SHOULD",
    scope: "binding",
    title: "GetTask with historyLength 0 returns no history",
    async run(ctx) {
      const task = taskOf(await quickReply(ctx));
      if (!task) return skip("no task answered");
      const reply = await ctx.wire.call("GetTask", taskRequest(ctx, String(task.id), { historyLength: 0 }));
      if (!reply.ok) return fail(`GetTask failed: ${describeError(reply)}`);
      const history = reply.json.history;
      return Array.isArray(history) && history.length > 0
        ? fail(`${history.length} history message(s) returned`)
        : pass();
    },
  },
  {
    id: "LIST-TASKS",
    section: "§3.1.4",
    level: "MUST",
    scope: "binding",
    title: "ListTasks answers with tasks and a nextPageToken that is always present",
    async run(ctx) {
      const reply = await listTasks(ctx);
      if (!reply.ok) return fail(`ListTasks failed: ${describeError(reply)}`);
      if (reply.json.tasks !== undefined && !Array.isArray(reply.json.tasks)) return fail('"tasks" is not a list');
      return typeof reply.json.nextPageToken === "string" ? pass() : fail('"nextPageToken" is missing');
    },
  },
  {
    id: "LIST-TASKS-NO-ARTIFACTS",
    section: "§3.1.4",
    level: "MUST",
    scope: "binding",
    title: "without includeArtifacts, listed tasks carry no artifacts field",
    async run(ctx) {
      await quickReply(ctx);
      const reply = await listTasks(ctx);
      if (!reply.ok) return skip("ListTasks failed");
      const tasks = (reply.json.tasks ?? []) as JsonObject[];
      if (tasks.length === 0) return skip("no tasks listed");
      // Protobuf cannot tell an empty list from an absent one: on gRPC only a non-empty list counts.
      const carries = (t: JsonObject) =>
        ctx.binding === "GRPC" ? Array.isArray(t.artifacts) && t.artifacts.length > 0 : t.artifacts !== undefined;
      const withArtifacts = tasks.filter(carries);
      return withArtifacts.length === 0
        ? pass()
        : fail(`${withArtifacts.length} of ${tasks.length} tasks carry "artifacts"`);
    },
  },
  {
    id: "LIST-TASKS-ORDER",
    section: "§3.1.4",
    level: "MUST",
    scope: "binding",
    title: "ListTasks sorts tasks by status timestamp, most recent first",
    async run(ctx) {
      await quickReply(ctx);
      const reply = await listTasks(ctx);
      if (!reply.ok) return skip("ListTasks failed");
      const times = ((reply.json.tasks ?? []) as JsonObject[]).map(timestampOf);
      if (times.length < 2 || times.some((t) => t === undefined))
        return skip("fewer than two tasks with status timestamps");
      const bad = times.findIndex((t, i) => i > 0 && (t as number) > (times[i - 1] as number));
      return bad < 0 ? pass() : fail(`task ${bad} is more recent than task ${bad - 1}`);
    },
  },
  {
    id: "CANCEL-TASK",
    section: "§3.1.5",
    level: "MUST",
    scope: "binding",
    title: "CancelTask of a working task returns the task, canceled",
    async run(ctx) {
      const task = await runningTask(ctx);
      if (isVerdict(task)) return task;
      const reply = await ctx.wire.call("CancelTask", taskRequest(ctx, String(task.id)));
      if (!reply.ok) {
        if (reply.error.reason === "TASK_NOT_CANCELABLE" || reply.error.jsonRpcCode === -32002) {
          return skip("the task finished before it could be canceled");
        }
        return fail(`CancelTask failed: ${describeError(reply)}`);
      }
      if (reply.json.id !== task.id) return fail(`CancelTask returned task ${JSON.stringify(reply.json.id)}`);
      const state = stateOf(reply.json);
      return state === "TASK_STATE_CANCELED" ? pass() : fail(`the task came back ${state}`);
    },
  },
  {
    id: "CANCEL-TERMINAL",
    section: "§3.1.5",
    level: "MUST",
    scope: "binding",
    title: "CancelTask of a finished task is TaskNotCancelableError",
    async run(ctx) {
      const outcome = await cancelFinishedReply(ctx);
      if (isVerdict(outcome)) return outcome;
      return expectError(ctx, outcome.reply, "TaskNotCancelableError", `CancelTask of a ${stateOf(outcome.task)} task`);
    },
  },
];
