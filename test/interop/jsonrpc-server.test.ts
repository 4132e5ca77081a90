/**
 * Interop: `@a2a-js/sdk` 1.3.0's JSON-RPC client (ClientFactory +
 * JsonRpcTransportFactory, discovering our served agent card) drives an
 * AgentBuilder over a real socket through every method: send, stream, get,
 * list, cancel, subscribe, push configs, and typed errors.
 */
import { Role, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { type Client, ClientFactory, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { InMemoryPushNotificationConfigStore } from "../../src/server/push-config-store.js";
import { textPart } from "../../src/server/task-updater.js";
import { type Deferred, deferred, type RunningServer, serveAgent } from "../server/support/agent-server.js";

let running: RunningServer;
let client: Client;
const gates = new Map<string, Deferred>();
const started = new Map<string, Deferred<string>>();

function gate(key: string): Deferred {
  if (!gates.has(key)) gates.set(key, deferred());
  return gates.get(key) as Deferred;
}
function startedOf(key: string): Deferred<string> {
  if (!started.has(key)) started.set(key, deferred<string>());
  return started.get(key) as Deferred<string>;
}

beforeAll(async () => {
  const agent = new AgentBuilder({
    name: "interop-agent",
    version: "1.0.0",
    description: "Driven by @a2a-js/sdk",
    pushNotificationStore: new InMemoryPushNotificationConfigStore(),
    pushNotificationDelivery: "platform",
    logger: createLogger({ level: "silent" }),
  });
  agent.skill("echo", { description: "Echoes, streams chunks, or waits on a gate" }, async (ctx, text) => {
    if (text.startsWith("wait:")) {
      startedOf(text).resolve(ctx.taskId);
      await gate(text).promise;
    }
    if (text.startsWith("chunks:")) {
      for (const word of text.slice("chunks:".length).split(",")) {
        await ctx.taskUpdater.addArtifact([textPart(word)], { artifactId: "words", append: word !== "a" });
      }
    }
    if (text === "question") return { output: "Which one?", status: "WAITING_USER" };
    return { output: `echo: ${text}` };
  });
  running = await serveAgent(agent);
  const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory()] });
  client = await factory.createFromUrl(running.url);
});

afterAll(async () => {
  await running.close();
});

