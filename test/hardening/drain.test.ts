/**
 * Attack family: shutting down under load. `AgentServer.close()` cut every
 * connection, so blocking calls in flight were reset (20/20 ECONNRESET while
 * their skills finished, the results lost), and SIGTERM to `npm run
 * example:agent` killed npm and left the agent running. `close({ drainMs })`
 * stops accepting, answers what is in flight, lets running skills finish, and
 * fails (and answers) what is still running at the deadline; the example
 * agent drains on SIGTERM and exits.
 */

import { spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { A2AService, type StreamResponse, TaskState } from "../../gen/a2a_pb.js";
import { frameState, isLastFrame } from "../../src/a2a/stream-frame.js";
import { Client } from "../../src/client/client.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { CancelledError } from "../../src/server/cancellation.js";
import { userMessage } from "./support.js";

const V1 = { "A2A-Version": "1.0", "content-type": "application/json" };

/** An agent whose `hold` skill waits until released (or preempted), counting the runs holding. */
function holdingAgent() {
  const releases: (() => void)[] = [];
  const held: ((count: number) => void)[] = [];
  const preempted: unknown[] = [];
  const agent = new AgentBuilder({ name: "draining", logger: createLogger({ level: "silent" }) });
  agent.skill("echo", async (_ctx, text) => ({ output: text }));
  agent.skill("hold", async (ctx) => {
    await ctx.taskUpdater.startWork("holding");
    const released = new Promise<void>((resolve) => releases.push(resolve));
    for (const notify of held) notify(releases.length);
    const aborted = new Promise<void>((resolve) =>
      ctx.signal.addEventListener("abort", () => {
        preempted.push(ctx.signal.reason);
        resolve();
      }),
    );
    await Promise.race([released, aborted]);
    return { output: "released" };
  });
  const releaseAll = () => {
    for (const release of releases) release();
  };
  holders.push(releaseAll);
  return {
    agent,
    preempted,
    releaseAll,
    /** Resolves once `n` runs are holding. */
    holding: (n: number) =>
      new Promise<void>((resolve) => {
        if (releases.length >= n) resolve();
        else held.push((count) => count >= n && resolve());
      }),
  };
}

let server: AgentServer | undefined;
const sessions: Http2SessionManager[] = [];
/** Skills a failed test left holding, released so its server can close. */
const holders: (() => void)[] = [];
afterEach(async () => {
  for (const release of holders.splice(0)) release();
  await server?.close();
  server = undefined;
  for (const s of sessions.splice(0)) s.abort();
});

function grpcClient(target: string) {
  const baseUrl = `http://${target}`;
  const sessionManager = new Http2SessionManager(baseUrl);
  sessions.push(sessionManager);
  return createClient(A2AService, createGrpcTransport({ baseUrl, sessionManager }));
}

/** A blocking SendMessage to `hold` on `binding`; resolves to the state of the task it answers. */
function blockingCall(running: AgentServer, binding: "JSONRPC" | "HTTP+JSON" | "GRPC"): Promise<string> {
  const message = JSON.parse(userMessage("wait", { skillId: "hold" }));
  if (binding === "GRPC") {
    return grpcClient(running.grpcTarget as string)
      .sendMessage(
        { message: { ...message, role: 1, parts: [{ content: { case: "text", value: "wait" } }] } },
        {
          headers: { "A2A-Version": "1.0" },
        },
      )
      .then((reply) =>
        reply.payload.case === "task" ? (TaskState[reply.payload.value.status?.state ?? 0] ?? "?") : "?",
      );
  }
  const [url, body] =
    binding === "JSONRPC"
      ? [running.url, { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } }]
      : [`${running.url}message:send`, { message }];
  return fetch(url, { method: "POST", headers: V1, body: JSON.stringify(body) })
    .then((r) => r.json())
    .then((json) => (json.result?.task ?? json.task).status.state.replace("TASK_STATE_", ""));
}

/** The last frame of a stream read to its end. */
async function lastFrame(frames: AsyncIterable<StreamResponse>): Promise<StreamResponse | undefined> {
  let last: StreamResponse | undefined;
  for await (const frame of frames) last = frame;
  return last;
}

