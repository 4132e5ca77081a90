/**
 * Streams (spec §3.1.2, §3.1.6, §9.4.2, §11.7): how they start, what they
 * carry, and that they close at the terminal or interrupted state.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { PROTOCOL_BINDING_HTTP_JSON, PROTOCOL_BINDING_JSONRPC } from "../../../index.js";
import { type BindingContext, type BindingRequirement, fail, pass, skip, type Verdict } from "../requirement.js";
import {
  describeError,
  expectError,
  finishedTask,
  isVerdict,
  runningTask,
  sendRequest,
  stateOf,
  taskRequest,
} from "../scenario.js";
import { isJsonObjectValue, isLastFrameJson, type StreamRecord } from "../wire.js";

/** The quick message as a stream, once per binding. */
function quickStream(ctx: BindingContext): Promise<StreamRecord> {
  return ctx.memo("quick-stream", () =>
    ctx.wire.stream("SendStreamingMessage", sendRequest(ctx, ctx.options.quick), {
      timeoutMs: ctx.options.timeoutMs,
      graceMs: ctx.options.graceMs,
    }),
  );
}

/** A subscription to a running task, canceled once its first frame is in. */
function canceledSubscription(ctx: BindingContext): Promise<StreamRecord | Verdict> {
  return ctx.memo("subscription", async () => {
    const task = await runningTask(ctx);
    if (isVerdict(task)) return task;
    return ctx.wire.stream("SubscribeToTask", taskRequest(ctx, String(task.id)), {
      timeoutMs: ctx.options.timeoutMs,
      graceMs: ctx.options.graceMs,
      onFrame: async (_frame, index) => {
        if (index === 0) await ctx.wire.call("CancelTask", taskRequest(ctx, String(task.id)));
      },
    });
  });
}

const kindOf = (frame: JsonObject) =>
  ["task", "message", "statusUpdate", "artifactUpdate"].find((k) => isJsonObjectValue(frame[k])) ?? "(none)";

function streamingDeclared(ctx: BindingContext): Verdict | undefined {
  return ctx.card.capabilities?.streaming === true ? undefined : skip("the card does not declare streaming");
}

function streamFailed(record: StreamRecord): Verdict | undefined {
  if (record.error && record.frames.length === 0)
    return fail(`the stream failed: ${describeError({ ok: false, error: record.error })}`);
  if (record.end === "timeout" && record.frames.length === 0) return fail("no frame arrived before the timeout");
  return undefined;
}

/**
 * Judges a stream the card declares: skipped without the streaming
 * capability, failed when it produced nothing, else `judge` decides.
 */
async function judgeStream(
  ctx: BindingContext,
  get: (ctx: BindingContext) => Promise<StreamRecord | Verdict>,
  judge: (record: StreamRecord) => Verdict,
): Promise<Verdict> {
  const declared = streamingDeclared(ctx);
  if (declared) return declared;
  const record = await get(ctx);
  if (isVerdict(record)) return record;
  return streamFailed(record) ?? judge(record);
}

/** Where a stream ends as it must: the agent closed it right after the last frame, with nothing after. */
function closesAtLast(record: StreamRecord, graceMs: number): Verdict {
  const last = record.frames.findIndex(isLastFrameJson);
  if (last < 0) {
    if (record.end === "error") return fail(`the stream failed before a terminal state: ${record.error?.message}`);
    if (record.end === "timeout") return fail("no terminal or interrupted state before the timeout");
    return fail("the stream closed before a terminal or interrupted state");
  }
  if (record.afterLast > 0) return fail(`${record.afterLast} frame(s) after the terminal or interrupted state`);
  if (record.end === "open-after-last") return fail(`still open ${graceMs} ms after the terminal or interrupted state`);
  return pass();
}

