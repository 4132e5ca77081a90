/**
 * The mounting recipes of docs/serving.md, run as written: an AgentBuilder
 * inside Express, Fastify and Hono, next to the app's own routes, serving
 * JSON-RPC, HTTP+JSON (streams included) and its card, and gRPC beside them.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import express, { type Express } from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { readSseEvents } from "../../src/a2a/sse.js";
import { fastifyAgentPlugin, mountAgent, nodeHandler } from "../../src/node/index.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { listenGrpc } from "../../src/server/grpc/grpc-server.js";
import { grpcDriver } from "./support/binding-drivers.js";

const V1 = { "A2A-Version": "1.0" };

function buildAgent(): AgentBuilder {
  // A Fetch request does not say where it comes from: the Hono recipe needs an auth mode ("none" here).
  const agent = new AgentBuilder({ name: "mounted", auth: "none", logger: createLogger({ level: "silent" }) });
  agent.skill("echo", (_ctx, text) => ({ output: `echo: ${text}` }));
  return agent;
}

interface Mounted {
  /** Where the agent is mounted (ends with "/"). */
  readonly agentUrl: string;
  /** The app's own route, which must keep working. */
  readonly healthUrl: string;
  close(): Promise<void>;
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

// --- the recipes (docs/serving.md) ---

/** Listens with an Express app on a free loopback port; `close` ends its connections too. */
async function listenExpress(app: Express): Promise<{ origin: string; close(): Promise<void> }> {
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** An Express app with its own `/health` route, the agent mounted at `/a2a` by `mount`. */
async function expressWith(mount: (app: Express) => void): Promise<Mounted> {
  const app = express();
  app.get("/health", (_req, res) => {
    res.send("ok");
  });
  mount(app);
  const { origin, close } = await listenExpress(app);
  return { agentUrl: `${origin}/a2a/`, healthUrl: `${origin}/health`, close };
}

const mountOnExpress = (agent: AgentBuilder) => expressWith((app) => app.use("/a2a", nodeHandler(agent)));
const mountWithMountAgent = (agent: AgentBuilder) => expressWith((app) => app.use(mountAgent(agent, { path: "/a2a" })));

async function mountOnFastify(agent: AgentBuilder): Promise<Mounted> {
  const app = Fastify();
  app.get("/health", async () => "ok");
  await app.register(fastifyAgentPlugin(agent, { path: "/a2a" }));
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  return { agentUrl: `${origin}/a2a/`, healthUrl: `${origin}/health`, close: () => app.close() };
}

async function mountOnHono(agent: AgentBuilder): Promise<Mounted> {
  const app = new Hono();
  app.get("/health", (c) => c.text("ok"));
  const handle = agent.fetchHandler();
  app.all("*", (c) => handle(c.req.raw));
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await once(server, "listening");
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    agentUrl: `${origin}/`,
    healthUrl: `${origin}/health`,
    close: async () => {
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      server.close();
      await once(server, "close");
    },
  };
}

// --- what every recipe must serve ---

const message = { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] };

