/**
 * The JSON-RPC binding over a real socket: every way a request can be wrong
 * gets its typed JSON-RPC error (never an HTTP 500), and the SSE framing of
 * streams, including a failure after the first frame.
 */

import http from "node:http";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { StreamResponseSchema, TaskSchema, TaskState, TaskStatusSchema } from "../../gen/a2a_pb.js";
import { InternalError } from "../../src/a2a/errors.js";
import { createNodeListener } from "../../src/node/node-adapter.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { JsonRpcBinding } from "../../src/server/jsonrpc-binding.js";
import type { A2ARequestHandler } from "../../src/server/request-handler.js";
import { openStream, type RunningServer, rpc, serveAgent, userMessage, V1 } from "./support/agent-server.js";

const logger = createLogger({ level: "silent" });

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function echoServer(options: { maxBodyBytes?: number } = {}) {
  const agent = new AgentBuilder({ name: "echo", logger, ...options });
  agent.skill("echo", async (_ctx, text) => ({ output: text }));
  running = await serveAgent(agent);
  return running.url;
}

async function post(url: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...V1, ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}

describe("malformed requests get typed errors, never an HTTP 500", () => {
  it("refuses a body over the cap with -32700 and id null, before parsing it", async () => {
    const url = await echoServer({ maxBodyBytes: 1024 });
    // Valid JSON-RPC, just too big: an answer other than -32700 would mean it was parsed.
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: userMessage("x".repeat(2000)) },
    });
    const reply = await post(url, big);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: null, error: { code: -32700 } });
    expect(reply.body.error.message).toContain("1024");
    // Just under the cap is served.
    const small = await rpc(url, "SendMessage", { message: userMessage("x".repeat(500)) });
    expect(small.body.result.task.status.state).toBe("TASK_STATE_COMPLETED");
  });

  it("refuses a declared Content-Length over the cap without reading the body", async () => {
    const url = await echoServer({ maxBodyBytes: 64 });
    const { port } = new URL(url);
    const reply = await new Promise<{ status: number; body: string; connection: string | undefined }>(
      (resolve, reject) => {
        const req = http.request(
          {
            host: "127.0.0.1",
            port,
            method: "POST",
            path: "/",
            headers: { "content-type": "application/json", "content-length": "100000" },
          },
          (res) => {
            let body = "";
            res.on("data", (c) => {
              body += c;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
          },
        );
        req.on("error", reject);
        req.write("{");
      },
    );
    expect(JSON.parse(reply.body).error.code).toBe(-32700);
    expect(reply.connection).toBe("close");
  });

  it.each([
    ["text/plain", -32005],
    ["application/x-www-form-urlencoded", -32005],
  ])("answers Content-Type %s with %i", async (contentType, code) => {
    const url = await echoServer();
    const reply = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }), {
      "content-type": contentType,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.error.code).toBe(code);
    expect(reply.body.error.data[0].reason).toBe("CONTENT_TYPE_NOT_SUPPORTED");
  });

  it("accepts application/json with parameters and application/a2a+json", async () => {
    const url = await echoServer();
    for (const contentType of ["application/json; charset=utf-8", "application/a2a+json"]) {
      const reply = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }), {
        "content-type": contentType,
      });
      expect(reply.body.error.code).toBe(-32001);
    }
  });

  it.each([
    ["not JSON", "{nope", -32700],
    ["empty", "", -32700],
    ["a batch", "[]", -32600],
    ["no id", JSON.stringify({ jsonrpc: "2.0", method: "GetTask" }), -32600],
    ["wrong version", JSON.stringify({ jsonrpc: "1.0", id: 1, method: "GetTask" }), -32600],
    ["a v0.3 method", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }), -32601],
    ["array params", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: [] }), -32602],
  ])("answers %s with %i", async (_name, body, code) => {
    const url = await echoServer();
    const reply = await post(url, body);
    expect(reply.status).toBe(200);
    expect(reply.body.error.code).toBe(code);
  });

  it("answers invalid UTF-8 with -32700", async () => {
    const url = await echoServer();
    const reply = await post(url, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    expect(reply.body.error.code).toBe(-32700);
  });

  it("answers malformed params with -32602 naming the field", async () => {
    const url = await echoServer();
    const wrongType = await rpc(url, "SendMessage", { message: { messageId: "m", role: "ROLE_USER", parts: "text" } });
    expect(wrongType.body.error.code).toBe(-32602);
    const missing = await rpc(url, "SendMessage", { message: { role: "ROLE_USER", parts: [] } });
    expect(missing.body.error.code).toBe(-32602);
    const fields = missing.body.error.data[1].fieldViolations.map((v: { field: string }) => v.field);
    expect(fields).toEqual(expect.arrayContaining(["message.messageId", "message.parts"]));
    const kind = await rpc(url, "SendMessage", {
      message: { ...userMessage("x"), parts: [{ kind: "text", text: "x" }] },
    });
    expect(kind.body.result.task.status.state).toBe("TASK_STATE_COMPLETED");
  });

  it("answers unknown task ids with -32001 on every task method", async () => {
    const url = await echoServer();
    for (const [method, params] of [
      ["GetTask", { id: "nope" }],
      ["CancelTask", { id: "nope" }],
      ["SubscribeToTask", { id: "nope" }],
      ["SendMessage", { message: userMessage("x", { taskId: "nope" }) }],
    ] as const) {
      const reply = await rpc(url, method, params);
      expect(reply.body.error.code, method).toBe(-32001);
      expect(reply.body.error.data[0].metadata.taskId).toBe("nope");
    }
  });

  it("handles huge and negative history lengths and page sizes", async () => {
    const url = await echoServer();
    const sent = await rpc(url, "SendMessage", { message: userMessage("hi") });
    const id = sent.body.result.task.id;
    const huge = await rpc(url, "GetTask", { id, historyLength: 2147483647 });
    expect(huge.body.result.history).toHaveLength(2);
    expect((await rpc(url, "GetTask", { id, historyLength: 1e12 })).body.error.code).toBe(-32602);
    expect((await rpc(url, "GetTask", { id, historyLength: -1 })).body.error.code).toBe(-32602);
    expect((await rpc(url, "ListTasks", { pageSize: -5 })).body.error.code).toBe(-32602);
    expect((await rpc(url, "ListTasks", { pageSize: 0 })).body.error.code).toBe(-32602);
    expect((await rpc(url, "ListTasks", { historyLength: -1 })).body.error.code).toBe(-32602);
    expect((await rpc(url, "ListTasks", { pageToken: "forged" })).body.error.code).toBe(-32602);
    expect((await rpc(url, "ListTasks", { pageSize: 1000 })).body.error.code).toBe(-32602);
    expect((await rpc(url, "ListTasks", { pageSize: 100 })).body.result.pageSize).toBe(100);
  });

  it("answers other HTTP methods on the endpoint with 405 and unknown paths with 404", async () => {
    const url = await echoServer();
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect((await get.json()).error.code).toBe(-32600);
    expect((await fetch(`${url}nowhere`, { method: "POST" })).status).toBe(404);
  });

  it("echoes string, number and null ids", async () => {
    const url = await echoServer();
    for (const id of ["abc", 42, null]) {
      const reply = await post(url, JSON.stringify({ jsonrpc: "2.0", id, method: "GetTask", params: { id: "x" } }));
      expect(reply.body.id).toBe(id);
    }
  });
});

