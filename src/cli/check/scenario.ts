/**
 * What the binding requirements share: the requests they send (messages
 * built from the check's options, addressed to the interface's tenant), the
 * tasks they need (a finished one, a running one, one waiting for input), and
 * reading errors and task states off any binding's answer.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import {
  PROTOCOL_BINDING_GRPC,
  PROTOCOL_BINDING_HTTP_JSON,
  PROTOCOL_BINDING_JSONRPC,
  type ProtocolBinding,
  SKILL_ID_METADATA_KEY,
  type TaskState,
  TaskStateSchema,
} from "../../index.js";
import {
  A2A_ERROR_DOMAIN,
  A2A_ERRORS,
  type A2AErrorType,
  errorSpecByCode,
  errorSpecByReason,
  GRPC_STATUS_CODES,
} from "../../protocol/index.js";
import { type BindingContext, fail, type MessageSpec, pass, skip, type Verdict } from "./requirement.js";
import { isJsonObjectValue, type WireError, type WireReply } from "./wire.js";

const TERMINAL = new Set(["TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"]);
const INTERRUPTED = new Set(["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"]);

/** A task's state name from its JSON (a number, wrongly sent, is named too). */
export function stateOf(task: JsonObject | undefined): string | undefined {
  const status = task?.status;
  const state = isJsonObjectValue(status) ? status.state : undefined;
  if (typeof state === "number") return TaskStateSchema.value[state as TaskState]?.name;
  return typeof state === "string" ? state : undefined;
}

export const isTerminalState = (state: string | undefined) => state !== undefined && TERMINAL.has(state);
export const isInterruptedState = (state: string | undefined) => state !== undefined && INTERRUPTED.has(state);

/** The tenant a request to this interface carries (§8.3.2: exactly the interface's, omitted when unset). */
function tenantOf(ctx: BindingContext): JsonObject {
  return ctx.iface.tenant ? { tenant: ctx.iface.tenant } : {};
}

export function messageJson(spec: MessageSpec, extra: JsonObject = {}): JsonObject {
  return {
    messageId: `check-${crypto.randomUUID()}`,
    role: "ROLE_USER",
    parts: [{ text: spec.text }],
    ...(spec.skill ? { metadata: { [SKILL_ID_METADATA_KEY]: spec.skill } } : {}),
    ...extra,
  };
}

export function sendRequest(
  ctx: BindingContext,
  spec: MessageSpec,
  options: { message?: JsonObject; returnImmediately?: boolean } = {},
): JsonObject {
  return {
    ...tenantOf(ctx),
    message: messageJson(spec, options.message),
    ...(options.returnImmediately ? { configuration: { returnImmediately: true } } : {}),
  };
}

/** A request for the task `id` (GetTask, CancelTask, SubscribeToTask). */
export function taskRequest(ctx: BindingContext, id: string, extra: JsonObject = {}): JsonObject {
  return { ...tenantOf(ctx), id, ...extra };
}

export function withTenant(ctx: BindingContext, request: JsonObject): JsonObject {
  return { ...tenantOf(ctx), ...request };
}

/** The Task of a SendMessage answer (`{"task": …}`), if it is one. */
export function taskOf(reply: WireReply): JsonObject | undefined {
  return reply.ok && isJsonObjectValue(reply.json.task) ? reply.json.task : undefined;
}

/** An id no agent has issued. */
export const unknownId = () => `check-unknown-${crypto.randomUUID()}`;

/** SendMessage with the quick message, blocking: shared by every requirement that needs an answer. */
export function quickReply(ctx: BindingContext): Promise<WireReply> {
  return ctx.memo("quick", () => ctx.wire.call("SendMessage", sendRequest(ctx, ctx.options.quick)));
}

/** A task that has finished (the quick message's), or why there is none. */
export async function finishedTask(ctx: BindingContext): Promise<JsonObject | Verdict> {
  const reply = await quickReply(ctx);
  const task = taskOf(reply);
  if (!task) return skip(reply.ok ? "the agent answered with a message, not a task" : "SendMessage failed");
  if (!isTerminalState(stateOf(task))) return skip(`the task is ${stateOf(task)}, not finished`);
  return task;
}

/** A fresh task still working (the slow message, returnImmediately), or why there is none. */
export async function runningTask(ctx: BindingContext): Promise<JsonObject | Verdict> {
  const slow = ctx.options.slow;
  if (!slow) return skip("no long-running message: pass --slow-text (and --slow-skill)");
  const reply = await ctx.wire.call("SendMessage", sendRequest(ctx, slow, { returnImmediately: true }));
  const task = taskOf(reply);
  if (!task)
    return skip(
      reply.ok ? "the slow message was answered with a message" : `SendMessage failed: ${describeError(reply)}`,
    );
  if (isTerminalState(stateOf(task))) return skip(`the slow message's task was already ${stateOf(task)}`);
  return task;
}