export const STREAMING_REQUIREMENTS: readonly BindingRequirement[] = [
  {
    id: "STREAM-HTTP",
    section: "§9.4.2, §11.7",
    level: "MUST",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_JSONRPC, PROTOCOL_BINDING_HTTP_JSON],
    title: "a stream is answered HTTP 200 with Content-Type text/event-stream",
    async run(ctx) {
      const declared = streamingDeclared(ctx);
      if (declared) return declared;
      const record = await quickStream(ctx);
      const type = (record.contentType ?? "").toLowerCase();
      if (record.httpStatus === 200 && type.startsWith("text/event-stream")) return pass();
      return fail(`HTTP ${record.httpStatus} ${record.contentType || "(no content type)"}`);
    },
  },
  {
    id: "STREAM-FIRST-FRAME",
    section: "§3.1.2",
    level: "MUST",
    scope: "binding",
    title: "SendStreamingMessage starts with a Task or a Message",
    async run(ctx) {
      return judgeStream(ctx, quickStream, (record) => {
        const first = kindOf(record.frames[0] as JsonObject);
        return first === "task" || first === "message" ? pass() : fail(`the first frame is ${first}`);
      });
    },
  },
  {
    id: "STREAM-SHAPE",
    section: "§3.1.2",
    level: "MUST",
    scope: "binding",
    title: "a message-only stream is one Message; a task stream carries only that task's status and artifact updates",
    async run(ctx) {
      return judgeStream(ctx, quickStream, (record) => {
        const [first, ...rest] = record.frames as [JsonObject, ...JsonObject[]];
        if (kindOf(first) === "message")
          return rest.length === 0 ? pass() : fail(`${rest.length} frame(s) after the Message`);
        const taskId = (first.task as JsonObject | undefined)?.id;
        for (const [i, frame] of rest.entries()) {
          const kind = kindOf(frame);
          if (kind !== "statusUpdate" && kind !== "artifactUpdate" && kind !== "task")
            return fail(`frame ${i + 1} is a ${kind}`);
          const about = kind === "task" ? (frame.task as JsonObject).id : (frame[kind] as JsonObject).taskId;
          if (about !== taskId)
            return fail(`frame ${i + 1} is about task ${JSON.stringify(about)}, not ${JSON.stringify(taskId)}`);
        }
        return pass();
      });
    },
  },
  {
    id: "STREAM-CLOSES",
    section: "§3.1.2, §11.7",
    level: "MUST",
    scope: "binding",
    title: "SendStreamingMessage closes at the terminal or interrupted state, with nothing after it",
    async run(ctx) {
      return judgeStream(ctx, quickStream, (record) => closesAtLast(record, ctx.options.graceMs));
    },
  },
  {
    id: "STREAM-JSONRPC-ENVELOPE",
    section: "§9.4.2",
    level: "MUST",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_JSONRPC],
    title: "each stream event is a JSON-RPC 2.0 response with the request's id and a result",
    async run(ctx) {
      return judgeStream(ctx, quickStream, (record) =>
        record.problems.length === 0 ? pass() : fail(record.problems.join("; ")),
      );
    },
  },
  {
    id: "SUBSCRIBE-FIRST-TASK",
    section: "§3.1.6",
    level: "MUST",
    scope: "binding",
    title: "SubscribeToTask starts with the Task as it is now",
    async run(ctx) {
      return judgeStream(ctx, canceledSubscription, (record) => {
        const first = kindOf(record.frames[0] as JsonObject);
        return first === "task" ? pass() : fail(`the first frame is ${first}`);
      });
    },
  },
  {
    id: "SUBSCRIBE-CLOSES",
    section: "§3.1.6",
    level: "MUST",
    scope: "binding",
    title: "a subscription ends when the task reaches a terminal state (here: canceled), with nothing after it",
    async run(ctx) {
      return judgeStream(ctx, canceledSubscription, (record) => {
        const verdict = closesAtLast(record, ctx.options.graceMs);
        if (verdict.status !== "pass") return verdict;
        const last = record.frames.at(-1) as JsonObject;
        const state = stateOf((last.task ?? last.statusUpdate) as JsonObject | undefined);
        return state === "TASK_STATE_CANCELED" ? pass() : skip(`the task ended ${state} before the cancel took effect`);
      });
    },
  },
  {
    id: "SUBSCRIBE-TERMINAL",
    section: "§3.1.6, §9.4.6",
    level: "MUST",
    scope: "binding",
    title: "SubscribeToTask of a finished task is UnsupportedOperationError",
    async run(ctx) {
      const declared = streamingDeclared(ctx);
      if (declared) return declared;
      const task = await finishedTask(ctx);
      if (isVerdict(task)) return task;
      const record = await ctx.memo("subscribe-finished", () =>
        ctx.wire.stream("SubscribeToTask", taskRequest(ctx, String(task.id)), {
          timeoutMs: ctx.options.timeoutMs,
          graceMs: ctx.options.graceMs,
        }),
      );
      if (!record.error) return fail(`the subscription streamed ${record.frames.length} frame(s)`);
      return expectError(
        ctx,
        { ok: false, error: record.error },
        "UnsupportedOperationError",
        "SubscribeToTask of a finished task",
      );
    },
  },
];
