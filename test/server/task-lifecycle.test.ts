/**
 * The task lifecycle across methods: pausing and resuming, blocking and
 * returnImmediately, history views, follow-ups on finished tasks,
 * subscriptions, tenants, streaming off, the extended card and content
 * negotiation, over a real socket.
 */
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { AgentCardSchema } from "../../gen/a2a_pb.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder, type AgentBuilderOptions } from "../../src/server/agent-builder.js";
import type { SkillHandler } from "../../src/server/execution.js";
import { textPart } from "../../src/server/task-updater.js";
import {
  deferred,
  frameStateOf,
  openStream,
  type RunningServer,
  result,
  rpc,
  serveAgent,
  userMessage,
  V1,
} from "./support/agent-server.js";

const logger = createLogger({ level: "silent" });

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(handler: SkillHandler, options: Partial<AgentBuilderOptions> = {}, skill = {}) {
  const agent = new AgentBuilder({ name: "lifecycle", logger, ...options });
  agent.skill("main", skill, handler);
  running = await serveAgent(agent);
  return running.url;
}

describe("pause and resume (HITL)", () => {
  it("pauses on WAITING_USER and resumes on a follow-up naming the task", async () => {
    const url = await serve(async (ctx, text) => {
      if (ctx.message.taskId && text === "blue") return { output: "Blue it is." };
      return { output: "Which colour?", status: "WAITING_USER" };
    });
    const paused = (await result(url, "SendMessage", { message: userMessage("paint it") })).task;
    expect(paused.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(paused.status.message.parts[0].text).toBe("Which colour?");
    expect(paused.artifacts).toBeUndefined();

    const stream = await openStream(url, "SendStreamingMessage", {
      message: userMessage("blue", { taskId: paused.id }),
    });
    const frames = [await stream.next(), ...(await stream.rest())];
    // The first frame is the task WORKING again, so no reader takes the old pause for the end.
    expect(frames.map(frameStateOf).filter(Boolean)).toEqual(["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]);
    const done = await result(url, "GetTask", { id: paused.id });
    expect(done.history.map((m: { parts: { text: string }[] }) => m.parts[0]?.text)).toEqual([
      "paint it",
      "Which colour?",
      "blue",
      "Blue it is.",
    ]);
  });

  it("keeps the skill's own pause message when it paused itself and returned the same status", async () => {
    const url = await serve(async (ctx) => {
      await ctx.taskUpdater.requiresAuth(
        ctx.taskUpdater.newAgentMessage([textPart("Connect Gmail"), textPart("https://auth.example/start")]),
      );
      return { output: "Connect your Gmail account to continue.", status: "AUTH_REQUIRED" };
    });
    const task = (await result(url, "SendMessage", { message: userMessage("read my mail") })).task;
    expect(task.status.state).toBe("TASK_STATE_AUTH_REQUIRED");
    expect(task.status.message.parts.map((p: { text: string }) => p.text)).toEqual([
      "Connect Gmail",
      "https://auth.example/start",
    ]);
  });

  it("keeps a stream open through an AUTH_REQUIRED the skill waits out, until it finishes", async () => {
    const authorised = deferred();
    const url = await serve(async (ctx) => {
      await ctx.taskUpdater.requiresAuth("Approve the write, please");
      await authorised.promise;
      await ctx.taskUpdater.startWork("approved, writing");
      return { output: "written" };
    });
    const stream = await openStream(url, "SendStreamingMessage", { message: userMessage("write") });
    const states: (string | undefined)[] = [];
    for (let frame = await stream.next(); frame; frame = await stream.next()) {
      if (frameStateOf(frame)) states.push(frameStateOf(frame));
      if (frameStateOf(frame) === "TASK_STATE_AUTH_REQUIRED") authorised.resolve();
    }
    expect(states).toEqual([
      "TASK_STATE_SUBMITTED",
      "TASK_STATE_WORKING",
      "TASK_STATE_AUTH_REQUIRED",
      "TASK_STATE_WORKING",
      "TASK_STATE_COMPLETED",
    ]);
  });
});

describe("blocking and non-blocking SendMessage", () => {
  it("blocks until a terminal or interrupted state by default", async () => {
    const url = await serve(async (ctx) => {
      await ctx.taskUpdater.requiresInput("need more");
      return { output: "ignored", status: "WAITING_USER" };
    });
    const task = (await result(url, "SendMessage", { message: userMessage("x") })).task;
    expect(task.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
  });

  it("returns the in-progress task at once with returnImmediately", async () => {
    const gate = deferred();
    const url = await serve(async () => {
      await gate.promise;
      return { output: "late" };
    });
    const task = (
      await result(url, "SendMessage", { message: userMessage("x"), configuration: { returnImmediately: true } })
    ).task;
    expect(task.status.state).toBe("TASK_STATE_WORKING");
    const watcher = await openStream(url, "SubscribeToTask", { id: task.id });
    await watcher.next();
    gate.resolve();
    expect((await watcher.rest()).map(frameStateOf).at(-1)).toBe("TASK_STATE_COMPLETED");
  });

  it("applies configuration.historyLength to the reply", async () => {
    const url = await serve(async () => ({ output: "ok" }));
    const none = (await result(url, "SendMessage", { message: userMessage("x"), configuration: { historyLength: 0 } }))
      .task;
    expect(none.history).toBeUndefined();
    const last = (await result(url, "SendMessage", { message: userMessage("x"), configuration: { historyLength: 1 } }))
      .task;
    expect(last.history).toHaveLength(1);
    expect(last.history[0].role).toBe("ROLE_AGENT");
  });
});

describe("follow-ups", () => {
  it("refuses a message to a terminal task with -32004 and to another context with -32602", async () => {
    const url = await serve(async () => ({ output: "ok" }));
    const done = (await result(url, "SendMessage", { message: userMessage("x", { contextId: "c1" }) })).task;
    const again = await rpc(url, "SendMessage", { message: userMessage("y", { taskId: done.id }) });
    expect(again.body.error.code).toBe(-32004);
    const paused = await serve(async () => ({ output: "?", status: "WAITING_USER" }));
    const task = (await result(paused, "SendMessage", { message: userMessage("x", { contextId: "c1" }) })).task;
    const mismatch = await rpc(paused, "SendMessage", {
      message: userMessage("y", { taskId: task.id, contextId: "c2" }),
    });
    expect(mismatch.body.error.code).toBe(-32602);
    const inferred = await result(paused, "SendMessage", { message: userMessage("y", { taskId: task.id }) });
    expect(inferred.task.contextId).toBe("c1");
  });
});

describe("SubscribeToTask", () => {
  it("answers -32004 for a terminal task", async () => {
    const url = await serve(async () => ({ output: "ok" }));
    const done = (await result(url, "SendMessage", { message: userMessage("x") })).task;
    const reply = await rpc(url, "SubscribeToTask", { id: done.id });
    expect(reply.body.error.code).toBe(-32004);
  });

  it("sends the snapshot and closes only at a terminal state: a paused task's subscription follows the resumed run", async () => {
    const url = await serve(async (ctx, text) =>
      text === "x" ? { output: "?", status: "WAITING_USER" } : { output: `got ${text} on ${ctx.taskId}` },
    );
    const paused = (await result(url, "SendMessage", { message: userMessage("x") })).task;
    const stream = await openStream(url, "SubscribeToTask", { id: paused.id });
    expect((await stream.next()).result.task.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    const resumed = (await result(url, "SendMessage", { message: userMessage("y", { taskId: paused.id }) })).task;
    expect(resumed.status.state).toBe("TASK_STATE_COMPLETED");
    const rest = await stream.rest();
    expect(rest.map(frameStateOf).filter(Boolean)).toEqual(["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]);
    expect(rest.at(-1).result.statusUpdate.status.message.parts[0].text).toBe(`got y on ${paused.id}`);
  });

  it("gives every subscriber the same events in the same order", async () => {
    const step = deferred();
    const url = await serve(async (ctx) => {
      await step.promise;
      for (const word of ["one", "two", "three"])
        await ctx.taskUpdater.addArtifact([textPart(word)], { artifactId: word });
      return { output: "done" };
    });
    const task = (
      await result(url, "SendMessage", { message: userMessage("x"), configuration: { returnImmediately: true } })
    ).task;
    const a = await openStream(url, "SubscribeToTask", { id: task.id });
    const b = await openStream(url, "SubscribeToTask", { id: task.id });
    await Promise.all([a.next(), b.next()]);
    step.resolve();
    const [restA, restB] = await Promise.all([a.rest(), b.rest()]);
    const shape = (frames: { result: unknown }[]) => frames.map((f) => JSON.stringify(f.result));
    expect(shape(restA)).toEqual(shape(restB));
    expect(restA.length).toBe(5);
  });
});

describe("tenants", () => {
  it("keeps tasks of one tenant invisible to another", async () => {
    const url = await serve(async () => ({ output: "ok" }));
    const t1 = { ...V1, "X-NovaOS-Tenant-Id": "tenant-1" };
    const t2 = { ...V1, "X-NovaOS-Tenant-Id": "tenant-2" };
    const created = (await rpc(url, "SendMessage", { message: userMessage("x") }, t1)).body.result.task;
    expect((await rpc(url, "GetTask", { id: created.id }, t1)).body.result.id).toBe(created.id);
    expect((await rpc(url, "GetTask", { id: created.id }, t2)).body.error.code).toBe(-32001);
    expect((await rpc(url, "GetTask", { id: created.id, tenant: "other" }, t1)).body.error.code).toBe(-32001);
    expect((await rpc(url, "ListTasks", {}, t2)).body.result.totalSize).toBe(0);
    expect((await rpc(url, "CancelTask", { id: created.id }, t2)).body.error.code).toBe(-32001);
  });
});

describe("capabilities", () => {
  it("answers the streaming methods with -32004 when streaming is off", async () => {
    const url = await serve(async () => ({ output: "ok" }), { streaming: false });
    expect((await rpc(url, "SendStreamingMessage", { message: userMessage("x") })).body.error.code).toBe(-32004);
    expect((await rpc(url, "SubscribeToTask", { id: "x" })).body.error.code).toBe(-32004);
    expect((await rpc(url, "SendMessage", { message: userMessage("x") })).body.result.task).toBeDefined();
  });

  it("answers GetExtendedAgentCard per spec: -32004 without one, the card with one, -32007 when the provider has none", async () => {
    const plain = await serve(async () => ({ output: "ok" }));
    expect((await rpc(plain, "GetExtendedAgentCard", {})).body.error.code).toBe(-32004);
    const card = create(AgentCardSchema, { name: "extended", version: "2", description: "for members" });
    const withCard = await serve(async () => ({ output: "ok" }), { extendedAgentCard: card });
    expect((await result(withCard, "GetExtendedAgentCard", {})).name).toBe("extended");
    const missing = await serve(async () => ({ output: "ok" }), { extendedAgentCard: () => undefined });
    expect((await rpc(missing, "GetExtendedAgentCard", {})).body.error.code).toBe(-32007);
  });

  it("refuses with -32005 when the caller accepts none of the skill's output modes or sends a part it does not take", async () => {
    const url = await serve(
      async () => ({ output: "ok" }),
      {},
      { outputModes: ["text/plain"], inputModes: ["text/*"] },
    );
    const accepted = await rpc(url, "SendMessage", {
      message: userMessage("x"),
      configuration: { acceptedOutputModes: ["image/png"] },
    });
    expect(accepted.body.error.code).toBe(-32005);
    const wildcard = await rpc(url, "SendMessage", {
      message: userMessage("x"),
      configuration: { acceptedOutputModes: ["*/*"] },
    });
    expect(wildcard.body.result.task.status.state).toBe("TASK_STATE_COMPLETED");
    const part = await rpc(url, "SendMessage", {
      message: { ...userMessage("x"), parts: [{ url: "https://x/y.png", mediaType: "image/png" }] },
    });
    expect(part.body.error.code).toBe(-32005);
  });
});
