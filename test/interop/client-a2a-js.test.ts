/**
 * Our Client against @a2a-js/sdk 1.3.0 servers, over JSON-RPC, HTTP+JSON
 * and gRPC: every method, streaming, cancel, resubscribe, tenant, service
 * parameters, and every A2A error mapped to the same typed class.
 */
import { fromJson } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AgentCardSchema, type Message, type StreamResponse, type Task, TaskState } from "../../gen/a2a_pb.js";
import { A2A_ERRORS } from "../../src/a2a/error-table.js";
import {
  A2AError,
  InvalidParamsError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "../../src/a2a/errors.js";
import { isLastFrame } from "../../src/a2a/stream-frame.js";
import { Client, type ClientOptions } from "../../src/client/client.js";
import { NovaOSConnectionError } from "../../src/errors/novaos-errors.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { BearerTokenAuth } from "../../src/http/auth.js";
import { type A2AJsAgent, startA2AJsAgent } from "../client/support/a2a-js-agent.js";

const BINDINGS = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;

let agent: A2AJsAgent;
let tenanted: A2AJsAgent;
beforeAll(async () => {
  // a2a-js logs every error it answers with; the assertions below check them.
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  [agent, tenanted] = await Promise.all([startA2AJsAgent(), startA2AJsAgent({ tenant: "acme" })]);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all([agent.close(), tenanted.close()]);
});

function clientFor(
  target: A2AJsAgent,
  binding: (typeof BINDINGS)[number],
  options: Omit<ClientOptions, "baseUrl"> = {},
): Client {
  const card = fromJson(AgentCardSchema, target.cardJson);
  return Client.fromAgentCard(card, {
    transports: [grpcTransport()],
    ...options,
    config: { ...options.config, preferredBindings: [binding] },
  });
}

function asTask(result: Task | Message): Task {
  expect(result.$typeName).toBe("lf.a2a.v1.Task");
  return result as Task;
}

async function collect(frames: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const frame of frames) out.push(frame);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the call to fail"),
    (error: unknown) => error,
  );
}

