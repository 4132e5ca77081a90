/** Client behaviour above the transports: construction, request building, headers, fallback, lifecycle. */
import { getEventListeners } from "node:events";
import { create, fromJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { AgentCardSchema, MessageSchema, type StreamResponse, TaskSchema } from "../../gen/a2a_pb.js";
import { InvalidAgentResponseError, TaskNotFoundError } from "../../src/a2a/errors.js";
import { A2AExtension, ExtensionRegistry } from "../../src/a2a/extensions.js";
import { Client, DEFAULT_TIMEOUT_MS } from "../../src/client/client.js";
import { NovaOSConnectionError, NovaOSError, NovaOSValidationError } from "../../src/errors/novaos-errors.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { BearerTokenAuth } from "../../src/http/auth.js";
import { type RecordedRequest, sendJson, startHttpServer, type TestHttpServer } from "./support/http-server.js";

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const completed = { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } };

/** A JSON-RPC agent answering every call with `reply(method)`. */
async function jsonRpcAgent(reply: (method: string, params: JsonObject) => unknown = () => ({ task: completed })) {
  return startHttpServer((req, res) => {
    const body = JSON.parse(req.body);
    sendJson(res, 200, { jsonrpc: "2.0", id: body.id, result: reply(body.method, body.params) });
  });
}

function lastBody(): { method: string; params: JsonObject } {
  const last = server?.requests.at(-1) as RecordedRequest;
  return JSON.parse(last.body);
}

function cardJson(overrides: JsonObject = {}): JsonObject {
  return {
    name: "agent",
    description: "",
    version: "1",
    supportedInterfaces: [],
    capabilities: { streaming: true },
    defaultInputModes: [],
    defaultOutputModes: [],
    skills: [],
    ...overrides,
  };
}