describe.each([
  ["Express", mountOnExpress],
  ["Express with mountAgent", mountWithMountAgent],
  ["Fastify", mountOnFastify],
  ["Hono", mountOnHono],
] as const)("mounted on %s", (_, mount) => {
  it("serves JSON-RPC, HTTP+JSON (unary and streaming) and the card, beside the app's own routes", async () => {
    const agent = buildAgent();
    const mounted = await mount(agent);
    stops.push(mounted.close);
    const { agentUrl } = mounted;

    expect(await (await fetch(mounted.healthUrl)).text()).toBe("ok");

    const rpc = await fetch(agentUrl, {
      method: "POST",
      headers: { ...V1, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } }),
    });
    const { result } = await rpc.json();
    expect(result.task.status.state).toBe("TASK_STATE_COMPLETED");

    const got = await fetch(`${agentUrl}tasks/${result.task.id}?historyLength=0`, { headers: V1 });
    expect(got.headers.get("content-type")).toBe("application/a2a+json");
    expect((await got.json()).id).toBe(result.task.id);

    const sent = await fetch(`${agentUrl}message:send`, {
      method: "POST",
      headers: { ...V1, "content-type": "application/a2a+json" },
      body: JSON.stringify({ message: { ...message, messageId: "m-2" } }),
    });
    expect((await sent.json()).task.status.state).toBe("TASK_STATE_COMPLETED");

    const streamed = await fetch(`${agentUrl}message:stream`, {
      method: "POST",
      headers: { ...V1, "content-type": "application/json" },
      body: JSON.stringify({ message: { ...message, messageId: "m-3" } }),
    });
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const states: string[] = [];
    for await (const event of readSseEvents(streamed.body!)) {
      const frame = JSON.parse(event.data);
      const state = frame.task?.status.state ?? frame.statusUpdate?.status.state;
      if (state) states.push(state);
    }
    expect(states.at(-1)).toBe("TASK_STATE_COMPLETED");

    const refused = await fetch(`${agentUrl}message:send`, {
      method: "POST",
      headers: { ...V1, "content-type": "text/plain" },
      body: "hi",
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.details[0].reason).toBe("CONTENT_TYPE_NOT_SUPPORTED");

    const card = await (await fetch(`${agentUrl}.well-known/agent-card.json`)).json();
    expect(
      card.supportedInterfaces.map((i: { url: string; protocolBinding: string }) => [i.protocolBinding, i.url]),
    ).toEqual([
      // Interface URLs end without a slash: clients append `/message:send`.
      ["JSONRPC", agentUrl.replace(/\/$/, "")],
      ["HTTP+JSON", agentUrl.replace(/\/$/, "")],
    ]);
  });

  it("runs gRPC beside it, on the same handler and store", async () => {
    const agent = buildAgent();
    const mounted = await mount(agent);
    stops.push(mounted.close);
    const grpc = await listenGrpc(agent.requestHandler(), { port: 0, logger: agent.logger });
    stops.push(() => grpc.close());
    const sent = await fetch(`${mounted.agentUrl}message:send`, {
      method: "POST",
      headers: { ...V1, "content-type": "application/json" },
      body: JSON.stringify({ message }),
    });
    const { task } = await sent.json();
    const driver = grpcDriver(grpc.target);
    stops.push(async () => driver.close());
    expect(((await driver.call("GetTask", { id: task.id })) as { id: string }).id).toBe(task.id);
  });
});

describe("mounted under a path with the SDK's helpers", () => {
  async function expressApp(originCard?: boolean) {
    const app = express();
    app.use(mountAgent(buildAgent(), { path: "/a2a", originCard }));
    app.get("/a2a/custom", (req, res) => {
      res.send(`${req.originalUrl} ${req.url}`);
    });
    const { origin, close } = await listenExpress(app);
    stops.push(close);
    return origin;
  }

  async function fastifyApp(originCard?: boolean) {
    const app = Fastify();
    await app.register(fastifyAgentPlugin(buildAgent(), { path: "/a2a", originCard }));
    const origin = await app.listen({ port: 0, host: "127.0.0.1" });
    stops.push(() => app.close());
    return origin;
  }

  it.each([
    ["Express", expressApp],
    ["Fastify", fastifyApp],
  ] as const)("%s: the origin's well-known card path serves the mounted agent's card (RFC 8615)", async (_, start) => {
    const origin = await start();
    const atOrigin = await fetch(`${origin}/.well-known/agent-card.json`);
    expect(atOrigin.status).toBe(200);
    const card = await atOrigin.json();
    expect(card.supportedInterfaces.map((i: { url: string }) => i.url)).toEqual([`${origin}/a2a`, `${origin}/a2a`]);
    const underMount = await (await fetch(`${origin}/a2a/.well-known/agent-card.json`)).json();
    expect(underMount).toEqual(card);
    const bare = await fetch(`${origin}/a2a`, {
      method: "POST",
      headers: { ...V1, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } }),
    });
    expect((await bare.json()).result.task.status.state).toBe("TASK_STATE_COMPLETED");
  });

  it.each([
    ["Express", expressApp],
    ["Fastify", fastifyApp],
  ] as const)("%s: originCard false leaves the origin's card path to the app", async (_, start) => {
    const origin = await start(false);
    expect((await fetch(`${origin}/.well-known/agent-card.json`)).status).toBe(404);
    expect((await fetch(`${origin}/a2a/.well-known/agent-card.json`)).status).toBe(200);
  });

  it("Express: a request under the mount that is not the agent's reaches the app's next route, its URL as it came", async () => {
    const origin = await expressApp();
    expect(await (await fetch(`${origin}/a2a/custom`)).text()).toBe("/a2a/custom /a2a/custom");
  });
});
