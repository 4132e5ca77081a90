/**
 * The execution harness, rule by rule, over real sockets (harness rules 1–8,
 * docs/architecture.md).
 */
import { afterEach, describe, expect, it } from "vitest";
import { TaskState } from "../../gen/a2a_pb.js";
import { platformContextMetadata } from "../../src/messages/platform-context.js";
import { ContextVar, runInNewScope } from "../../src/runtime/context-var.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { scopeOf } from "../../src/server/agent-request-handler.js";
import { ANONYMOUS_CALLER } from "../../src/server/auth/caller-identity.js";
import { CancelledError } from "../../src/server/cancellation.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";
import { STREAM_BACKLOG, TaskSealedError, textPart } from "../../src/server/task-updater.js";
import {
  deferred,
  frameStateOf,
  openStream,
  type RunningServer,
  result,
  rpc,
  serveAgent,
  userMessage,
} from "./support/agent-server.js";

const quiet = { logger: createLogger({ level: "silent" }) };
const DEFAULT_SCOPE = scopeOf("", ANONYMOUS_CALLER);

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function newAgent(store = new InMemoryTaskStore()) {
  return new AgentBuilder({ name: "harness", version: "1.0.0", taskStore: store, ...quiet });
}

describe("harness rule 1: CancelTask writes CANCELED first, then preempts", () => {
  it("stores CANCELED before the skill's signal aborts; the skill's later writes and its result change nothing", async () => {
    const agent = newAgent();
    const started = deferred<string>();
    const stateAtAbort = deferred<TaskState | undefined>();
    const laterWrite = deferred<unknown>();
    const returned = deferred();
    agent.skill("slow", async (ctx) => {
      ctx.signal.addEventListener("abort", () => {
        stateAtAbort.resolve(agent.requestHandler().liveTasks.get(ctx.taskId, DEFAULT_SCOPE)?.task.status?.state);
      });
      started.resolve(ctx.taskId);
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      await ctx.taskUpdater.complete("too late").catch((error: unknown) => laterWrite.resolve(error));
      returned.resolve();
      return { output: "finished anyway" };
    });
    running = await serveAgent(agent);
    const stream = await openStream(running.url, "SendStreamingMessage", { message: userMessage("go") });
    expect(frameStateOf(await stream.next())).toBe("TASK_STATE_SUBMITTED");
    expect(frameStateOf(await stream.next())).toBe("TASK_STATE_WORKING");
    const taskId = await started.promise;

    const canceled = await result(running.url, "CancelTask", { id: taskId });
    expect(canceled.status.state).toBe("TASK_STATE_CANCELED");
    expect(await stateAtAbort.promise).toBe(TaskState.CANCELED);
    const error = await laterWrite.promise;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).reason).toBe("cancel-task");

    // The stream ends on the CANCELED frame.
    const rest = await stream.rest();
    expect(rest.map(frameStateOf)).toEqual(["TASK_STATE_CANCELED"]);
    await returned.promise;
    expect((await result(running.url, "GetTask", { id: taskId })).status.state).toBe("TASK_STATE_CANCELED");
  });

  it("rejects the skill's pending awaits on SDK calls (secrets) once canceled", async () => {
    const never = new Promise<string | undefined>(() => undefined);
    const agent = new AgentBuilder({
      name: "harness",
      secrets: { getSecret: () => never, deliveredNames: () => [] },
      ...quiet,
    });
    const started = deferred<string>();
    const pending = deferred<unknown>();
    agent.skill("waits-on-secret", async (ctx) => {
      started.resolve(ctx.taskId);
      await ctx.getSecret("API_KEY").catch((error: unknown) => pending.resolve(error));
      return { output: "unreachable" };
    });
    running = await serveAgent(agent);
    const send = rpc(running.url, "SendMessage", { message: userMessage("go") });
    const taskId = await started.promise;
    await result(running.url, "CancelTask", { id: taskId });
    expect(await pending.promise).toBeInstanceOf(CancelledError);
    expect((await send).body.result.task.status.state).toBe("TASK_STATE_CANCELED");
  });

  it("answers -32002 for a terminal task, -32001 for an unknown one, and the same CANCELED task twice", async () => {
    const agent = newAgent();
    const gate = deferred();
    agent.skill("echo", async (_ctx, text) => {
      if (text === "wait") await gate.promise;
      return { output: text };
    });
    running = await serveAgent(agent);
    const done = await result(running.url, "SendMessage", { message: userMessage("hi") });
    const notCancelable = await rpc(running.url, "CancelTask", { id: done.task.id });
    expect(notCancelable.body.error.code).toBe(-32002);
    expect(notCancelable.body.error.data[0].reason).toBe("TASK_NOT_CANCELABLE");

    expect((await rpc(running.url, "CancelTask", { id: "no-such-task" })).body.error.code).toBe(-32001);

    const live = await result(running.url, "SendMessage", {
      message: userMessage("wait"),
      configuration: { returnImmediately: true },
    });
    const first = await result(running.url, "CancelTask", { id: live.task.id });
    const second = await result(running.url, "CancelTask", { id: live.task.id });
    expect(first.status.state).toBe("TASK_STATE_CANCELED");
    expect(second).toEqual(first);
    gate.resolve();
  });
});