describe("construction", () => {
  it("refuses a baseUrl that is not an http(s) URL, and an unknown binding", () => {
    expect(() => new Client({ baseUrl: "not a url" })).toThrow(RangeError);
    expect(() => new Client({ baseUrl: "ftp://agent.example" })).toThrow(RangeError);
    expect(() => new Client({ baseUrl: "http://agent.example", binding: "SOAP" as never })).toThrow(RangeError);
  });

  it("checks baseUrl against the outbound-host allowlist", () => {
    expect(() => new Client({ baseUrl: "http://evil.example", allowedHosts: ["agents.example"] })).toThrow(/allowlist/);
    const ok = new Client({ baseUrl: "http://a.agents.example", allowedHosts: ["agents.example"] });
    expect(ok.baseUrl).toBe("http://a.agents.example");
  });

  it("defaults to JSON-RPC, or the binding of the card's interface at baseUrl, with its tenant", async () => {
    await using plain = new Client({ baseUrl: "http://agent.example" });
    expect([plain.binding, plain.tenant]).toEqual(["JSONRPC", undefined]);
    const card = fromJson(
      AgentCardSchema,
      cardJson({
        supportedInterfaces: [
          { url: "http://agent.example/rest", protocolBinding: "HTTP+JSON", protocolVersion: "1.0", tenant: "t-rest" },
          { url: "http://agent.example/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "t-rpc" },
        ],
      }),
    );
    await using atRest = new Client({ baseUrl: "http://agent.example/rest/", agentCard: card });
    expect([atRest.binding, atRest.tenant]).toEqual(["HTTP+JSON", "t-rest"]);
    await using explicit = new Client({ baseUrl: "http://elsewhere.example", agentCard: card, tenant: "mine" });
    expect([explicit.binding, explicit.tenant]).toEqual(["JSONRPC", "mine"]);
    await using fallback = new Client({ baseUrl: "http://elsewhere.example", agentCard: card });
    expect(fallback.tenant).toBe("t-rpc");
  });

  it("fromAgentCard follows the card's order, or the client's when asked, and skips other protocol versions", async () => {
    const card = fromJson(
      AgentCardSchema,
      cardJson({
        supportedInterfaces: [
          { url: "http://a.example/v03", protocolBinding: "GRPC", protocolVersion: "0.3" },
          { url: "http://a.example/rest", protocolBinding: "HTTP+JSON", protocolVersion: "1.0", tenant: "acme" },
          { url: "http://a.example/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
          { url: "http://a.example/grpc", protocolBinding: "GRPC", protocolVersion: "1.0" },
        ],
      }),
    );
    await using byCard = Client.fromAgentCard(card);
    expect([byCard.baseUrl, byCard.binding, byCard.tenant]).toEqual(["http://a.example/rest", "HTTP+JSON", "acme"]);
    await using byClient = Client.fromAgentCard(card, {
      config: { preferredBindings: ["GRPC", "JSONRPC"], useClientPreference: true },
      transports: [grpcTransport()],
    });
    expect([byClient.baseUrl, byClient.binding]).toEqual(["http://a.example/grpc", "GRPC"]);
    // Without a gRPC transport, the client's preference for gRPC passes to the next binding it can speak.
    await using withoutGrpc = Client.fromAgentCard(card, {
      config: { preferredBindings: ["GRPC", "JSONRPC"], useClientPreference: true },
    });
    expect([withoutGrpc.baseUrl, withoutGrpc.binding]).toEqual(["http://a.example/rpc", "JSONRPC"]);
    await using filtered = Client.fromAgentCard(card, { config: { preferredBindings: ["JSONRPC"] } });
    expect(filtered.baseUrl).toBe("http://a.example/rpc");
  });

  it("fromAgentCard with no usable interface says what was offered", () => {
    const card = fromJson(
      AgentCardSchema,
      cardJson({
        supportedInterfaces: [{ url: "http://a.example", protocolBinding: "JSONRPC", protocolVersion: "0.3" }],
      }),
    );
    expect(() => Client.fromAgentCard(card)).toThrow(NovaOSValidationError);
    expect(() => Client.fromAgentCard(card)).toThrow(/JSONRPC 0\.3/);
  });

  it("a gRPC interface without a gRPC transport fails with what to import, from a card or a URL", async () => {
    const card = fromJson(
      AgentCardSchema,
      cardJson({
        supportedInterfaces: [{ url: "grpc://a.example:50051", protocolBinding: "GRPC", protocolVersion: "1.0" }],
      }),
    );
    const hint = /import \{ grpcTransport \} from "@novaos\/client-sdk\/grpc"/;
    expect(() => Client.fromAgentCard(card)).toThrow(NovaOSValidationError);
    expect(() => Client.fromAgentCard(card)).toThrow(hint);
    expect(() => new Client({ baseUrl: "grpc://a.example:50051" })).toThrow(hint);
    expect(() => new Client({ baseUrl: "http://a.example", binding: "GRPC" })).toThrow(hint);
    await using withGrpc = Client.fromAgentCard(card, { transports: [grpcTransport()] });
    expect(withGrpc.binding).toBe("GRPC");
  });
});

describe("requests", () => {
  it("never modifies the caller's message, and fills messageId, role and addressing on a copy", async () => {
    server = await jsonRpcAgent();
    await using client = new Client({ baseUrl: server.url });
    const mine = create(MessageSchema, { parts: [{ content: { case: "text", value: "hi" } }], metadata: { own: 1 } });
    await client.sendMessage(mine, { skillId: "chat", taskId: "t9", contextId: "c9" });
    expect(mine.messageId).toBe("");
    expect(mine.metadata).toEqual({ own: 1 });
    expect(lastBody().params.message).toMatchObject({
      role: "ROLE_USER",
      taskId: "t9",
      contextId: "c9",
      metadata: { own: 1, skillId: "chat" },
    });
  });

  it("layers the configuration: call options over ClientConfig, empty lists omitted", async () => {
    server = await jsonRpcAgent();
    await using client = new Client({
      baseUrl: server.url,
      config: {
        acceptedOutputModes: ["text/plain"],
        polling: true,
        pushNotificationConfig: { url: "https://h.example" },
      },
    });
    await client.sendMessage("a");
    expect(lastBody().params.configuration).toEqual({
      acceptedOutputModes: ["text/plain"],
      returnImmediately: true,
      taskPushNotificationConfig: { url: "https://h.example" },
    });
    await client.sendMessage("b", { acceptedOutputModes: ["application/json"], returnImmediately: false });
    expect(lastBody().params.configuration).toEqual({
      acceptedOutputModes: ["application/json"],
      taskPushNotificationConfig: { url: "https://h.example" },
    });
    await using bare = new Client({ baseUrl: server.url });
    await bare.sendMessage("c", { acceptedOutputModes: [] });
    expect(lastBody().params.configuration).toBeUndefined();
  });

  it("activates extensions: the header, and their data in the request metadata under their URI", async () => {
    server = await jsonRpcAgent();
    class Locale extends A2AExtension {
      override requestValue(): JsonValue {
        return { lang: "fr" };
      }
    }
    const extensions = new ExtensionRegistry([
      new Locale({ uri: "https://ext.example/locale" }),
      new A2AExtension({ uri: "https://ext.example/b" }),
    ]);
    await using client = new Client({ baseUrl: server.url, extensions });
    await client.sendMessage("x", { metadata: { mine: true } });
    const req = server.requests.at(-1) as RecordedRequest;
    expect(req.headers["a2a-extensions"]).toBe("https://ext.example/b,https://ext.example/locale");
    expect(lastBody().params.metadata).toEqual({ "https://ext.example/locale": { lang: "fr" }, mine: true });
  });

  it("header precedence: service parameters < client headers < credentials < call headers", async () => {
    server = await jsonRpcAgent();
    await using client = new Client({
      baseUrl: server.url,
      headers: { "x-a": "client", authorization: "client", "x-b": "client" },
      auth: new BearerTokenAuth("auth"),
    });
    await client.getTask("t1", { headers: { "x-b": "call" } });
    const headers = (server.requests.at(-1) as RecordedRequest).headers;
    expect([headers["a2a-version"], headers["x-a"], headers.authorization, headers["x-b"]]).toEqual([
      "1.0",
      "client",
      "Bearer auth",
      "call",
    ]);
  });

  it("a rotated bearer token is used on the next call", async () => {
    server = await jsonRpcAgent();
    const auth = new BearerTokenAuth("one");
    await using client = new Client({ baseUrl: server.url, auth });
    await client.getTask("t1");
    auth.token = "two";
    await client.getTask("t1");
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(["Bearer one", "Bearer two"]);
  });

  it("refuses bad arguments before any I/O", async () => {
    server = await jsonRpcAgent();
    await using client = new Client({ baseUrl: server.url });
    await expect(client.getTask("")).rejects.toBeInstanceOf(NovaOSValidationError);
    await expect(client.cancelTask("  ")).rejects.toThrow(/taskId/);
    await expect(client.listTasks({ status: "done" })).rejects.toThrow(/TaskState/);
    await expect(client.listTasks({ statusTimestampAfter: "yesterday" })).rejects.toThrow(/RFC 3339/);
    await expect(client.listTasks({ pageSize: 0 })).rejects.toThrow(/pageSize/);
    await expect(client.getTask("t1", { historyLength: 1.5 })).rejects.toThrow(/historyLength/);
    await expect(client.createTaskPushNotificationConfig({ taskId: "t1" })).rejects.toThrow(/url/);
    expect(server.requests).toHaveLength(0);
  });

  it("push config tenant: the config's own wins over the client's", async () => {
    server = await jsonRpcAgent(() => ({ taskId: "t1", url: "https://h" }));
    await using client = new Client({ baseUrl: server.url, tenant: "client-t" });
    await client.createTaskPushNotificationConfig({ taskId: "t1", url: "https://h" });
    expect(lastBody().params.tenant).toBe("client-t");
    await client.createTaskPushNotificationConfig({ taskId: "t1", url: "https://h", tenant: "own-t" });
    expect(lastBody().params.tenant).toBe("own-t");
  });
});

describe("streaming fallback", () => {
  it("without the streaming capability, sends one SendMessage and yields its result as the only frame", async () => {
    server = await jsonRpcAgent();
    const card = fromJson(
      AgentCardSchema,
      cardJson({
        capabilities: {},
        supportedInterfaces: [{ url: "http://x", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      }),
    );
    await using client = new Client({ baseUrl: server.url, agentCard: card });
    const frames = [];
    for await (const frame of client.sendStreamingMessage("go")) frames.push(frame);
    expect(frames.map((f) => f.payload.case)).toEqual(["task"]);
    expect(lastBody().method).toBe("SendMessage");
  });

  it("with config.streaming false, too; a client without a card streams", async () => {
    server = await jsonRpcAgent(() => ({ message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "hi" }] } }));
    await using client = new Client({ baseUrl: server.url, config: { streaming: false } });
    const frames = [];
    for await (const frame of client.sendStreamingMessage("go")) frames.push(frame);
    expect(frames.map((f) => f.payload.case)).toEqual(["message"]);
    expect(lastBody().method).toBe("SendMessage");
  });
});

describe("sendMessageSafe", () => {
  it("returns the default when the agent is unreachable or unknown", async () => {
    const fallback = create(TaskSchema, { id: "default" });
    await using unreachable = new Client({ baseUrl: "http://127.0.0.1:1" });
    expect(await unreachable.sendMessageSafe("x", { default: fallback })).toBe(fallback);
    server = await startHttpServer((_req, res) => {
      res.writeHead(404);
      res.end();
    });
    await using unknown = new Client({ baseUrl: server.url });
    expect(await unknown.sendMessageSafe("x")).toBeUndefined();
  });

  it("throws everything else, protocol errors included", async () => {
    server = await startHttpServer((req, res) =>
      sendJson(res, 200, { jsonrpc: "2.0", id: JSON.parse(req.body).id, error: { code: -32001, message: "x" } }),
    );
    await using client = new Client({ baseUrl: server.url });
    await expect(client.sendMessageSafe("x")).rejects.toBeInstanceOf(TaskNotFoundError);
    const controller = new AbortController();
    controller.abort(new Error("mine"));
    await expect(client.sendMessageSafe("x", { signal: controller.signal })).rejects.toThrow("mine");
  });
});

describe("listTasksPages", () => {
  it("follows nextPageToken to the end", async () => {
    const pages: Record<string, JsonObject> = {
      "": { tasks: [{ id: "a" }], nextPageToken: "p2" },
      p2: { tasks: [{ id: "b" }], nextPageToken: "p3" },
      p3: { tasks: [{ id: "c" }], nextPageToken: "" },
    };
    server = await jsonRpcAgent((_m, params) => pages[(params.pageToken as string) ?? ""]);
    await using client = new Client({ baseUrl: server.url });
    const ids = [];
    for await (const page of client.listTasksPages({ pageSize: 1 })) ids.push(...page.tasks.map((t) => t.id));
    expect(ids).toEqual(["a", "b", "c"]);
  });

  it("refuses a token it was already given instead of looping", async () => {
    server = await jsonRpcAgent(() => ({ tasks: [], nextPageToken: "same" }));
    await using client = new Client({ baseUrl: server.url });
    const walk = async () => {
      for await (const _ of client.listTasksPages()) {
        // walk
      }
    };
    await expect(walk()).rejects.toBeInstanceOf(InvalidAgentResponseError);
    expect(server.requests).toHaveLength(2);
  });
});

describe("deadlines", () => {
  it("unary calls default to a 5 minute deadline; streams have none unless a call sets one", () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(300_000);
  });
});

