/**
 * The Fetch adapter on a real socket (@hono/node-server, the way Hono apps
 * run on Node): unary calls, streams, the card, and a client that hangs up
 * mid-stream detaching without canceling the task. A Fetch request does not
 * say where it comes from, so these agents choose an auth mode ("none").
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type Deferred, deferred, frameStateOf, openStream, result, rpc, userMessage } from "./support/agent-server.js";

async function serveFetch(agent: AgentBuilder) {
  const handler = agent.fetchHandler();
  const aborted: Deferred[] = [];
  const server = serve({
    fetch: (request) => {
      const served = handler(request);
      // Registered after the adapter's own listener, so it fires once the adapter has reacted.
      const seen = deferred();
      aborted.push(seen);
      request.signal.addEventListener("abort", () => seen.resolve(), { once: true });
      return served;
    },
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    /** Resolves when the n-th request (1-based) was aborted by its client. */
    requestAborted: (n: number) => aborted[n - 1]?.promise,
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

describe("fetchHandler", () => {
  it("serves unary calls, streams and the card", async () => {
    const agent = new AgentBuilder({ name: "fetchy", auth: "none", logger: createLogger({ level: "silent" }) });
    agent.skill("echo", async (_ctx, text) => ({ output: `echo ${text}` }));
    const server = await serveFetch(agent);
    try {
      const sent = await result(server.url, "SendMessage", { message: userMessage("hi") });
      expect(sent.task.status.message.parts[0].text).toBe("echo hi");
      const stream = await openStream(server.url, "SendStreamingMessage", { message: userMessage("yo") });
      expect(stream.contentType).toBe("text/event-stream");
      const frames = [await stream.next(), ...(await stream.rest())];
      expect(frames.map(frameStateOf).filter(Boolean)).toEqual([
        "TASK_STATE_SUBMITTED",
        "TASK_STATE_WORKING",
        "TASK_STATE_COMPLETED",
      ]);
      expect((await rpc(server.url, "GetTask", { id: "x" }, {})).body.error.code).toBe(-32009);
      const card = await (await fetch(`${server.url}.well-known/agent-card.json`)).json();
      expect(card.supportedInterfaces[0].url).toBe(server.url.replace(/\/$/, ""));
      expect((await fetch(`${server.url}elsewhere`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("detaches a stream whose client hangs up: the skill finishes and its outcome is stored", async () => {
    const agent = new AgentBuilder({ name: "fetchy", auth: "none", logger: createLogger({ level: "silent" }) });
    const gate = deferred();
    const started = deferred<string>();
    agent.skill("slow", async (ctx) => {
      started.resolve(ctx.taskId);
      await gate.promise;
      return { output: "done" };
    });
    const server = await serveFetch(agent);
    try {
      const stream = await openStream(server.url, "SendStreamingMessage", { message: userMessage("go") });
      await stream.next();
      const taskId = await started.promise;
      stream.abort();
      const handler = agent.requestHandler();
      await server.requestAborted(1);
      expect(handler.liveTasks.subscriptionCount).toBe(0);
      expect((await result(server.url, "GetTask", { id: taskId })).status.state).toBe("TASK_STATE_WORKING");
      gate.resolve();
      await handler.whenIdle();
      expect((await result(server.url, "GetTask", { id: taskId })).status.state).toBe("TASK_STATE_COMPLETED");
    } finally {
      await server.close();
    }
  });
});