describe("harness rule 2: a cancellation nobody asked for writes nothing", () => {
  it("SendMessage returns the non-terminal snapshot", async () => {
    const agent = newAgent();
    agent.skill("gives-up", async (ctx) => {
      await ctx.taskUpdater.startWork("half way");
      throw new DOMException("gave up", "AbortError");
    });
    running = await serveAgent(agent);
    const reply = await result(running.url, "SendMessage", { message: userMessage("go") });
    expect(reply.task.status.state).toBe("TASK_STATE_WORKING");
    expect(reply.task.status.message.parts[0].text).toBe("half way");
    expect((await result(running.url, "GetTask", { id: reply.task.id })).status.state).toBe("TASK_STATE_WORKING");
  });

  it("the SSE response ends cleanly with no terminal frame", async () => {
    const agent = newAgent();
    agent.skill("gives-up", async () => {
      throw new CancelledError("superseded", "the skill's own timeout");
    });
    running = await serveAgent(agent);
    const stream = await openStream(running.url, "SendStreamingMessage", { message: userMessage("go") });
    const frames = [await stream.next(), ...(await stream.rest())];
    expect(frames.map(frameStateOf)).toEqual(["TASK_STATE_SUBMITTED", "TASK_STATE_WORKING"]);
    expect(stream.eventTypes).not.toContain("error");
    expect(frames.every((f) => f.result !== undefined)).toBe(true);
  });
});

describe("harness rule 3: a dropped request detaches", () => {
  it("the skill runs on, GetTask says WORKING, SubscribeToTask reattaches and sees the terminal frame", async () => {
    const agent = newAgent();
    const gate = deferred();
    const started = deferred<string>();
    const sawAbort = deferred<boolean>();
    agent.skill("long", async (ctx) => {
      started.resolve(ctx.taskId);
      await gate.promise;
      sawAbort.resolve(ctx.signal.aborted);
      await ctx.taskUpdater.addArtifact([
        { $typeName: "lf.a2a.v1.Part", content: { case: "text", value: "late chunk" }, filename: "", mediaType: "" },
      ]);
      return { output: "done" };
    });
    running = await serveAgent(agent);
    const stream = await openStream(running.url, "SendStreamingMessage", { message: userMessage("go") });
    await stream.next();
    const taskId = await started.promise;
    stream.abort();
    await running.responseClosed(1);

    expect((await result(running.url, "GetTask", { id: taskId })).status.state).toBe("TASK_STATE_WORKING");
    const watcher = await openStream(running.url, "SubscribeToTask", { id: taskId });
    const first = await watcher.next();
    expect(first.result.task.status.state).toBe("TASK_STATE_WORKING");
    gate.resolve();
    const rest = await watcher.rest();
    expect(rest.map((f) => (f.result.artifactUpdate ? "artifact" : frameStateOf(f)))).toEqual([
      "artifact",
      "artifact",
      "TASK_STATE_COMPLETED",
    ]);
    expect(await sawAbort.promise).toBe(false);
    const task = await result(running.url, "GetTask", { id: taskId });
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
  });

  it("a blocking SendMessage whose caller hangs up leaves the task running, not canceled", async () => {
    const agent = newAgent();
    const gate = deferred();
    const started = deferred<string>();
    agent.skill("long", async (ctx) => {
      started.resolve(ctx.taskId);
      await gate.promise;
      return { output: "done" };
    });
    running = await serveAgent(agent);
    const controller = new AbortController();
    const send = fetch(running.url, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: userMessage("go") } }),
      signal: controller.signal,
    }).catch(() => undefined);
    const taskId = await started.promise;
    controller.abort();
    await send;
    await running.responseClosed(1);
    expect((await result(running.url, "GetTask", { id: taskId })).status.state).toBe("TASK_STATE_WORKING");
    const watcher = await openStream(running.url, "SubscribeToTask", { id: taskId });
    await watcher.next();
    gate.resolve();
    expect((await watcher.rest()).map(frameStateOf).at(-1)).toBe("TASK_STATE_COMPLETED");
  });
});