describe("lifecycle", () => {
  it("subscribeToTask ends cleanly where an agent closes the stream at a pause, and fails where it closes mid-work", async () => {
    const frames: Record<string, string[]> = {
      paused: ["TASK_STATE_INPUT_REQUIRED"],
      cut: ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_WORKING"],
    };
    server = await startHttpServer((req, res) => {
      const body = JSON.parse(req.body);
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const [i, state] of (frames[body.params.id] ?? []).entries()) {
        const result =
          i === 0
            ? { task: { ...completed, status: { state } } }
            : { statusUpdate: { taskId: "t1", contextId: "c1", status: { state } } };
        res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result })}\n\n`);
      }
      res.end();
    });
    await using client = new Client({ baseUrl: server.url });
    const seen: StreamResponse[] = [];
    for await (const frame of client.subscribeToTask("paused")) seen.push(frame);
    expect(seen.map((f) => f.payload.case)).toEqual(["task"]);
    const cut = (async () => {
      for await (const _ of client.subscribeToTask("cut"));
    })();
    await expect(cut).rejects.toBeInstanceOf(NovaOSConnectionError);
  });

  it("leaves no timer, listener or socket behind after calls, early exits and aborts", async () => {
    server = await startHttpServer((req, res) => {
      const body = JSON.parse(req.body);
      if (body.method !== "SendStreamingMessage")
        return sendJson(res, 200, { jsonrpc: "2.0", id: body.id, result: completed });
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        `data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { task: { ...completed, status: { state: "TASK_STATE_WORKING" } } } })}\n\n`,
      );
    });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    const controller = new AbortController();
    {
      await using client = new Client({ baseUrl: server.url, timeoutMs: 60_000 });
      for (let i = 0; i < 20; i++) {
        await client.getTask("t1", { signal: controller.signal });
        for await (const _ of client.sendStreamingMessage("go", { signal: controller.signal, timeoutMs: 60_000 }))
          break;
      }
      expect(timers()).toBeLessThanOrEqual(before);
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    }
    await server.socketsClosed();
    expect(server.requests.filter((r) => JSON.parse(r.body).method === "SendStreamingMessage")).toHaveLength(20);
    await Promise.all(server.requests.map((r) => r.closed));
  });

  it("await using closes the client's connections", async () => {
    server = await jsonRpcAgent();
    {
      await using client = new Client({ baseUrl: server.url });
      await client.getTask("t1");
    }
    await server.socketsClosed();
  });

  it("a closed client refuses calls with a NovaOSError; close is idempotent and calls onClose once", async () => {
    let closes = 0;
    const client = new Client({ baseUrl: "http://127.0.0.1:1", onClose: () => void closes++ });
    await client.close();
    await client.close();
    expect(client.closed).toBe(true);
    expect(closes).toBe(1);
    const error = await client.getTask("t1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSError);
    expect(error).not.toBeInstanceOf(NovaOSConnectionError);
  });

  it("an SDK error thrown by the caller's fetch (a guard's refusal) reaches the caller as is", async () => {
    const refusal = new NovaOSError("refused by the guard");
    const direct: typeof fetch = async () => {
      throw refusal;
    };
    const wrapped: typeof fetch = async () => {
      throw new TypeError("fetch failed", { cause: refusal });
    };
    await using a = new Client({ baseUrl: "http://agent.example", fetch: direct });
    await using b = new Client({ baseUrl: "http://agent.example", binding: "HTTP+JSON", fetch: wrapped });
    await expect(a.getTask("t1")).rejects.toBe(refusal);
    await expect(b.getTask("t1")).rejects.toBe(refusal);
  });

  it("a caller's fetch is used and left open", async () => {
    server = await jsonRpcAgent();
    const urls: string[] = [];
    const myFetch: typeof fetch = (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    };
    const client = new Client({ baseUrl: server.url, fetch: myFetch });
    await client.getTask("t1");
    await client.close();
    expect(urls).toEqual([server.url]);
  });
});
