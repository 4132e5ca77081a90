/**
 * The scenarios every binding must pass alike (send, stream, get, list,
 * cancel, subscribe and reattach, push configs, extended card, tenant, and
 * the errors), each a function of a binding driver, with the agent they run
 * against. The equivalence suite runs them over our three bindings; the
 * interop suite runs them through @a2a-js/sdk's REST and gRPC clients.
 */
import { create, type JsonObject } from "@bufbuild/protobuf";
import { expect } from "vitest";
import { AgentCardSchema, PartSchema } from "../../../gen/a2a_pb.js";
import { A2AExtension } from "../../../src/a2a/extensions.js";
import { createLogger } from "../../../src/runtime/logger.js";
import { AgentBuilder, type AgentBuilderOptions } from "../../../src/server/agent-builder.js";
import { InMemoryPushNotificationConfigStore } from "../../../src/server/push-config-store.js";
import { type BindingDriver, V1, WireError } from "./binding-drivers.js";

const logger = createLogger({ level: "silent" });
export const REQUIRED_EXTENSION = "urn:example:required-extension";

/** Tasks of the `hold` skill wait here until the test releases them. */
const held = new Map<string, () => void>();
const holdWaiters = new Map<string, () => void>();

function whenHeld(taskId: string): Promise<void> {
  if (held.has(taskId)) return Promise.resolve();
  return new Promise((resolve) => holdWaiters.set(taskId, resolve));
}

function release(taskId: string): void {
  held.get(taskId)?.();
  held.delete(taskId);
}

export function buildAgent(options: Partial<AgentBuilderOptions> = {}): AgentBuilder {
  const agent = new AgentBuilder({
    name: "equivalent",
    logger,
    pushNotificationStore: new InMemoryPushNotificationConfigStore(),
    pushNotificationDelivery: "platform",
    extendedAgentCard: create(AgentCardSchema, { name: "equivalent (extended)", version: "1.0.0" }),
    ...options,
  });
  agent.skill("echo", (_ctx, text) => ({ output: `echo: ${text}` }));
  agent.skill("chunks", async (ctx) => {
    for (let i = 0; i < 3; i++) {
      await ctx.taskUpdater.addArtifact([create(PartSchema, { content: { case: "text", value: `chunk ${i}` } })], {
        artifactId: "out",
        append: i > 0,
      });
    }
    return { output: "done" };
  });
  agent.skill("ask", (_ctx, text) =>
    text === "question" ? { output: "Which one?", status: "WAITING_USER" } : { output: `answered: ${text}` },
  );
  agent.skill("quick", { directReplies: true }, async (ctx, text) => {
    if (text !== "long") return { output: `quick: ${text}`, replyAs: "message" };
    await ctx.taskUpdater.addArtifact([create(PartSchema, { content: { case: "text", value: "working" } })], {
      artifactId: "notes",
    });
    return { output: "a task after all", replyAs: "message" };
  });
  agent.skill("background", (_ctx, text) =>
    text === "start" ? { output: "started", status: "RUNNING" } : { output: `finished: ${text}` },
  );
  agent.skill("hold", async (ctx) => {
    await new Promise<void>((resolve, reject) => {
      held.set(ctx.taskId, resolve);
      holdWaiters.get(ctx.taskId)?.();
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
    });
    return { output: "released" };
  });
  return agent;
}

