import * as net from "node:net";
import { toJson } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { afterEach, describe, expect, it } from "vitest";
import { A2AService, AgentInterfaceSchema } from "../../gen/a2a_pb.js";
import { readSseEvents } from "../../src/a2a/sse.js";
import { listen } from "../../src/node/index.js";
import type { AgentServer } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder, type AgentBuilderOptions } from "../../src/server/agent-builder.js";

const V1 = { "A2A-Version": "1.0" };
const logger = createLogger({ level: "silent" });

let running: AgentServer | undefined;
const sessions: Http2SessionManager[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) s.abort();
  await running?.close();
  running = undefined;
});

function grpcClient(target: string) {
  const baseUrl = `http://${target}`;
  const sessionManager = new Http2SessionManager(baseUrl);
  sessions.push(sessionManager);
  return createClient(A2AService, createGrpcTransport({ baseUrl, sessionManager }));
}

/** Resolvers of the `hold` skill's tasks, by task id, and a way to wait for the next one. */
let held: { taskId: string; release: () => void } | undefined;
let onHeld: () => void = () => undefined;

function buildAgent(options: Pick<AgentBuilderOptions, "auth"> = {}): AgentBuilder {
  const agent = new AgentBuilder({ name: "served", logger, ...options });
  agent.skill("hold", async (ctx) => {
    await new Promise<void>((resolve) => {
      held = { taskId: ctx.taskId, release: resolve };
      onHeld();
    });
    return { output: "released" };
  });
  return agent;
}

const message = { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] };

/** GETs the served card over a raw socket, with exactly this Host (fetch would not send a malformed one). */
function cardOver(
  port: number,
  host: string,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: the card JSON is inspected freely.
): Promise<{ status: number; headers: Record<string, string>; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      const lines = [`GET /.well-known/agent-card.json HTTP/1.1`, `Host: ${host}`, "Connection: close"];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    });
    let raw = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      raw += chunk;
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const [head = "", ...rest] = raw.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = head.split("\r\n");
      const parsed: Record<string, string> = {};
      for (const line of headerLines) {
        const at = line.indexOf(":");
        parsed[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      const text = rest.join("\r\n\r\n");
      const status = Number(statusLine.split(" ")[1]);
      resolve({ status, headers: parsed, body: status === 200 ? JSON.parse(text) : text });
    });
  });
}
const interfacesOf = (server: AgentServer) => server.interfaces.map((i) => toJson(AgentInterfaceSchema, i));

