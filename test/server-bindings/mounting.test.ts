/**
 * The mounting recipes of docs/serving.md, run as written: an AgentBuilder
 * inside Express, Fastify and Hono, next to the app's own routes, serving
 * JSON-RPC, HTTP+JSON (streams included) and its card, and gRPC beside them.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { readSseEvents } from "../../src/a2a/sse.js";
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

async function mountOnExpress(agent: AgentBuilder): Promise<Mounted> {
  const app = express();
  app.get("/health", (_req, res) => {
    res.send("ok");
  });
  app.use("/a2a", agent.nodeHandler());
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    agentUrl: `${origin}/a2a/`,
    healthUrl: `${origin}/health`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

async function mountOnFastify(agent: AgentBuilder): Promise<Mounted> {
  const app = Fastify();
  app.get("/health", async () => "ok");
  const handle = agent.nodeHandler();
  await app.register(
    async (scope) => {
      // The agent reads its own bodies (with its size cap): Fastify must not parse them.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
      scope.all("/*", (request, reply) => {
        reply.hijack();
        // Paths are the agent's own from here on; `originalUrl` tells the card where it is mounted.
        const raw = request.raw as typeof request.raw & { originalUrl?: string };
        raw.originalUrl = raw.url;
        raw.url = raw.url?.slice("/a2a".length) || "/";
        return handle(raw, reply.raw);
      });
    },
    { prefix: "/a2a" },
  );
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
