/** SendMessage and multi-turn addressing (spec §3.1.1, §3.2.2, §3.4). */
import type { JsonObject } from "@bufbuild/protobuf";
import { type BindingRequirement, fail, pass, skip } from "../requirement.js";
import {
  describeError,
  expectError,
  finishedTask,
  isInterruptedState,
  isTerminalState,
  isVerdict,
  pausedTask,
  quickReply,
  sendRequest,
  stateOf,
  taskOf,
  taskRequest,
  unknownId,
} from "../scenario.js";
import { isJsonObjectValue } from "../wire.js";

export const MESSAGE_REQUIREMENTS: readonly BindingRequirement[] = [
  {
    id: "SEND-RESULT",
    section: "§3.1.1",
    level: "MUST",
    scope: "binding",
    title: "SendMessage answers with a Task or a Message",
    async run(ctx) {
      const reply = await quickReply(ctx);
      if (!reply.ok) return fail(`SendMessage failed: ${describeError(reply)}`);
      if (isJsonObjectValue(reply.json.task) || isJsonObjectValue(reply.json.message)) return pass();
      return fail(`the answer has neither "task" nor "message": ${JSON.stringify(Object.keys(reply.json))}`);
    },
  },
  {
    id: "SEND-TASK-IDS",
    section: "§3.4.1, §3.4.2",
    level: "MUST",
    scope: "binding",
    title: "a Task answered to SendMessage carries its id and contextId",
    async run(ctx) {
      const task = taskOf(await quickReply(ctx));
      if (!task) return skip("no task answered");
      const missing = ["id", "contextId"].filter((k) => typeof task[k] !== "string" || task[k] === "");
      return missing.length === 0 ? pass() : fail(`the task has no ${missing.join(" or ")}`);
    },
  },
  {
    id: "SEND-BLOCKING",
    section: "§3.2.2",
    level: "MUST",
    scope: "binding",
    title: "without returnImmediately, SendMessage returns once the task is terminal or interrupted",
    async run(ctx) {
      const task = taskOf(await quickReply(ctx));
      if (!task) return skip("no task answered");
      const state = stateOf(task);
      return isTerminalState(state) || isInterruptedState(state) ? pass() : fail(`the task came back ${state}`);
    },
  },
  {
    id: "SEND-RETURN-IMMEDIATELY",
    section: "§3.2.2",
    level: "MUST",
    scope: "binding",
    title: "with returnImmediately, SendMessage returns while the task is still in progress",
    async run(ctx) {
      if (!ctx.options.slow) return skip("no long-running message: pass --slow-text (and --slow-skill)");
      const reply = await ctx.wire.call("SendMessage", sendRequest(ctx, ctx.options.slow, { returnImmediately: true }));
      const task = taskOf(reply);
      if (!task) return fail(reply.ok ? "answered with a message" : `SendMessage failed: ${describeError(reply)}`);
      await ctx.wire.call("CancelTask", taskRequest(ctx, String(task.id)));
      return isTerminalState(stateOf(task)) ? fail(`the task came back ${stateOf(task)}: the call waited`) : pass();
    },
  },
  {
    id: "SEND-UNKNOWN-TASK",
    section: "§3.4.2",
    level: "MUST",
    scope: "binding",
    title: "a message naming a task that does not exist is TaskNotFoundError",
    async run(ctx) {
      const reply = await ctx.wire.call(
        "SendMessage",
        sendRequest(ctx, ctx.options.quick, { message: { taskId: unknownId() } }),
      );
      return expectError(ctx, reply, "TaskNotFoundError", "SendMessage to an unknown task");
    },
  },
  {
    id: "SEND-TERMINAL-TASK",
    section: "§3.1.1",
    level: "MUST",
    scope: "binding",
    title: "a message to a task in a terminal state is UnsupportedOperationError",
    async run(ctx) {
      const task = await finishedTask(ctx);
      if (isVerdict(task)) return task;
      const reply = await ctx.wire.call(
        "SendMessage",
        sendRequest(ctx, ctx.options.quick, {
          message: { taskId: String(task.id), contextId: String(task.contextId) },
        }),
      );
      return expectError(ctx, reply, "UnsupportedOperationError", `SendMessage to a ${stateOf(task)} task`);
    },
  },
  {
    id: "CONTEXT-MISMATCH",
    section: "§3.4.3",
    level: "MUST",
    scope: "binding",
    title: "a message whose contextId differs from its task's is rejected",
    async run(ctx) {
      const task = await pausedTask(ctx);
      if (isVerdict(task)) return task;
      const reply = await ctx.wire.call(
        "SendMessage",
        sendRequest(
          ctx,
          { text: ctx.options.quick.text, skill: ctx.options.input?.skill },
          { message: { taskId: String(task.id), contextId: `other-${unknownId()}` } },
        ),
      );
      return reply.ok ? fail("the agent accepted a contextId that is not the task's") : pass();
    },
  },
  {
    id: "CONTEXT-INFERRED",
    section: "§3.4.3",
    level: "MUST",
    scope: "binding",
    title: "a message naming only its task continues that task in the task's context",
    async run(ctx) {
      const task = await pausedTask(ctx);
      if (isVerdict(task)) return task;
      const answer = { text: ctx.options.quick.text, skill: ctx.options.input?.skill };
      const reply = await ctx.wire.call(
        "SendMessage",
        sendRequest(ctx, answer, { message: { taskId: String(task.id) } }),
      );
      if (!reply.ok) return fail(`continuing the paused task failed: ${describeError(reply)}`);
      const result = (reply.json.task ?? reply.json.message) as JsonObject | undefined;
      return result?.contextId === task.contextId
        ? pass()
        : fail(
            `the answer's contextId is ${JSON.stringify(result?.contextId)}, the task's ${JSON.stringify(task.contextId)}`,
          );
    },
  },
];