describe("agent.listen: one AgentBuilder over JSON-RPC, HTTP+JSON and gRPC", () => {
  it("serves the three bindings from one handler and one store", async () => {
    const agent = buildAgent();
    running = await listen(agent, { port: 0, grpcPort: 0 });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(running.grpcTarget).toMatch(/^127\.0\.0\.1:\d+$/);
    const heldNow = new Promise<void>((resolve) => {
      onHeld = resolve;
    });
    const sent = await fetch(`${running.url}message:send`, {
      method: "POST",
      headers: { ...V1, "content-type": "application/a2a+json" },
      body: JSON.stringify({ message, configuration: { returnImmediately: true } }),
    });
    const { task } = await sent.json();
    await heldNow;
    // The task created over HTTP+JSON is visible over gRPC and JSON-RPC.
    const viaGrpc = await grpcClient(running.grpcTarget!).getTask({ id: task.id }, { headers: V1 });
    expect(viaGrpc.id).toBe(task.id);
    const viaJsonRpc = await fetch(running.url, {
      method: "POST",
      headers: { ...V1, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: task.id } }),
    });
    expect((await viaJsonRpc.json()).result.id).toBe(task.id);
    held?.release();
  });

  it("lists the interfaces it serves, on the served card and in toAgentCard() while it runs", async () => {
    const agent = buildAgent();
    expect(agent.toAgentCard().supportedInterfaces).toEqual([]);
    running = await listen(agent, { port: 0, grpcPort: 0, tenant: "acme" });
    const url = `http://127.0.0.1:${running.port}`;
    const expected = [
      { url, protocolBinding: "JSONRPC", tenant: "acme", protocolVersion: "1.0" },
      { url, protocolBinding: "HTTP+JSON", tenant: "acme", protocolVersion: "1.0" },
      { url: running.grpcTarget, protocolBinding: "GRPC", tenant: "acme", protocolVersion: "1.0" },
    ];
    expect(interfacesOf(running)).toEqual(expected);
    expect(agent.toAgentCard().supportedInterfaces.map((i) => toJson(AgentInterfaceSchema, i))).toEqual(expected);
    const served = await (await fetch(`${running.url}.well-known/agent-card.json`)).json();
    expect(served.supportedInterfaces).toEqual(expected);
    await running.close();
    expect(agent.toAgentCard().supportedInterfaces).toEqual([]);
  });

  it("names the host a request came in on in the served card, for the gRPC interface too, only with trustHostHeader", async () => {
    // A wildcard address serves beyond this machine: only an agent with an auth mode may listen there.
    running = await listen(buildAgent({ auth: "none" }), {
      port: 0,
      grpcPort: 0,
      host: "0.0.0.0",
      trustHostHeader: true,
    });
    const { port, grpcPort } = running;
    expect(running.url).toBe(`http://localhost:${port}/`);
    const reply = await cardOver(port, `127.0.0.1:${port}`);
    expect(reply.body.supportedInterfaces.map((i: { url: string }) => i.url)).toEqual([
      `http://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}`,
      `127.0.0.1:${grpcPort}`,
    ]);
    // A card made from the request is never cached for other callers.
    expect(reply.headers["cache-control"]).toBe("private, max-age=300");
    expect(reply.headers.vary).toBe("Host, X-Forwarded-Proto");
    const proxied = await cardOver(port, "agent.example.com", { "x-forwarded-proto": "https" });
    expect(proxied.body.supportedInterfaces[0].url).toBe("https://agent.example.com");
  });

  it("names a configured public URL instead, and its host for gRPC", async () => {
    running = await listen(buildAgent(), { port: 0, grpcPort: 0, publicUrl: "https://agent.example.com/a2a" });
    const expected = [
      "https://agent.example.com/a2a",
      "https://agent.example.com/a2a",
      `agent.example.com:${running.grpcPort}`,
    ];
    expect(running.interfaces.map((i) => i.url)).toEqual(expected);
    const served = await (await fetch(`http://127.0.0.1:${running.port}/.well-known/agent-card.json`)).json();
    expect(served.supportedInterfaces.map((i: { url: string }) => i.url)).toEqual(expected);
    expect(running.grpcTarget).toBe(`127.0.0.1:${running.grpcPort}`);
  });

  it("names interface URLs without a trailing slash from configuration, whatever Host a request sends", async () => {
    running = await listen(buildAgent(), { port: 0, grpcPort: 0 });
    const { port, grpcPort } = running;
    const reply = await cardOver(port, "evil.example:666", { "x-forwarded-proto": "https" });
    expect(reply.status).toBe(200);
    expect(reply.body.supportedInterfaces.map((i: { url: string }) => i.url)).toEqual([
      `http://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}`,
      `127.0.0.1:${grpcPort}`,
    ]);
    expect(reply.headers["cache-control"]).toBe("public, max-age=300");
    // JSON-RPC is served at the interface URL itself, HTTP+JSON below it.
    const rpc = await fetch(reply.body.supportedInterfaces[0].url, {
      method: "POST",
      headers: { ...V1, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} }),
    });
    expect((await rpc.json()).result.tasks).toEqual([]);
    expect((await fetch(`${reply.body.supportedInterfaces[1].url}/tasks`, { headers: V1 })).status).toBe(200);
  });

  it("answers a malformed Host with 400 instead of a card", async () => {
    running = await listen(buildAgent(), { port: 0, trustHostHeader: true });
    for (const host of ["a b", "agent.example/path", "user@agent.example"]) {
      expect((await cardOver(running.port, host)).status, host).toBe(400);
    }
    expect((await cardOver(running.port, "agent.example", { "x-forwarded-proto": "javascript" })).status).toBe(400);
    expect((await cardOver(running.port, "agent.example:8443")).status).toBe(200);
  });

  it.each([
    ["grpc.example.com:8443", "grpc.example.com:8443"],
    ["grpcs://grpc.example.com", "grpc.example.com:443"],
    ["https://grpc.example.com:9443/", "grpc.example.com:9443"],
    ["grpc://10.0.0.7:50051", "10.0.0.7:50051"],
  ])("takes the public gRPC address %s, with or without a scheme, and names it as %s", async (given, named) => {
    running = await listen(buildAgent(), { port: 0, grpcPort: 0, publicGrpcUrl: given });
    expect(running.interfaces.at(-1)?.url).toBe(named);
    const served = await cardOver(running.port, `127.0.0.1:${running.port}`);
    expect(served.body.supportedInterfaces.at(-1).url).toBe(named);
  });

  it("refuses a public gRPC address that is not one, before listening", async () => {
    await expect(
      listen(buildAgent(), { port: 0, grpcPort: 0, publicGrpcUrl: "https://grpc.example/a2a" }),
    ).rejects.toThrow(RangeError);
  });

  it("serves no gRPC without grpcPort, and no card with agentCard: false", async () => {
    running = await listen(buildAgent(), { port: 0, agentCard: false });
    expect(running.grpcTarget).toBeUndefined();
    expect(running.interfaces.map((i) => i.protocolBinding)).toEqual(["JSONRPC", "HTTP+JSON"]);
    expect((await fetch(`${running.url}.well-known/agent-card.json`)).status).toBe(404);
  });

  it("closes with streams in flight: they detach and the task goes on", async () => {
    const agent = buildAgent();
    running = await listen(agent, { port: 0, grpcPort: 0 });
    const heldNow = new Promise<void>((resolve) => {
      onHeld = resolve;
    });
    const stream = await fetch(`${running.url}message:stream`, {
      method: "POST",
      headers: { ...V1, "content-type": "application/a2a+json" },
      body: JSON.stringify({ message }),
    });
    const events = readSseEvents(stream.body!)[Symbol.asyncIterator]();
    const first = JSON.parse((await events.next()).value!.data);
    await heldNow;
    const grpcStream = grpcClient(running.grpcTarget!)
      .subscribeToTask({ id: first.task.id }, { headers: V1 })
      [Symbol.asyncIterator]();
    await grpcStream.next();
    await running.close();
    // The servers going away did not cancel the task: its skill finishes and the outcome is stored.
    held?.release();
    await agent.requestHandler().whenIdle();
    running = await listen(agent, { port: 0 });
    const reply = await fetch(running.url, {
      method: "POST",
      headers: { ...V1, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: first.task.id } }),
    });
    expect((await reply.json()).result.status.state).toBe("TASK_STATE_COMPLETED");
    await events.return?.();
    await grpcStream.return?.();
  });

  it("is reachable from the package entries: listen on /node, the gRPC and HTTP+JSON building blocks", async () => {
    const [grpc, server, node] = await Promise.all([
      import("../../src/grpc/index.js"),
      import("../../src/server/index.js"),
      import("../../src/node/index.js"),
    ]);
    const exported = { ...grpc, ...server, ...node } as Record<string, unknown>;
    for (const name of [
      "listenGrpc",
      "createGrpcNodeHandler",
      "a2aGrpcRoutes",
      "createA2AServiceImpl",
      "HttpJsonBinding",
      "listen",
      "nodeHandler",
    ]) {
      expect(typeof exported[name], name).toBe("function");
    }
  });

  it("logs one listening line per binding it serves", async () => {
    const lines: { message: string; protocol_binding: string; url: string }[] = [];
    const destination = { write: (line: string) => void lines.push(JSON.parse(line)) };
    const agent = new AgentBuilder({ name: "logged", logger: createLogger({ destination }) });
    running = await listen(agent, { port: 0, grpcPort: 0 });
    expect(lines.map((l) => [l.protocol_binding, l.url, l.message])).toEqual(
      running.interfaces.map((i) => [i.protocolBinding, i.url, "listening"]),
    );
    expect(lines.map((l) => l.protocol_binding)).toEqual(["JSONRPC", "HTTP+JSON", "GRPC"]);
  });

  it("refuses a port that is taken, without leaving the gRPC server behind", async () => {
    running = await listen(buildAgent(), { port: 0 });
    await expect(listen(buildAgent(), { port: running.port, grpcPort: 0 })).rejects.toThrow(/EADDRINUSE/);
  });
});