describe.each(BINDINGS)("our Client → a2a-js over %s", (binding) => {
  it("picks the card's interface for the binding", async () => {
    await using client = clientFor(agent, binding);
    expect(client.binding).toBe(binding);
    expect(client.tenant).toBeUndefined();
  });

  it("sendMessage blocks until the task completes and returns it with its artifact", async () => {
    await using client = clientFor(agent, binding);
    const task = asTask(await client.sendMessage("task", { skillId: "chat" }));
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    expect(task.artifacts[0]?.parts[0]?.content).toEqual({ case: "text", value: "chunk 0" });
    expect(task.history[0]?.metadata).toEqual({ skillId: "chat" });
  });

  it("sendMessage returns a bare Message when the agent answers without a task", async () => {
    await using client = clientFor(agent, binding);
    const message = await client.sendMessage("echo:hello");
    expect(message.$typeName).toBe("lf.a2a.v1.Message");
    expect((message as Message).parts[0]?.content).toEqual({ case: "text", value: "hello" });
  });

  it("sends A2A-Version: 1.0 on every call", async () => {
    await using client = clientFor(agent, binding, { headers: { "x-probe": `version-${binding}` } });
    await client.sendMessage("echo:v");
    const call = agent.calls.findLast((c) => c.headers["x-probe"] === `version-${binding}`);
    expect(call?.headers["a2a-version"]).toBe("1.0");
  });

  it("returnImmediately, getTask, then cancelTask", async () => {
    await using client = clientFor(agent, binding);
    const held = asTask(await client.sendMessage("hold", { returnImmediately: true }));
    expect([TaskState.SUBMITTED, TaskState.WORKING]).toContain(held.status?.state);
    const fetched = await client.getTask(held.id, { historyLength: 1 });
    expect(fetched.id).toBe(held.id);
    const canceled = await client.cancelTask(held.id);
    expect(canceled.status?.state).toBe(TaskState.CANCELED);
  });

  it("cancelTask on a completed task is TaskNotCancelableError (-32002)", async () => {
    await using client = clientFor(agent, binding);
    const done = asTask(await client.sendMessage("task"));
    const error = await rejection(client.cancelTask(done.id));
    expect(error).toBeInstanceOf(TaskNotCancelableError);
    expect((error as A2AError).code).toBe(-32002);
    expect((error as A2AError).taskId ?? done.id).toBe(done.id);
  });

  it("sends the auth provider's credentials", async () => {
    await using client = clientFor(agent, binding, { auth: new BearerTokenAuth(`token-${binding}`) });
    await client.sendMessage("echo:auth");
    const call = agent.calls.findLast((c) => c.headers.authorization === `Bearer token-${binding}`);
    expect(call?.method).toBe("sendMessage");
  });

  it("streams every frame in order and stops at the last one", async () => {
    await using client = clientFor(agent, binding);
    const frames = await collect(client.sendStreamingMessage("stream:5"));
    const cases = frames.map((f) => f.payload.case);
    expect(cases[0]).toBe("task");
    expect(cases.filter((c) => c === "artifactUpdate")).toHaveLength(5);
    const last = frames.at(-1) as StreamResponse;
    expect(isLastFrame(last)).toBe(true);
    expect(last.payload.case === "statusUpdate" && last.payload.value.status?.state).toBe(TaskState.COMPLETED);
  });

  it("ends a stream at an interrupt, and the task continues with its id", async () => {
    await using client = clientFor(agent, binding);
    const frames = await collect(client.sendStreamingMessage("input"));
    const last = frames.at(-1) as StreamResponse;
    expect(last.payload.case === "statusUpdate" && last.payload.value.status?.state).toBe(TaskState.INPUT_REQUIRED);
    const taskId = last.payload.case === "statusUpdate" ? last.payload.value.taskId : "";
    const resumed = asTask(await client.sendMessage("task", { taskId }));
    expect(resumed.id).toBe(taskId);
    expect(resumed.status?.state).toBe(TaskState.COMPLETED);
  });

  it("a stream that ends without a terminal or interrupted frame is a NovaOSConnectionError", async () => {
    await using client = clientFor(agent, binding);
    const seen: StreamResponse[] = [];
    const error = await rejection(
      (async () => {
        for await (const frame of client.sendStreamingMessage("no-end")) seen.push(frame);
      })(),
    );
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some(isLastFrame)).toBe(false);
  });

  it("subscribeToTask reattaches: the current state first, then the rest to the end", async () => {
    await using client = clientFor(agent, binding);
    const held = asTask(await client.sendMessage("hold", { returnImmediately: true }));
    const frames: StreamResponse[] = [];
    for await (const frame of client.subscribeToTask(held.id)) {
      frames.push(frame);
      if (frames.length === 1) agent.release(held.id);
    }
    expect(frames[0]?.payload.case).toBe("task");
    const last = frames.at(-1) as StreamResponse;
    expect(last.payload.case === "statusUpdate" && last.payload.value.status?.state).toBe(TaskState.COMPLETED);
  });

  it("subscribeToTask on a paused task reads on past the pause to the terminal state a follow-up reaches", async () => {
    await using client = clientFor(agent, binding);
    await using answerer = clientFor(agent, binding);
    const frames = await collect(client.sendStreamingMessage("input"));
    const last = frames.at(-1) as StreamResponse;
    const taskId = last.payload.case === "statusUpdate" ? last.payload.value.taskId : "";
    const subscription = client.subscribeToTask(taskId);
    const first = (await subscription.next()).value as StreamResponse;
    expect(first.payload.case === "task" && first.payload.value.status?.state).toBe(TaskState.INPUT_REQUIRED);
    await answerer.sendMessage("task", { taskId });
    const rest = await collect({ [Symbol.asyncIterator]: () => subscription });
    const end = rest.at(-1) as StreamResponse;
    expect(end.payload.case === "statusUpdate" && end.payload.value.status?.state).toBe(TaskState.COMPLETED);
  });

  it("subscribeToTask on a finished task is UnsupportedOperationError", async () => {
    await using client = clientFor(agent, binding);
    const done = asTask(await client.sendMessage("task"));
    const error = await rejection(collect(client.subscribeToTask(done.id)));
    expect(error).toBeInstanceOf(UnsupportedOperationError);
  });

  it("a protocol error sent mid-stream arrives as its typed class", async () => {
    await using client = clientFor(agent, binding);
    const seen: StreamResponse[] = [];
    const error = await rejection(
      (async () => {
        for await (const frame of client.sendStreamingMessage("stream-error:TaskNotFoundError")) seen.push(frame);
      })(),
    );
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(TaskNotFoundError);
  });

  it("listTasks filters, and listTasksPages walks every page", async () => {
    await using client = clientFor(agent, binding);
    const contextId = `ctx-${binding}-${Date.now()}`;
    for (let i = 0; i < 3; i++) await client.sendMessage("task", { contextId });
    const page = await client.listTasks({
      contextId,
      status: "TASK_STATE_COMPLETED",
      pageSize: 2,
      includeArtifacts: true,
      historyLength: 0,
      statusTimestampAfter: new Date(Date.now() - 60_000),
    });
    expect(page.tasks).toHaveLength(2);
    expect(page.nextPageToken).not.toBe("");
    const ids: string[] = [];
    for await (const p of client.listTasksPages({ contextId, pageSize: 2 })) ids.push(...p.tasks.map((t) => t.id));
    expect(new Set(ids).size).toBe(3);
    const none = await client.listTasks({ contextId, status: TaskState.CANCELED });
    expect(none.tasks).toHaveLength(0);
  });

  it("creates, gets, lists and deletes push notification configs", async () => {
    await using client = clientFor(agent, binding);
    const task = asTask(await client.sendMessage("task"));
    const created = await client.createTaskPushNotificationConfig({
      taskId: task.id,
      id: "hook-1",
      url: "https://hooks.example.com/a2a",
      token: "t0k",
    });
    expect(created.id).toBe("hook-1");
    const got = await client.getTaskPushNotificationConfig(task.id, "hook-1");
    expect(got.url).toBe("https://hooks.example.com/a2a");
    const listed = await client.listTaskPushNotificationConfigs(task.id);
    expect(listed.configs.map((c) => c.id)).toEqual(["hook-1"]);
    await client.deleteTaskPushNotificationConfig(task.id, "hook-1");
    const after = await client.listTaskPushNotificationConfigs(task.id);
    expect(after.configs).toHaveLength(0);
  });

  it("gets the extended agent card", async () => {
    await using client = clientFor(agent, binding);
    const card = await client.getExtendedAgentCard();
    expect(card.name).toBe("a2a-js test agent (extended)");
  });

  it("sends the card's tenant on every call", async () => {
    await using client = clientFor(tenanted, binding);
    expect(client.tenant).toBe("acme");
    const task = asTask(await client.sendMessage("task"));
    await client.getTask(task.id);
    const recorded = tenanted.calls.filter((c) => c.method === "sendMessage" || c.method === "getTask").slice(-2);
    expect(recorded.map((c) => c.tenant)).toEqual(["acme", "acme"]);
  });

  it.each([
    ...Object.values(A2A_ERRORS).filter((spec) => spec.family === "a2a"),
    { ...A2A_ERRORS.InvalidParamsError, type: "RequestMalformedError" },
  ])("maps a2a-js $type to code $jsonRpcCode", async (spec) => {
    await using client = clientFor(agent, binding);
    const error = await rejection(client.getTask(`error:${spec.type}`));
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).code).toBe(spec.jsonRpcCode);
    expect((error as Error).name).toBe(spec.type === "RequestMalformedError" ? "InvalidParamsError" : spec.type);
    if (spec.type === "RequestMalformedError") expect(error).toBeInstanceOf(InvalidParamsError);
  });
});