/** A task paused on INPUT_REQUIRED (the input message's), or why there is none. */
export async function pausedTask(ctx: BindingContext): Promise<JsonObject | Verdict> {
  const input = ctx.options.input;
  if (!input) return skip("no message that asks for input: pass --input-text (and --input-skill)");
  const reply = await ctx.wire.call("SendMessage", sendRequest(ctx, input));
  const task = taskOf(reply);
  if (!task || stateOf(task) !== "TASK_STATE_INPUT_REQUIRED") {
    return skip(`the input message did not pause on INPUT_REQUIRED (${task ? stateOf(task) : describeError(reply)})`);
  }
  return task;
}

export function isVerdict(value: unknown): value is Verdict {
  return isJsonObjectValue(value) && typeof value.status === "string";
}

/** The A2A error an answer is, by the binding's own identity: the JSON-RPC code, else the ErrorInfo reason, else an unambiguous status. */
export function errorTypeOf(binding: ProtocolBinding, error: WireError): A2AErrorType | undefined {
  if (binding === PROTOCOL_BINDING_JSONRPC) {
    return error.jsonRpcCode === undefined
      ? undefined
      : (errorSpecByCode(error.jsonRpcCode)?.type as A2AErrorType | undefined);
  }
  const byReason = error.reason ? errorSpecByReason(error.reason) : undefined;
  if (byReason) return byReason.type as A2AErrorType;
  if (binding === PROTOCOL_BINDING_HTTP_JSON && error.httpStatus === 404) return "TaskNotFoundError";
  if (binding === PROTOCOL_BINDING_GRPC && error.grpcCode === GRPC_STATUS_CODES.NOT_FOUND) return "TaskNotFoundError";
  return undefined;
}

/** An error answer in words: its code, status and reason, and its message. */
export function describeError(reply: WireReply | { ok: false; error: WireError }): string {
  if (reply.ok) return "success";
  const e = reply.error;
  const codes = [
    e.jsonRpcCode !== undefined ? `JSON-RPC ${e.jsonRpcCode}` : undefined,
    e.grpcCode !== undefined ? `gRPC ${e.grpcCode}` : e.httpStatus !== undefined ? `HTTP ${e.httpStatus}` : undefined,
    e.statusName,
    e.reason,
  ].filter(Boolean);
  return `${codes.join(" ")}${codes.length ? ": " : ""}${e.message}`.slice(0, 200);
}

/** Pass when `reply` is the A2A error `type` (by the binding's identity of errors). */
export function expectError(ctx: BindingContext, reply: WireReply, type: A2AErrorType, what: string): Verdict {
  if (reply.ok) return fail(`${what} succeeded; ${type} is due`);
  const got = errorTypeOf(ctx.binding, reply.error);
  if (got === type) return pass();
  return fail(`${what} answered ${describeError(reply)}; ${type} (${A2A_ERRORS[type].jsonRpcCode}) is due`);
}

/** How `error` differs from the §5.4 row of `type` on this binding (code, status, ErrorInfo reason and domain). */
export function mappingProblems(binding: ProtocolBinding, error: WireError, type: A2AErrorType): string[] {
  const spec = A2A_ERRORS[type];
  const problems: string[] = [];
  if (binding === PROTOCOL_BINDING_JSONRPC) {
    if (error.jsonRpcCode !== spec.jsonRpcCode) problems.push(`code ${error.jsonRpcCode}, not ${spec.jsonRpcCode}`);
    return problems;
  }
  if (binding === PROTOCOL_BINDING_HTTP_JSON) {
    if (error.httpStatus !== spec.httpStatus) problems.push(`HTTP ${error.httpStatus}, not ${spec.httpStatus}`);
  } else if (error.grpcCode !== GRPC_STATUS_CODES[spec.grpcStatus]) {
    problems.push(`gRPC status ${error.grpcCode}, not ${GRPC_STATUS_CODES[spec.grpcStatus]} (${spec.grpcStatus})`);
  }
  if (error.reason !== spec.reason) problems.push(`ErrorInfo reason ${error.reason ?? "(none)"}, not ${spec.reason}`);
  if (error.reason && error.domain !== A2A_ERROR_DOMAIN)
    problems.push(`ErrorInfo domain ${error.domain}, not ${A2A_ERROR_DOMAIN}`);
  return problems;
}