let unique = 0;
function message(text: string, skill: string, extra: JsonObject = {}): JsonObject {
  return {
    messageId: `m-${++unique}`,
    role: "ROLE_USER",
    parts: [{ text }],
    metadata: { skillId: skill },
    ...extra,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: wire JSON is inspected freely.
type Json = any;

function texts(holder: Json): string[] {
  return (holder?.parts ?? []).flatMap((p: Json) => (typeof p.text === "string" ? [p.text] : []));
}

/** What a task says, without its ids and timestamps. */
function taskShape(task: Json) {
  return {
    state: task.status?.state,
    statusText: texts(task.status?.message),
    artifacts: (task.artifacts ?? []).map((a: Json) => ({ name: a.name ?? "", texts: texts(a) })),
    history: (task.history ?? []).length,
  };
}

/** What a stream frame says, without ids and timestamps. */
function frameShape(frame: Json): string {
  if (frame.task) return `task ${frame.task.status.state}`;
  if (frame.statusUpdate) return `status ${frame.statusUpdate.status.state}`;
  if (frame.artifactUpdate) {
    const u = frame.artifactUpdate;
    // The skill's result artifact has a fresh id each time; it is named "output".
    const label = u.artifact.name || u.artifact.artifactId;
    return `artifact ${label} ${texts(u.artifact).join("|")}${u.append ? " (append)" : ""}`;
  }
  return `message ${texts(frame.message).join("|")}`;
}

async function reasonOf(outcome: Promise<unknown>): Promise<string> {
  try {
    await outcome;
  } catch (error) {
    if (error instanceof WireError) return error.reason;
    throw error;
  }
  return "(succeeded)";
}

async function collect(frames: AsyncIterable<JsonObject>): Promise<string[]> {
  const out: string[] = [];
  for await (const frame of frames) out.push(frameShape(frame));
  return out;
}

/** Starts a `hold` task without waiting for it, and waits until its skill runs. */
async function startHeld(d: BindingDriver, extra: JsonObject = {}): Promise<string> {
  const { task } = (await d.call("SendMessage", {
    message: message("wait", "hold"),
    configuration: { returnImmediately: true },
    ...extra,
  })) as Json;
  await whenHeld(task.id);
  return task.id;
}

export interface Scenario {
  readonly name: string;
  /** Runs on one binding; the outcome must be the same on all three. */
  run(d: BindingDriver): Promise<unknown>;
  /** What the outcome must be (or contain). */
  readonly expected: unknown;
}

export const SCENARIOS: Scenario[] = [
  {
    name: "SendMessage runs a skill to completion and returns the task",
    run: async (d) => taskShape(((await d.call("SendMessage", { message: message("hello", "echo") })) as Json).task),
    expected: { state: "TASK_STATE_COMPLETED", artifacts: [{ name: "output", texts: ["echo: hello"] }] },
  },
  {
    name: "SendStreamingMessage streams the task from its first frame to its terminal frame",
    run: (d) => collect(d.stream("SendStreamingMessage", { message: message("go", "chunks") })),
    expected: [
      "task TASK_STATE_SUBMITTED",
      "status TASK_STATE_WORKING",
      "artifact out chunk 0",
      "artifact out chunk 1 (append)",
      "artifact out chunk 2 (append)",
      "artifact output done",
      "status TASK_STATE_COMPLETED",
    ],
  },
  {
    name: "GetTask returns the stored task, its history (request and reply); historyLength 0 leaves it out",
    run: async (d) => {
      const { task } = (await d.call("SendMessage", { message: message("hello", "echo") })) as Json;
      const full = taskShape(await d.call("GetTask", { id: task.id }));
      const trimmed = taskShape(await d.call("GetTask", { id: task.id, historyLength: 0 }));
      return { full, trimmed };
    },
    expected: { full: { state: "TASK_STATE_COMPLETED", history: 2 }, trimmed: { history: 0 } },
  },
  {
    name: "an unknown task is TASK_NOT_FOUND on every task method",
    run: async (d) => ({
      get: await reasonOf(d.call("GetTask", { id: "no-such-task" })),
      cancel: await reasonOf(d.call("CancelTask", { id: "no-such-task" })),
      subscribe: await reasonOf(collect(d.stream("SubscribeToTask", { id: "no-such-task" }))),
      push: await reasonOf(
        d.call("CreateTaskPushNotificationConfig", { taskId: "no-such-task", url: "https://hooks.example/a2a" }),
      ),
    }),
    expected: { get: "TASK_NOT_FOUND", cancel: "TASK_NOT_FOUND", subscribe: "TASK_NOT_FOUND", push: "TASK_NOT_FOUND" },
  },
  {
    name: "ListTasks filters by context, status, artifacts and time, and pages",
    run: async (d) => {
      const contextId = `list-${d.name}-${++unique}`;
      for (const text of ["a", "b", "c"])
        await d.call("SendMessage", { message: message(text, "echo", { contextId }) });
      const first = (await d.call("ListTasks", { contextId, pageSize: 2 })) as Json;
      const second = (await d.call("ListTasks", { contextId, pageSize: 2, pageToken: first.nextPageToken })) as Json;
      const working = (await d.call("ListTasks", { contextId, status: "TASK_STATE_WORKING" })) as Json;
      const lean = (await d.call("ListTasks", { contextId, includeArtifacts: false })) as Json;
      const future = (await d.call("ListTasks", { contextId, statusTimestampAfter: "2999-01-01T00:00:00Z" })) as Json;
      const ids = new Set([...first.tasks, ...second.tasks].map((t: Json) => t.id));
      return {
        first: { count: first.tasks.length, more: first.nextPageToken !== "", totalSize: first.totalSize },
        second: { count: second.tasks.length, more: second.nextPageToken !== "" },
        distinct: ids.size,
        working: working.tasks.length,
        artifactsLeftOut: lean.tasks.every((t: Json) => t.artifacts === undefined || t.artifacts.length === 0),
        future: future.tasks.length,
      };
    },
    expected: {
      first: { count: 2, more: true, totalSize: 3 },
      second: { count: 1, more: false },
      distinct: 3,
      working: 0,
      artifactsLeftOut: true,
      future: 0,
    },
  },
  {
    name: "CancelTask cancels a running task; a finished one is TASK_NOT_CANCELABLE",
    run: async (d) => {
      const taskId = await startHeld(d);
      const canceled = taskShape(await d.call("CancelTask", { id: taskId }));
      const stored = taskShape(await d.call("GetTask", { id: taskId }));
      const { task } = (await d.call("SendMessage", { message: message("hello", "echo") })) as Json;
      return {
        canceled: canceled.state,
        stored: stored.state,
        finished: await reasonOf(d.call("CancelTask", { id: task.id })),
      };
    },
    expected: { canceled: "TASK_STATE_CANCELED", stored: "TASK_STATE_CANCELED", finished: "TASK_NOT_CANCELABLE" },
  },
  {
    name: "SubscribeToTask attaches, detaches on hang-up, reattaches, and follows the task to its end",
    run: async (d) => {
      const taskId = await startHeld(d);
      const first = d.stream("SubscribeToTask", { id: taskId });
      const firstFrame = frameShape((await first.next()).value);
      await first.return?.(); // hang up: the task goes on
      const again = d.stream("SubscribeToTask", { id: taskId });
      const snapshot = frameShape((await again.next()).value);
      release(taskId);
      const rest = await collect(again);
      const finished = await reasonOf(collect(d.stream("SubscribeToTask", { id: taskId })));
      return { firstFrame, snapshot, rest, finished };
    },
    expected: {
      firstFrame: "task TASK_STATE_WORKING",
      snapshot: "task TASK_STATE_WORKING",
      rest: ["artifact output released", "status TASK_STATE_COMPLETED"],
      finished: "UNSUPPORTED_OPERATION",
    },
  },
  {
    name: "push notification configs: create, get, list, delete",
    run: async (d) => {
      const taskId = await startHeld(d);
      const created = (await d.call("CreateTaskPushNotificationConfig", {
        taskId,
        url: "https://hooks.example/a2a",
        token: "secret-token",
      })) as Json;
      const got = (await d.call("GetTaskPushNotificationConfig", { taskId, id: created.id })) as Json;
      const listed = (await d.call("ListTaskPushNotificationConfigs", { taskId })) as Json;
      const deleted = await d.call("DeleteTaskPushNotificationConfig", { taskId, id: created.id });
      const gone = await reasonOf(d.call("GetTaskPushNotificationConfig", { taskId, id: created.id }));
      release(taskId);
      return {
        created: {
          url: created.url,
          token: created.token,
          hasId: created.id !== "",
          taskId: created.taskId === taskId,
        },
        got: got.id === created.id && got.url === created.url,
        listed: listed.configs.map((c: Json) => c.id === created.id),
        deleted,
        gone,
      };
    },
    expected: {
      created: { url: "https://hooks.example/a2a", token: "secret-token", hasId: true, taskId: true },
      got: true,
      listed: [true],
      deleted: {},
      gone: "TASK_NOT_FOUND",
    },
  },
  {
    name: "GetExtendedAgentCard returns the configured extended card",
    run: async (d) => ((await d.call("GetExtendedAgentCard", {})) as Json).name,
    expected: "equivalent (extended)",
  },
  {
    name: "a tenant reaches the handler: a task is found under its tenant only",
    run: async (d) => {
      const { task } = (await d.call("SendMessage", { tenant: "acme", message: message("hi", "echo") })) as Json;
      return {
        sameTenant: taskShape(await d.call("GetTask", { tenant: "acme", id: task.id })).state,
        otherTenant: await reasonOf(d.call("GetTask", { tenant: "globex", id: task.id })),
      };
    },
    expected: { sameTenant: "TASK_STATE_COMPLETED", otherTenant: "TASK_NOT_FOUND" },
  },
  {
    name: "a missing A2A-Version is VERSION_NOT_SUPPORTED, on unary and streaming calls",
    run: async (d) => ({
      unary: await reasonOf(d.call("GetTask", { id: "any" }, {})),
      streaming: await reasonOf(collect(d.stream("SendStreamingMessage", { message: message("x", "echo") }, {}))),
      old: await reasonOf(d.call("GetTask", { id: "any" }, { "A2A-Version": "0.3" })),
    }),
    expected: { unary: "VERSION_NOT_SUPPORTED", streaming: "VERSION_NOT_SUPPORTED", old: "VERSION_NOT_SUPPORTED" },
  },
  {
    name: "a skill answers with a direct Message: SendMessage returns it, the stream is that one Message, no task is stored",
    run: async (d) => {
      const contextId = `direct-${d.name}-${++unique}`;
      const unary = (await d.call("SendMessage", { message: message("hi", "quick", { contextId }) })) as Json;
      const stream = await collect(
        d.stream("SendStreamingMessage", { message: message("hey", "quick", { contextId }) }),
      );
      const stored = ((await d.call("ListTasks", { contextId })) as Json).tasks.length;
      // The same skill, once it wrote to its task, answers with the task.
      const afterWriting = await collect(
        d.stream("SendStreamingMessage", { message: message("long", "quick", { contextId }) }),
      );
      return {
        unary: { role: unary.message?.role, texts: texts(unary.message), taskId: unary.message?.taskId ?? "" },
        context: unary.message?.contextId === contextId,
        stream,
        stored,
        afterWriting,
      };
    },
    expected: {
      unary: { role: "ROLE_AGENT", texts: ["quick: hi"], taskId: "" },
      context: true,
      stream: ["message quick: hey"],
      stored: 0,
      afterWriting: [
        "task TASK_STATE_WORKING",
        "artifact notes working",
        "artifact output a task after all",
        "status TASK_STATE_COMPLETED",
      ],
    },
  },
  {
    name: "SubscribeToTask on a task paused for input stays open; the follow-up's run streams to it up to COMPLETED",
    run: async (d) => {
      const { task } = (await d.call("SendMessage", { message: message("question", "ask") })) as Json;
      const subscription = d.stream("SubscribeToTask", { id: task.id });
      const snapshot = frameShape((await subscription.next()).value);
      const followUp = (await d.call("SendMessage", {
        message: { messageId: `m-${++unique}`, role: "ROLE_USER", parts: [{ text: "blue" }], taskId: task.id },
      })) as Json;
      return { snapshot, resumed: followUp.task.status.state, rest: await collect(subscription) };
    },
    expected: {
      snapshot: "task TASK_STATE_INPUT_REQUIRED",
      resumed: "TASK_STATE_COMPLETED",
      rest: ["status TASK_STATE_WORKING", "artifact output answered: blue", "status TASK_STATE_COMPLETED"],
    },
  },
  {
    name: "SubscribeToTask on a task a skill left WORKING (RUNNING) stays open until a later run ends it",
    run: async (d) => {
      const { task } = (await d.call("SendMessage", { message: message("start", "background") })) as Json;
      const subscription = d.stream("SubscribeToTask", { id: task.id });
      const snapshot = frameShape((await subscription.next()).value);
      await d.call("SendMessage", { message: message("the report", "background", { taskId: task.id }) });
      return { left: task.status.state, snapshot, rest: await collect(subscription) };
    },
    expected: {
      left: "TASK_STATE_WORKING",
      snapshot: "task TASK_STATE_WORKING",
      rest: ["status TASK_STATE_WORKING", "artifact output finished: the report", "status TASK_STATE_COMPLETED"],
    },
  },
  {
    name: "a follow-up goes to the skill that owns its task; naming another skill is INVALID_PARAMS for that request only",
    run: async (d) => {
      const { task } = (await d.call("SendMessage", { message: message("question", "ask") })) as Json;
      const followUp = (text: string, skill?: string) => ({
        message: {
          messageId: `m-${++unique}`,
          role: "ROLE_USER",
          parts: [{ text }],
          taskId: task.id,
          ...(skill ? { metadata: { skillId: skill } } : {}),
        },
      });
      const other = await reasonOf(d.call("SendMessage", followUp("blue", "echo")));
      const unknown = await reasonOf(d.call("SendMessage", followUp("blue", "no-such-skill")));
      const after = taskShape(await d.call("GetTask", { id: task.id }));
      const resumed = taskShape(((await d.call("SendMessage", followUp("blue"))) as Json).task);
      return { owner: task.metadata?.skillId, paused: task.status.state, other, unknown, after, resumed };
    },
    expected: {
      owner: "ask",
      paused: "TASK_STATE_INPUT_REQUIRED",
      other: "INVALID_PARAMS",
      unknown: "INVALID_PARAMS",
      after: { state: "TASK_STATE_INPUT_REQUIRED", history: 2 },
      resumed: { state: "TASK_STATE_COMPLETED", artifacts: [{ name: "output", texts: ["answered: blue"] }] },
    },
  },
  {
    name: "a request missing a REQUIRED field is INVALID_PARAMS",
    run: async (d) => ({
      send: await reasonOf(d.call("SendMessage", { message: { role: "ROLE_USER", parts: [{ text: "x" }] } })),
      push: await reasonOf(d.call("CreateTaskPushNotificationConfig", { taskId: "t-1" })),
    }),
    expected: { send: "INVALID_PARAMS", push: "INVALID_PARAMS" },
  },
];

/** Run against an agent built with `{ extensions: [requiredExtension()] }`. */
export const REQUIRED_EXTENSION_SCENARIO: Scenario = {
  name: "a required extension not activated is EXTENSION_SUPPORT_REQUIRED; activated, the call is served",
  run: async (d) => ({
    without: await reasonOf(d.call("SendMessage", { message: message("hi", "echo") })),
    streaming: await reasonOf(collect(d.stream("SendStreamingMessage", { message: message("hi", "echo") }))),
    with: taskShape(
      (
        (await d.call(
          "SendMessage",
          { message: message("hi", "echo") },
          { ...V1, "A2A-Extensions": REQUIRED_EXTENSION },
        )) as Json
      ).task,
    ).state,
  }),
  expected: {
    without: "EXTENSION_SUPPORT_REQUIRED",
    streaming: "EXTENSION_SUPPORT_REQUIRED",
    with: "TASK_STATE_COMPLETED",
  },
};

export function requiredExtension(): A2AExtension {
  return new A2AExtension({ uri: REQUIRED_EXTENSION, required: true });
}

/** Runs `run` on every driver and checks the outcomes are equal to the first one's and as expected. */
export async function expectEquivalent(
  drivers: readonly BindingDriver[],
  scenario: Pick<Scenario, "run" | "expected">,
): Promise<void> {
  const outcomes: [string, unknown][] = [];
  for (const d of drivers) outcomes.push([d.name, await scenario.run(d)]);
  const [[firstName, first], ...rest] = outcomes as [[string, unknown], ...[string, unknown][]];
  for (const [name, outcome] of rest) expect(outcome, `${name} vs ${firstName}`).toEqual(first);
  expect(first).toMatchObject(scenario.expected as object);
}