const message = (text: string, extra: { taskId?: string; contextId?: string } = {}) => ({
  messageId: crypto.randomUUID(),
  role: Role.ROLE_USER,
  parts: [{ content: { $case: "text" as const, value: text }, metadata: undefined, filename: "", mediaType: "" }],
  contextId: extra.contextId ?? "",
  taskId: extra.taskId ?? "",
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const sendRequest = (text: string, extra: { taskId?: string; returnImmediately?: boolean } = {}) => ({
  tenant: "",
  message: message(text, extra),
  configuration: extra.returnImmediately
    ? {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        historyLength: undefined,
        returnImmediately: true,
      }
    : undefined,
  metadata: undefined,
});

function textOf(task: Task): string | undefined {
  const part = task.status?.message?.parts[0]?.content;
  return part?.$case === "text" ? part.value : undefined;
}

function stateOf(frame: StreamResponse): TaskState | undefined {
  const payload = frame.payload;
  if (payload?.$case === "task") return payload.value.status?.state;
  if (payload?.$case === "statusUpdate") return payload.value.status?.state;
  return undefined;
}

async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const frames: StreamResponse[] = [];
  for await (const frame of stream) frames.push(frame);
  return frames;
}

describe("@a2a-js/sdk JSON-RPC client against AgentBuilder", () => {
  it("discovers the agent from its served card", async () => {
    const card = await client.getAgentCard();
    expect(card.name).toBe("interop-agent");
    expect(card.skills.map((s) => s.id)).toEqual(["echo"]);
    expect(card.capabilities?.pushNotifications).toBe(true);
  });

  it("sends a message and gets the completed task", async () => {
    const result = (await client.sendMessage(sendRequest("hello"))) as Task;
    expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(result)).toBe("echo: hello");
    const artifact = result.artifacts[0]?.parts[0]?.content;
    expect(artifact?.$case === "text" && artifact.value).toBe("echo: hello");
  });

  it("streams a task: snapshot, updates, artifact chunks, terminal status", async () => {
    const frames = await collect(client.sendMessageStream(sendRequest("chunks:a,b,c")));
    expect(frames[0]?.payload?.$case).toBe("task");
    const chunks = frames.filter((f) => f.payload?.$case === "artifactUpdate");
    expect(chunks).toHaveLength(4);
    expect(stateOf(frames.at(-1) as StreamResponse)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("gets and lists tasks, with history length and paging", async () => {
    const sent = (await client.sendMessage(sendRequest("for listing"))) as Task;
    const got = await client.getTask({ tenant: "", id: sent.id, historyLength: 1 });
    expect(got.id).toBe(sent.id);
    expect(got.history).toHaveLength(1);
    const page = await client.listTasks({
      tenant: "",
      contextId: sent.contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 10,
      pageToken: "",
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    });
    expect(page.tasks.map((t) => t.id)).toEqual([sent.id]);
    expect(page.totalSize).toBe(1);
    expect(page.nextPageToken).toBe("");
    const all = await client.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 1,
      pageToken: "",
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: undefined,
    });
    expect(all.tasks).toHaveLength(1);
    expect(all.nextPageToken).not.toBe("");
  });

  it("cancels a running task; canceling a finished one is a typed TaskNotCancelable error", async () => {
    const key = "wait:cancel";
    const send = client.sendMessage(sendRequest(key, { returnImmediately: true })) as Promise<Task>;
    const taskId = await startedOf(key).promise;
    expect((await send).status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const canceled = await client.cancelTask({ tenant: "", id: taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    gate(key).resolve();
    const done = (await client.sendMessage(sendRequest("finished"))) as Task;
    const error = await client.cancelTask({ tenant: "", id: done.id, metadata: undefined }).catch((e: unknown) => e);
    expect((error as { name?: string }).name).toMatch(/TaskNotCancelable/);
  });

  it("resubscribes to a running task and sees it finish", async () => {
    const key = "wait:subscribe";
    const send = client.sendMessage(sendRequest(key, { returnImmediately: true })) as Promise<Task>;
    const taskId = await startedOf(key).promise;
    await send;
    const stream = client.resubscribeTask({ tenant: "", id: taskId });
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value?.payload?.$case).toBe("task");
    gate(key).resolve();
    const rest: StreamResponse[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    expect(stateOf(rest.at(-1) as StreamResponse)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("pauses for input and resumes on the same task id", async () => {
    const paused = (await client.sendMessage(sendRequest("question"))) as Task;
    expect(paused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const resumed = (await client.sendMessage(sendRequest("the blue one", { taskId: paused.id }))) as Task;
    expect(resumed.id).toBe(paused.id);
    expect(resumed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("creates, gets, lists and deletes push-notification configs", async () => {
    const task = (await client.sendMessage(sendRequest("push me"))) as Task;
    const created = await client.createTaskPushNotificationConfig({
      tenant: "",
      id: "",
      taskId: task.id,
      url: "https://hooks.example/a2a",
      token: "tok",
      authentication: { scheme: "Bearer", credentials: "secret" },
    });
    expect(created.id).not.toBe("");
    const got = await client.getTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: created.id });
    expect(got.url).toBe("https://hooks.example/a2a");
    const listed = await client.listTaskPushNotificationConfig({
      tenant: "",
      taskId: task.id,
      pageSize: 0,
      pageToken: "",
    });
    expect(listed.configs.map((c) => c.id)).toEqual([created.id]);
    await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: created.id });
    const after = await client.listTaskPushNotificationConfig({
      tenant: "",
      taskId: task.id,
      pageSize: 0,
      pageToken: "",
    });
    expect(after.configs).toEqual([]);
  });

  it("surfaces our errors as a2a-js typed errors", async () => {
    const error = await client
      .getTask({ tenant: "", id: "does-not-exist", historyLength: undefined })
      .catch((e: unknown) => e);
    expect((error as { name?: string }).name).toMatch(/TaskNotFound/);
  });
});

describe("@a2a-js/sdk JSON-RPC client reads a direct Message reply", () => {
  let quick: RunningServer;
  let quickClient: Client;
  beforeAll(async () => {
    const agent = new AgentBuilder({ name: "quick-agent", logger: createLogger({ level: "silent" }) });
    agent.skill("answer", { directReplies: true }, (_ctx, text) => ({ output: `answer: ${text}`, replyAs: "message" }));
    quick = await serveAgent(agent);
    quickClient = await new ClientFactory({ transports: [new JsonRpcTransportFactory()] }).createFromUrl(quick.url);
  });
  afterAll(() => quick.close());

  it("sendMessage returns the Message, and the stream is that one Message", async () => {
    const reply = await quickClient.sendMessage(sendRequest("now"));
    expect("status" in reply).toBe(false);
    const message = reply as { role: Role; parts: { content?: { $case: string; value: unknown } }[]; taskId: string };
    expect(message.role).toBe(Role.ROLE_AGENT);
    expect(message.parts[0]?.content).toEqual({ $case: "text", value: "answer: now" });
    expect(message.taskId).toBe("");
    const frames = await collect(quickClient.sendMessageStream(sendRequest("streamed")));
    expect(frames.map((f) => f.payload?.$case)).toEqual(["message"]);
  });
});
