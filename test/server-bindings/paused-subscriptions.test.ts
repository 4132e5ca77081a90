/**
 * Spec §3.1.6: SubscribeToTask "can be used with any task that is not in a
 * terminal state" and "MUST terminate when the task reaches a terminal
 * state". A subscription to a paused task stays open; the follow-up, sent on
 * another connection, resumes the task and its run streams to every open
 * subscriber up to the terminal state, where each stream ends. Leaving lets
 * the task go. Per binding, over real sockets, each caller on its own
 * connection.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type BindingDriver, grpcDriver, httpJsonDriver, jsonRpcDriver } from "./support/binding-drivers.js";

let agent: AgentBuilder;
let server: AgentServer;
beforeAll(async () => {
  agent = new AgentBuilder({ name: "paused", logger: createLogger({ level: "silent" }) });
  agent.skill("ask", async (ctx, text) => {
    if (text === "question") return { output: "Which colour?", status: "WAITING_USER" };
    await ctx.taskUpdater.startWork(`painting it ${text}`);
    return { output: `painted ${text}` };
  });
  server = await listen(agent, { port: 0, grpcPort: 0 });
});
afterAll(() => server.close());

const DRIVERS: Record<string, () => BindingDriver> = {
  JSONRPC: () => jsonRpcDriver(server.url),
  "HTTP+JSON": () => httpJsonDriver(server.url),
  GRPC: () => grpcDriver(server.grpcTarget as string),
};

// biome-ignore lint/suspicious/noExplicitAny: wire JSON is inspected freely.
type Json = any;

function stateOf(frame: Json): string {
  if (frame.task) return `task ${frame.task.status.state}`;
  if (frame.statusUpdate) return `status ${frame.statusUpdate.status.state}`;
  if (frame.artifactUpdate) return `artifact ${frame.artifactUpdate.artifact.parts[0].text}`;
  return "message";
}

async function rest(frames: AsyncIterableIterator<JsonObject>): Promise<string[]> {
  const out: string[] = [];
  for await (const frame of frames) out.push(stateOf(frame));
  return out;
}

let unique = 0;
const message = (text: string, taskId?: string) => ({
  message: { messageId: `p-${++unique}`, role: "ROLE_USER", parts: [{ text }], ...(taskId ? { taskId } : {}) },
});

describe.each(Object.keys(DRIVERS))("SubscribeToTask on a paused task over %s", (name) => {
  const connections: BindingDriver[] = [];
  const connect = () => {
    const driver = (DRIVERS[name] as () => BindingDriver)();
    connections.push(driver);
    return driver;
  };
  afterAll(() => {
    for (const d of connections) d.close();
  });

  it("stays open at INPUT_REQUIRED; the follow-up from another connection streams to every subscriber up to COMPLETED", async () => {
    const caller = connect();
    const { task } = (await caller.call("SendMessage", message("question"))) as Json;
    expect(task.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    const subscribers = [
      connect().stream("SubscribeToTask", { id: task.id }),
      connect().stream("SubscribeToTask", { id: task.id }),
    ];
    for (const s of subscribers) expect(stateOf((await s.next()).value)).toBe("task TASK_STATE_INPUT_REQUIRED");

    const resumed = (await connect().call("SendMessage", message("blue", task.id))) as Json;
    expect(resumed.task.status.state).toBe("TASK_STATE_COMPLETED");
    const expected = [
      "status TASK_STATE_WORKING",
      "status TASK_STATE_WORKING",
      "artifact painted blue",
      "status TASK_STATE_COMPLETED",
    ];
    expect(await Promise.all(subscribers.map(rest))).toEqual([expected, expected]);
    // Both streams ended at COMPLETED, and the task is no longer held.
    expect(agent.requestHandler().liveTasks.get(task.id, "0:")).toBeUndefined();
  });

  it("lets go of a paused task when its only subscriber leaves, and the task stays paused", async () => {
    const { task } = (await connect().call("SendMessage", message("question"))) as Json;
    const subscription = connect().stream("SubscribeToTask", { id: task.id });
    await subscription.next();
    const handler = agent.requestHandler();
    expect(handler.liveTasks.get(task.id, "0:")).toBeDefined();
    await subscription.return?.();
    await expect.poll(() => handler.liveTasks.get(task.id, "0:"), { timeout: 10_000 }).toBeUndefined();
    expect(((await connect().call("GetTask", { id: task.id })) as Json).status.state).toBe("TASK_STATE_INPUT_REQUIRED");
  });

  it("ends the subscription of a paused task that is canceled, with the CANCELED frame last", async () => {
    const { task } = (await connect().call("SendMessage", message("question"))) as Json;
    const subscription = connect().stream("SubscribeToTask", { id: task.id });
    await subscription.next();
    await connect().call("CancelTask", { id: task.id });
    expect(await rest(subscription)).toEqual(["status TASK_STATE_CANCELED"]);
  });
});
