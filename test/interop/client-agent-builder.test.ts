/**
 * Our Client against our own AgentBuilder, over JSON-RPC (the builder's node
 * handler), HTTP+JSON (the HTTP+JSON binding over the same request handler)
 * and gRPC (listenGrpc): every method, streaming, cancel, resubscribe, errors,
 * and a HITL pause answered with sendHitlResponse on the same task.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { create, fromJson } from "@bufbuild/protobuf";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentCardSchema,
  type Message,
  PartSchema,
  type StreamResponse,
  type Task,
  TaskState,
} from "../../gen/a2a_pb.js";
import {
  InvalidParamsError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "../../src/a2a/errors.js";
import { isLastFrame } from "../../src/a2a/stream-frame.js";
import { Client } from "../../src/client/client.js";
import { extractSessionId, pendingInputRequests } from "../../src/client/task-messages.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { createHitlMessage } from "../../src/messages/message-builder.js";
import { extractHitlResponse } from "../../src/messages/message-parser.js";
import { HitlType } from "../../src/messages/vocabulary.js";
import { nodeHandler } from "../../src/node/index.js";
import { createNodeListener } from "../../src/node/node-adapter.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type GrpcServer, listenGrpc } from "../../src/server/grpc/grpc-server.js";
import { HttpJsonBinding } from "../../src/server/http-json/http-json-binding.js";
import { InMemoryPushNotificationConfigStore } from "../../src/server/push-config-store.js";

const BINDINGS = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;

const held = new Map<string, () => void>();
let jsonRpc: http.Server;
let rest: http.Server;
let grpc: GrpcServer;
const urls: Record<(typeof BINDINGS)[number], string> = { JSONRPC: "", "HTTP+JSON": "", GRPC: "" };

function buildAgent(): AgentBuilder {
  const agent = new AgentBuilder({
    name: "ours",
    logger: pino({ level: "silent" }),
    pushNotificationStore: new InMemoryPushNotificationConfigStore(),
    pushNotificationDelivery: "platform",
    extendedAgentCard: create(AgentCardSchema, { name: "ours (extended)" }),
  });
  agent.skill("chat", (_ctx, text) => ({ output: `you said: ${text}` }));
  agent.skill("stream", async (ctx) => {
    for (let i = 0; i < 5; i++) {
      await ctx.taskUpdater.addArtifact([create(PartSchema, { content: { case: "text", value: `chunk ${i}` } })], {
        artifactId: "story",
        append: i > 0,
      });
    }
    return { output: "the end" };
  });
  agent.skill("hold", async (ctx) => {
    await new Promise<void>((resolve, reject) => {
      held.set(ctx.taskId, resolve);
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
    });
    return { output: "released" };
  });
  agent.skill("quick", { directReplies: true }, (_ctx, text) => ({ output: `quick: ${text}`, replyAs: "message" }));
  agent.skill("approve", async (ctx) => {
    const answer = extractHitlResponse(ctx.message);
    if (answer) return { output: `approved with ${answer.actionId} (${answer.inputValue ?? ""})` };
    await ctx.taskUpdater.requiresInput(
      createHitlMessage("Deploy to prod?", HitlType.PLAN_CONFIRMATION, {
        sessionId: ctx.contextId,
        taskId: ctx.taskId,
        actions: [{ id: "confirm", label: "Confirm" }],
      }),
    );
    return { status: "WAITING_USER" };
  });
  return agent;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const agent = buildAgent();
  jsonRpc = http.createServer(nodeHandler(agent));
  const restBinding = new HttpJsonBinding(agent.requestHandler());
  rest = http.createServer(createNodeListener(() => [restBinding]));
  grpc = await listenGrpc(agent.requestHandler(), { port: 0 });
  urls.JSONRPC = await listen(jsonRpc);
  urls["HTTP+JSON"] = await listen(rest);
  urls.GRPC = `http://${grpc.target}`;
});

afterAll(async () => {
  for (const server of [jsonRpc, rest]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await grpc.close();
});

function asTask(result: Task | Message): Task {
  expect(result.$typeName).toBe("lf.a2a.v1.Task");
  return result as Task;
}

async function collect(frames: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const frame of frames) out.push(frame);
  return out;
}

describe.each(BINDINGS)("our Client → AgentBuilder over %s", (binding) => {
  const client = () => new Client({ transports: [grpcTransport()], baseUrl: urls[binding], binding });

  it("sends a message to a skill and gets the completed task", async () => {
    await using c = client();
    const task = asTask(await c.sendMessage("hello", { skillId: "chat" }));
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    expect(task.artifacts.at(-1)?.parts[0]?.content).toEqual({ case: "text", value: "you said: hello" });
  });

  it("streams artifact chunks up to the terminal frame", async () => {
    await using c = client();
    const frames = await collect(c.sendStreamingMessage("go", { skillId: "stream" }));
    expect(frames.filter((f) => f.payload.case === "artifactUpdate").length).toBeGreaterThanOrEqual(5);
    const last = frames.at(-1) as StreamResponse;
    expect(isLastFrame(last)).toBe(true);
  });

  it("cancels a running task; cancelling a completed one is TaskNotCancelableError", async () => {
    await using c = client();
    const task = asTask(await c.sendMessage("x", { skillId: "hold", returnImmediately: true }));
    const canceled = await c.cancelTask(task.id);
    expect(canceled.status?.state).toBe(TaskState.CANCELED);
    expect((await c.getTask(task.id)).status?.state).toBe(TaskState.CANCELED);
    const done = asTask(await c.sendMessage("x", { skillId: "chat" }));
    await expect(c.cancelTask(done.id)).rejects.toBeInstanceOf(TaskNotCancelableError);
  });

  it("resubscribes to a running task and follows it to the end", async () => {
    await using c = client();
    const task = asTask(await c.sendMessage("x", { skillId: "hold", returnImmediately: true }));
    const frames: StreamResponse[] = [];
    for await (const frame of c.subscribeToTask(task.id)) {
      frames.push(frame);
      if (frames.length === 1) held.get(task.id)?.();
    }
    expect(frames[0]?.payload.case).toBe("task");
    const last = frames.at(-1) as StreamResponse;
    expect(last.payload.case === "statusUpdate" && last.payload.value.status?.state).toBe(TaskState.COMPLETED);
  });

  it("maps its errors to the same classes", async () => {
    await using c = client();
    await expect(c.getTask("no-such-task")).rejects.toBeInstanceOf(TaskNotFoundError);
    const done = asTask(await c.sendMessage("x", { skillId: "chat" }));
    await expect(collect(c.subscribeToTask(done.id))).rejects.toBeInstanceOf(UnsupportedOperationError);
  });

  it("lists tasks and pages through them", async () => {
    await using c = client();
    const contextId = `ctx-ours-${binding}`;
    for (let i = 0; i < 3; i++) await c.sendMessage(`m${i}`, { skillId: "chat", contextId });
    const ids: string[] = [];
    for await (const page of c.listTasksPages({ contextId, pageSize: 2 })) ids.push(...page.tasks.map((t) => t.id));
    expect(new Set(ids).size).toBe(3);
  });

  it("manages push notification configs and reads the extended card", async () => {
    await using c = client();
    const task = asTask(await c.sendMessage("x", { skillId: "chat" }));
    const created = await c.createTaskPushNotificationConfig({ taskId: task.id, url: "https://hooks.example/a" });
    expect(created.id).not.toBe("");
    expect((await c.getTaskPushNotificationConfig(task.id, created.id)).url).toBe("https://hooks.example/a");
    expect((await c.listTaskPushNotificationConfigs(task.id)).configs).toHaveLength(1);
    await c.deleteTaskPushNotificationConfig(task.id, created.id);
    expect((await c.listTaskPushNotificationConfigs(task.id)).configs).toHaveLength(0);
    expect((await c.getExtendedAgentCard()).name).toBe("ours (extended)");
  });

  it("pauses for a person (HITL) and resumes the same task with sendHitlResponse", async () => {
    await using c = client();
    const paused = asTask(await c.sendMessage("deploy", { skillId: "approve" }));
    expect(paused.status?.state).toBe(TaskState.INPUT_REQUIRED);
    const [request] = pendingInputRequests(paused);
    expect(request?.content).toBe("Deploy to prod?");
    expect(request?.actions.map((a) => a.id)).toEqual(["confirm"]);
    const sessionId = request ? extractSessionId(request) : undefined;
    expect(sessionId).toBe(paused.contextId);
    const resumed = asTask(
      await c.sendHitlResponse("confirm", sessionId ?? "", {
        taskId: paused.id,
        skillId: "approve",
        inputValue: "yes",
      }),
    );
    expect(resumed.id).toBe(paused.id);
    expect(resumed.status?.state).toBe(TaskState.COMPLETED);
    expect(resumed.artifacts.at(-1)?.parts[0]?.content).toEqual({ case: "text", value: "approved with confirm (yes)" });
    expect(pendingInputRequests(resumed)).toEqual([]);
  });
});

describe.each(BINDINGS)("our Client over %s reads a direct Message reply", (binding) => {
  it("sendMessage returns the Message; sendStreamingMessage yields it as its one, last frame", async () => {
    await using client = new Client({ transports: [grpcTransport()], baseUrl: urls[binding], binding });
    const reply = await client.sendMessage("hi", { skillId: "quick" });
    expect(reply.$typeName).toBe("lf.a2a.v1.Message");
    expect((reply as Message).parts[0]?.content).toEqual({ case: "text", value: "quick: hi" });
    const frames = await collect(client.sendStreamingMessage("hey", { skillId: "quick" }));
    expect(frames.map((f) => f.payload.case)).toEqual(["message"]);
    expect(isLastFrame(frames[0] as StreamResponse)).toBe(true);
  });
});

describe.each(BINDINGS)("HITL follow-ups of our Client over %s reach the skill that owns the task", (binding) => {
  const connect = () => new Client({ transports: [grpcTransport()], baseUrl: urls[binding], binding });

  it("runs the docs' sendHitlResponse sample, which names no skill, against a multi-skill agent", async () => {
    await using client = connect();
    // As docs/client.md "Human in the loop" has it.
    const task = await client.sendMessage("Deploy it", { skillId: "approve" });
    expect(task.$typeName).toBe("lf.a2a.v1.Task");
    if (task.$typeName !== "lf.a2a.v1.Task") return;
    const [request] = pendingInputRequests(task);
    expect(request).toBeDefined();
    if (!request) return;
    const resumed = await client.sendHitlResponse(request.actions[0]?.id ?? "confirm", request.sessionId, {
      taskId: task.id,
      inputValue: "yes",
    });
    expect(asTask(resumed).status?.state).toBe(TaskState.COMPLETED);
    expect(asTask(resumed).artifacts.at(-1)?.parts[0]?.content).toEqual({
      case: "text",
      value: "approved with confirm (yes)",
    });
  });

  it("subscribeToTask on the paused task follows the run a follow-up from another client starts, to COMPLETED", async () => {
    await using watcher = connect();
    await using answerer = connect();
    const paused = asTask(await watcher.sendMessage("deploy", { skillId: "approve" }));
    const frames = watcher.subscribeToTask(paused.id);
    const first = (await frames.next()).value as StreamResponse;
    expect(first.payload.case === "task" && first.payload.value.status?.state).toBe(TaskState.INPUT_REQUIRED);
    const [request] = pendingInputRequests(paused);
    await answerer.sendHitlResponse("confirm", request?.sessionId ?? "", { taskId: paused.id, inputValue: "now" });
    const rest = await collect({ [Symbol.asyncIterator]: () => frames });
    const last = rest.at(-1) as StreamResponse;
    expect(last.payload.case === "statusUpdate" && last.payload.value.status?.state).toBe(TaskState.COMPLETED);
  });

  it("refuses a follow-up naming another skill as InvalidParamsError and leaves the paused task as it was", async () => {
    await using c = connect();
    const paused = asTask(await c.sendMessage("deploy", { skillId: "approve" }));
    const error = await c.sendMessage("hi", { taskId: paused.id, skillId: "chat" }).then(
      () => expect.fail("a follow-up to another skill was served"),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as Error).message).toContain(`Task ${paused.id} belongs to skill 'approve'`);
    expect((await c.getTask(paused.id)).status?.state).toBe(TaskState.INPUT_REQUIRED);
  });
});

describe("our Client from the card our agent serves", () => {
  it("fetches /.well-known/agent-card.json, picks its interface and calls it", async () => {
    const response = await fetch(`${urls.JSONRPC}/.well-known/agent-card.json`);
    const card = fromJson(AgentCardSchema, await response.json(), { ignoreUnknownFields: true });
    expect(card.capabilities?.streaming).toBe(true);
    await using c = Client.fromAgentCard(card, { transports: [grpcTransport()] });
    expect(c.binding).toBe("JSONRPC");
    const task = asTask(await c.sendMessage("hi", { skillId: "chat" }));
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    const frames = await collect(c.sendStreamingMessage("go", { skillId: "stream" }));
    expect(isLastFrame(frames.at(-1) as StreamResponse)).toBe(true);
  });
});
