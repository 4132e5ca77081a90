/**
 * Nothing is left behind after a request ends, however it ends: many
 * streams hang up mid-task, their skills finish detached, and afterwards no
 * execution, subscription, timer or socket remains.
 */
import http from "node:http";
import { describe, expect, it } from "vitest";
import { TaskState } from "../../gen/a2a_pb.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { scopeOf } from "../../src/server/agent-request-handler.js";
import { ANONYMOUS_CALLER } from "../../src/server/auth/caller-identity.js";
import { deferred, serveAgent, userMessage } from "./support/agent-server.js";

const STREAMS = 60;

/** Opens a stream with a non-pooled socket, reads its first event, then hangs up. */
function openAndHangUp(url: string, text: string): Promise<void> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/",
        agent: false,
        headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      },
      (res) => {
        let seen = "";
        res.on("data", (chunk: Buffer) => {
          seen += chunk.toString("utf8");
          if (seen.includes("\n\n")) {
            req.destroy();
            resolve();
          }
        });
        res.on("error", () => undefined);
      },
    );
    req.on("error", (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: userMessage(text) } }),
    );
  });
}

function activeResources(kind: string): number {
  return process.getActiveResourcesInfo().filter((r) => r === kind).length;
}

describe("no leak after disconnecting streams", () => {
  it("leaves no live execution, subscription, timer or socket once the detached skills finish", async () => {
    const agent = new AgentBuilder({ name: "leaky", logger: createLogger({ level: "silent" }) });
    const gate = deferred();
    let running = 0;
    const allStarted = deferred();
    agent.skill("slow", async (ctx) => {
      if (++running === STREAMS) allStarted.resolve();
      await gate.promise;
      await ctx.taskUpdater.addArtifact([
        { $typeName: "lf.a2a.v1.Part", content: { case: "text", value: "late" }, filename: "", mediaType: "" },
      ]);
      return { output: "done" };
    });
    const server = await serveAgent(agent);
    const handler = agent.requestHandler();
    const timersBefore = activeResources("Timeout");
    const socketsBefore = activeResources("TCPSocketWrap");

    await Promise.all(Array.from({ length: STREAMS }, (_, i) => openAndHangUp(server.url, `s${i}`)));
    await allStarted.promise;
    await Promise.all(Array.from({ length: STREAMS }, (_, i) => server.responseClosed(i + 1)));

    // Detached: every skill still runs, nobody is subscribed any more.
    expect(handler.liveTasks.size).toBe(STREAMS);
    expect(handler.liveTasks.subscriptionCount).toBe(0);

    gate.resolve();
    await handler.whenIdle();
    expect(handler.liveTasks.size).toBe(0);
    expect(handler.liveTasks.subscriptionCount).toBe(0);

    // Every outcome was recorded (read in process: a pooled client socket would muddy the socket count).
    const stored = (
      await agent.taskStore.list(scopeOf("", ANONYMOUS_CALLER), {
        owner: "",
        contextId: "",
        status: TaskState.UNSPECIFIED,
        statusTimestampAfter: undefined,
        after: undefined,
        pageSize: STREAMS,
        includeArtifacts: true,
      })
    ).tasks.map((stored) => stored.task);
    expect(stored).toHaveLength(STREAMS);
    expect(stored.every((t) => t.status?.state === TaskState.COMPLETED && t.artifacts.length === 2)).toBe(true);

    await server.close();
    expect(activeResources("Timeout")).toBeLessThanOrEqual(timersBefore);
    expect(activeResources("TCPSocketWrap")).toBeLessThanOrEqual(socketsBefore);
  });
});