describe("version and extension negotiation", () => {
  it("checks the version before anything else, then required extensions", async () => {
    const { A2AExtension } = await import("../../src/a2a/extensions.js");
    const agent = new AgentBuilder({
      name: "ext",
      logger,
      extensions: [new A2AExtension({ uri: "urn:needed", required: true }), new A2AExtension({ uri: "urn:optional" })],
    });
    agent.skill("echo", async (ctx) => ({ output: ctx.extensions.activated.join(",") }));
    running = await serveAgent(agent);
    const url = running.url;
    const params = { message: userMessage("x") };
    expect((await rpc(url, "SendMessage", params, {})).body.error.code).toBe(-32009);
    expect((await rpc(url, "SendMessage", params, { "A2A-Version": "" })).body.error.code).toBe(-32009);
    expect((await rpc(url, "GetTask", { id: "x" }, { "A2A-Version": "0.3" })).body.error.code).toBe(-32009);
    const unmet = await rpc(url, "SendMessage", params, V1);
    expect(unmet.body.error.code).toBe(-32008);
    expect(unmet.body.error.data[0].metadata.extensions).toBe("urn:needed");
    const ok = await rpc(url, "SendMessage", params, {
      ...V1,
      "A2A-Extensions": "urn:needed, urn:optional, urn:unknown",
    });
    expect(ok.body.result.task.status.message.parts[0].text).toBe("urn:needed,urn:optional");
    expect(ok.headers.get("a2a-extensions")).toBe("urn:needed,urn:optional");
    const patch = await rpc(url, "GetTask", { id: "x" }, { "A2A-Version": "1.0.3", "A2A-Extensions": "urn:needed" });
    expect(patch.body.error.code).toBe(-32001);
  });

  it("answers no A2A-Extensions header when nothing is activated", async () => {
    const url = await echoServer();
    const reply = await rpc(
      url,
      "SendMessage",
      { message: userMessage("x") },
      { ...V1, "A2A-Extensions": "urn:unknown" },
    );
    expect(reply.headers.get("a2a-extensions")).toBeNull();
  });
});

describe("streams over SSE", () => {
  it("ends a stream that fails after its first frame with an event: error carrying a JSON-RPC error", async () => {
    // A handler double: the binding's framing is what is under test.
    const handler = {
      async *sendStreamingMessage() {
        yield create(StreamResponseSchema, {
          payload: {
            case: "task",
            value: create(TaskSchema, { id: "t", status: create(TaskStatusSchema, { state: TaskState.WORKING }) }),
          },
        });
        throw new Error("the disk caught fire at /var/secret/path");
      },
    } as unknown as A2ARequestHandler;
    const binding = new JsonRpcBinding(handler, { logger });
    const listener = createNodeListener(() => [binding]);
    const server = http.createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const stream = await openStream(url, "SendStreamingMessage", { message: userMessage("x") });
      const first = await stream.next();
      expect(first.result.task.id).toBe("t");
      const last = await stream.next();
      expect(stream.eventTypes).toEqual([undefined, "error"]);
      expect(last).toMatchObject({ jsonrpc: "2.0", id: first.id, error: { code: new InternalError().code } });
      expect(JSON.stringify(last)).not.toContain("secret");
      expect(await stream.next()).toBeUndefined();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("serves a message-routed rejection as a one-frame stream", async () => {
    const agent = new AgentBuilder({ name: "two", logger });
    agent.skill("a", async () => ({ output: "a" }));
    agent.skill("b", async () => ({ output: "b" }));
    running = await serveAgent(agent);
    const stream = await openStream(running.url, "SendStreamingMessage", { message: userMessage("x") });
    expect(stream.contentType).toBe("text/event-stream");
    const frames = [await stream.next(), ...(await stream.rest())];
    expect(frames).toHaveLength(1);
    expect(frames[0].result.task.status.state).toBe("TASK_STATE_REJECTED");
  });
});