/** Whether a new connection to `port` is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe("AgentServer.close({ drainMs })", () => {
  it("answers 20 blocking calls in flight on all three bindings, and streams end on their last frame", async () => {
    const { agent, holding, releaseAll } = holdingAgent();
    server = await listen(agent, { port: 0, grpcPort: 0 });
    const running = server;
    const bindings = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;
    const calls = Array.from({ length: 20 }, (_, i) =>
      blockingCall(running, bindings[i % 3] as (typeof bindings)[number]),
    );
    await using sse = new Client({ baseUrl: running.url });
    await using grpc = new Client({
      transports: [grpcTransport()],
      baseUrl: `http://${running.grpcTarget}`,
      binding: "GRPC",
    });
    const streams = [sse, grpc].map((client) => lastFrame(client.sendStreamingMessage("wait", { skillId: "hold" })));
    await holding(22);
    const closing = running.close({ drainMs: 60_000 });
    // The ports stop accepting at once; what is in flight goes on.
    expect(await refused(running.port)).toBe(true);
    expect(await refused(running.grpcPort as number)).toBe(true);
    releaseAll();
    expect(await Promise.all(calls)).toEqual(Array(20).fill("COMPLETED"));
    for (const last of await Promise.all(streams)) {
      expect(last && isLastFrame(last) && frameState(last)).toBe(TaskState.COMPLETED);
    }
    await closing;
    // The outcomes were stored: served again, the agent lists 22 completed tasks.
    server = await listen(agent, { port: 0 });
    const listed = await (
      await fetch(server.url, {
        method: "POST",
        headers: V1,
        body: '{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}',
      })
    ).json();
    expect(listed.result.tasks.map((t: { status: { state: string } }) => t.status.state)).toEqual(
      Array(22).fill("TASK_STATE_COMPLETED"),
    );
  });

  it("fails a skill still running at the deadline: its caller and its streams get the FAILED task", async () => {
    const { agent, holding, preempted } = holdingAgent();
    server = await listen(agent, { port: 0, grpcPort: 0 });
    const running = server;
    const blocking = blockingCall(running, "JSONRPC");
    await using sse = new Client({ baseUrl: running.url });
    await using grpc = new Client({
      transports: [grpcTransport()],
      baseUrl: `http://${running.grpcTarget}`,
      binding: "GRPC",
    });
    const streams = [sse, grpc].map((client) => lastFrame(client.sendStreamingMessage("wait", { skillId: "hold" })));
    await holding(3);
    await running.close({ drainMs: 100 });
    expect(await blocking).toBe("FAILED");
    for (const last of await Promise.all(streams)) {
      expect(last && isLastFrame(last)).toBe(true);
      const status = last?.payload.case === "statusUpdate" ? last.payload.value.status : undefined;
      expect(status?.state).toBe(TaskState.FAILED);
      const text = status?.message?.parts[0]?.content;
      expect(text?.case === "text" && text.value).toBe("The agent shut down before the skill finished");
    }
    // Each skill was told why it stopped.
    expect(preempted).toHaveLength(3);
    for (const reason of preempted) expect((reason as CancelledError).reason).toBe("shutdown");
    expect(preempted[0]).toBeInstanceOf(CancelledError);
  });

  it("answers a request still arriving during the drain with 503 and Connection: close, and closes", async () => {
    const { agent, holding, releaseAll } = holdingAgent();
    server = await listen(agent, { port: 0 });
    const running = server;
    const blocking = blockingCall(running, "JSONRPC");
    await holding(1);
    // A connection whose request is half sent when the drain starts: it is neither idle nor answered yet.
    const socket = net.connect(running.port, "127.0.0.1");
    await once(socket, "connect");
    let reply = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      reply += chunk;
    });
    const body = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":${userMessage("late")}}}`;
    socket.write("POST / HTTP/1.1\r\nHost: x\r\n");
    const closing = running.close({ drainMs: 60_000 });
    socket.write(
      `Content-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await once(socket, "close");
    expect(reply).toMatch(/^HTTP\/1\.1 503 /);
    expect(reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(reply).toMatch(/\r\nretry-after: 1\r\n/i);
    releaseAll();
    expect(await blocking).toBe("COMPLETED");
    await closing;
  });
});

describe("the example agent", () => {
  it("drains on SIGTERM to `npm run example:agent`, answers the call in flight, and exits", async () => {
    const child = spawn("npm", ["run", "--silent", "example:agent"], {
      env: { ...process.env, PORT: "0", DRAIN_MS: "30000" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout.setEncoding("utf8");
    let out = "";
    const started = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
      child.stdout.on("data", (chunk: string) => {
        out += chunk;
        const match = /at (http:\/\/\S+\/) .*\(pid (\d+)\)/.exec(out);
        if (match) resolve({ url: match[1] as string, pid: Number(match[2]) });
      });
      child.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
    const { url } = started;
    // Should the agent not exit, it is ended here rather than left running.
    onTestFinished(() => {
      try {
        process.kill(started.pid, "SIGKILL");
      } catch {
        // Already gone, as it should be.
      }
    });
    // A story takes ~750 ms: it is still being told when the signal comes.
    const story = fetch(url, {
      method: "POST",
      headers: V1,
      body: `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":${userMessage("a fox", { skillId: "storyteller" })}}}`,
    }).then((r) => r.json());
    const listed = await fetch(url, {
      method: "POST",
      headers: V1,
      body: '{"jsonrpc":"2.0","id":2,"method":"ListTasks","params":{}}',
    }).then((r) => r.json());
    expect(listed.result).toBeDefined();
    const stdoutClosed = once(child.stdout, "end");
    child.kill("SIGTERM");
    expect((await story).result.task.status.state).toBe("TASK_STATE_COMPLETED");
    // The agent's end of the pipe closes only when the agent process exits: no orphan keeps it open.
    await stdoutClosed;
    const [code] = await (child.exitCode === null ? once(child, "exit") : [child.exitCode]);
    expect(code).toBe(0);
  }, 60_000);
});