describe("harness rule 4: a new message on a live task supersedes its execution", () => {
  it("preempts the old skill and revokes its updater; only the new run writes", async () => {
    const agent = newAgent();
    const firstStarted = deferred<string>();
    const firstPreempted = deferred<unknown>();
    const firstLateWrite = deferred<unknown>();
    let runs = 0;
    agent.skill("chat", async (ctx, text) => {
      const run = ++runs;
      if (run === 1) {
        firstStarted.resolve(ctx.taskId);
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
        firstPreempted.resolve(ctx.signal.reason);
        await ctx.taskUpdater.complete("from the old run").catch((error: unknown) => firstLateWrite.resolve(error));
        return { output: "old" };
      }
      return { output: `new: ${text}` };
    });
    running = await serveAgent(agent);
    const oldStream = await openStream(running.url, "SendStreamingMessage", { message: userMessage("first") });
    await oldStream.next();
    const taskId = await firstStarted.promise;

    const reply = await result(running.url, "SendMessage", { message: userMessage("second", { taskId }) });
    expect(reply.task.id).toBe(taskId);
    expect(reply.task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(reply.task.status.message.parts[0].text).toBe("new: second");

    const reason = await firstPreempted.promise;
    expect(reason).toBeInstanceOf(CancelledError);
    expect((reason as CancelledError).reason).toBe("superseded");
    expect(await firstLateWrite.promise).toBeInstanceOf(CancelledError);
    // The old request's stream ends without a terminal frame of its own.
    expect((await oldStream.rest()).map(frameStateOf)).toEqual(["TASK_STATE_WORKING"]);
    const task = await result(running.url, "GetTask", { id: taskId });
    expect(task.status.message.parts[0].text).toBe("new: second");
    expect(task.history.filter((m: { role: string }) => m.role === "ROLE_USER")).toHaveLength(2);
  });
});

describe("harness rule 5: the skill's own terminal write wins over its SkillResult", () => {
  it("reject() then returning COMPLETED leaves the task REJECTED", async () => {
    const agent = newAgent();
    const sealed = deferred<unknown>();
    agent.skill("decides", async (ctx) => {
      await ctx.taskUpdater.reject("not doing this");
      await ctx.taskUpdater.startWork().catch((error: unknown) => sealed.resolve(error));
      return { output: "ok", status: "COMPLETED" };
    });
    running = await serveAgent(agent);
    const reply = await result(running.url, "SendMessage", { message: userMessage("go") });
    expect(reply.task.status.state).toBe("TASK_STATE_REJECTED");
    expect(reply.task.status.message.parts[0].text).toBe("not doing this");
    expect(reply.task.artifacts).toBeUndefined();
    expect(await sealed.promise).toBeInstanceOf(TaskSealedError);
  });
});

describe("harness rule 6: context values set in the skill reach the caller; the skill stays cancellable", () => {
  const tenant = new ContextVar<string>("tenant");

  it("over the request handler, in process", async () => {
    const agent = newAgent();
    agent.skill("sets", async () => {
      tenant.set("set-in-skill");
      return { output: "ok" };
    });
    const handler = agent.requestHandler();
    const seen = await runInNewScope(async () => {
      tenant.set("before");
      const { create } = await import("@bufbuild/protobuf");
      const { SendMessageRequestSchema, MessageSchema, PartSchema, Role } = await import("../../gen/a2a_pb.js");
      await handler.sendMessage(
        create(SendMessageRequestSchema, {
          message: create(MessageSchema, {
            messageId: "m",
            role: Role.USER,
            parts: [create(PartSchema, { content: { case: "text", value: "x" } })],
          }),
        }),
        {
          binding: "JSONRPC",
          headers: { "A2A-Version": "1.0" },
          // In process there is no socket to tell where the call comes from: the call names its caller.
          identity: ANONYMOUS_CALLER,
          signal: new AbortController().signal,
          responseHeaders: new Headers(),
        },
      );
      return tenant.get();
    });
    expect(seen).toBe("set-in-skill");
    expect(tenant.get()).toBeUndefined();
  });

  it("over a socket, to the code around the listener, while CancelTask still preempts", async () => {
    const agent = newAgent();
    const started = deferred<string>();
    agent.skill("sets", async (ctx, text) => {
      tenant.set(`skill:${text}`);
      if (text === "cancel-me") {
        started.resolve(ctx.taskId);
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      }
      return { output: "ok" };
    });
    const seen: (string | undefined)[] = [];
    running = await serveAgent(agent, {
      wrap: (listener) => (req, res) =>
        void runInNewScope(async () => {
          await listener(req, res);
          seen.push(tenant.get());
        }),
    });
    await result(running.url, "SendMessage", { message: userMessage("one") });
    expect(seen).toEqual(["skill:one"]);

    const send = result(running.url, "SendMessage", { message: userMessage("cancel-me") });
    const taskId = await started.promise;
    await result(running.url, "CancelTask", { id: taskId });
    expect((await send).task.status.state).toBe("TASK_STATE_CANCELED");
  });
});

describe("harness rule 7: task ids from runId; references within the context", () => {
  it("seeds a new task's id from the platform runId when the caller gave none", async () => {
    const agent = newAgent();
    agent.skill("echo", async (ctx) => ({ output: ctx.runId }));
    running = await serveAgent(agent);
    const reply = await result(running.url, "SendMessage", {
      message: userMessage("go"),
      metadata: platformContextMetadata({ runId: "run-42" }),
    });
    expect(reply.task.id).toBe("run-42");
    expect(reply.task.status.message.parts[0].text).toBe("run-42");
  });

  it("resolves referenceTaskIds only within the same context", async () => {
    const agent = newAgent();
    let seen: { resolved: string[]; unresolved: string[] } | undefined;
    agent.skill("refs", async (ctx) => {
      seen = {
        resolved: ctx.referencedTasks.map((t) => t.id),
        unresolved: [...ctx.unresolvedReferenceTaskIds],
      };
      return { output: "ok" };
    });
    running = await serveAgent(agent);
    const sameContext = await result(running.url, "SendMessage", { message: userMessage("a", { contextId: "ctx-1" }) });
    const otherContext = await result(running.url, "SendMessage", {
      message: userMessage("b", { contextId: "ctx-2" }),
    });
    await result(running.url, "SendMessage", {
      message: userMessage("c", {
        contextId: "ctx-1",
        referenceTaskIds: [sameContext.task.id, otherContext.task.id, "unknown"],
      }),
    });
    expect(seen).toEqual({ resolved: [sameContext.task.id], unresolved: [otherContext.task.id, "unknown"] });
  });
});

describe("harness rule 8: streams", () => {
  it("lets the stream drain while a skill writes: unread events stay bounded, every event arrives in order", async () => {
    const agent = newAgent();
    const count = 3 * STREAM_BACKLOG;
    let mostUnread = 0;
    agent.skill("flood", async (ctx) => {
      for (let i = 0; i < count; i++) {
        await ctx.taskUpdater.addArtifact([textPart(String(i))], { artifactId: "a", append: i > 0 });
        const live = agent.requestHandler().liveTasks.get(ctx.taskId, DEFAULT_SCOPE);
        mostUnread = Math.max(mostUnread, live?.backlog ?? 0);
      }
      return { output: "done" };
    });
    running = await serveAgent(agent);
    const frames = await (await openStream(running.url, "SendStreamingMessage", { message: userMessage("go") })).rest();
    const chunks = frames
      .filter((f) => f.result?.artifactUpdate?.artifact.artifactId === "a")
      .map((f) => f.result.artifactUpdate.artifact.parts[0].text);
    expect(chunks).toEqual(Array.from({ length: count }, (_, i) => String(i)));
    expect(mostUnread).toBeGreaterThan(0);
    expect(mostUnread).toBeLessThanOrEqual(STREAM_BACKLOG);
  });

  it("streams and stores what the skill wrote, even when it reuses its parts array afterwards", async () => {
    const agent = newAgent();
    agent.skill("reuse", async (ctx) => {
      const parts = [textPart("first")];
      await ctx.taskUpdater.addArtifact(parts, { artifactId: "a" });
      const message = ctx.taskUpdater.newAgentMessage(parts);
      parts[0] = textPart("overwritten");
      parts.push(textPart("appended"));
      await ctx.taskUpdater.updateStatus(TaskState.COMPLETED, message);
      return { output: "ignored" };
    });
    running = await serveAgent(agent);
    const frames = await (await openStream(running.url, "SendStreamingMessage", { message: userMessage("go") })).rest();
    const update = frames.find((f) => f.result?.artifactUpdate)?.result.artifactUpdate;
    expect(update.artifact.parts).toEqual([{ text: "first" }]);
    const done = frames.at(-1).result.statusUpdate;
    expect(done.status.message.parts).toEqual([{ text: "first" }]);
    const task = await result(running.url, "GetTask", { id: done.taskId });
    expect(task.artifacts[0].parts).toEqual([{ text: "first" }]);
    expect(task.status.message.parts).toEqual([{ text: "first" }]);
  });

  it("answers an early error as a normal JSON-RPC error, not SSE", async () => {
    const agent = newAgent();
    agent.skill("echo", async () => ({ output: "x" }));
    running = await serveAgent(agent);
    const stream = await openStream(running.url, "SendStreamingMessage", {
      message: userMessage("go", { taskId: "no-such-task" }),
    });
    expect(stream.contentType).toBe("application/json");
    const reply = await stream.next().catch(() => undefined);
    expect(reply).toBeUndefined();
    const plain = await rpc(running.url, "SendStreamingMessage", {
      message: userMessage("go", { taskId: "no-such-task" }),
    });
    expect(plain.headers.get("content-type")).toBe("application/json");
    expect(plain.body.error.code).toBe(-32001);
  });

  it("sends every frame as a JSON-RPC response envelope echoing the request id", async () => {
    const agent = newAgent();
    agent.skill("chunks", async (ctx) => {
      for (const word of ["a", "b", "c"]) {
        await ctx.taskUpdater.addArtifact(
          [{ $typeName: "lf.a2a.v1.Part", content: { case: "text", value: word }, filename: "", mediaType: "" }],
          { artifactId: "words", append: word !== "a" },
        );
      }
      return { output: "done" };
    });
    running = await serveAgent(agent);
    const res = await fetch(running.url, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "req-7",
        method: "SendStreamingMessage",
        params: { message: userMessage("go") },
      }),
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const text = await res.text();
    const events = text.split("\n\n").filter(Boolean);
    expect(events.length).toBe(7);
    for (const event of events) {
      expect(event.startsWith("data: ")).toBe(true);
      const envelope = JSON.parse(event.slice("data: ".length));
      expect(envelope).toMatchObject({ jsonrpc: "2.0", id: "req-7" });
      expect(envelope.result).toBeDefined();
    }
  });
});
