/** The JSON-RPC binding on the wire, against a bare node:http server. */
import { afterEach, describe, expect, it } from "vitest";
import {
  InvalidAgentResponseError,
  MethodNotFoundError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "../../src/a2a/errors.js";
import { Client } from "../../src/client/client.js";
import {
  NovaOSAgentNotFoundError,
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  NovaOSRateLimitError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import {
  type RecordedRequest,
  sendJson,
  sseEvent,
  startHttpServer,
  startSse,
  type TestHttpServer,
} from "./support/http-server.js";

const task = (state: string, id = "t1") => ({ id, contextId: "c1", status: { state } });
const result = (req: RecordedRequest, value: unknown) => ({
  jsonrpc: "2.0",
  id: JSON.parse(req.body).id,
  result: value,
});
const rpcError = (req: RecordedRequest, code: number, message = "nope") => ({
  jsonrpc: "2.0",
  id: JSON.parse(req.body).id,
  error: { code, message },
});

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the call to fail"),
    (error: unknown) => error,
  );
}

async function drain(frames: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const frame of frames) out.push(frame);
  return out;
}

describe("JSON-RPC requests", () => {
  it("POSTs a JSON-RPC 2.0 envelope to the interface URL with the service parameters", async () => {
    server = await startHttpServer((req, res) =>
      sendJson(res, 200, result(req, { task: task("TASK_STATE_COMPLETED") })),
    );
    await using client = new Client({ baseUrl: `${server.url}/a2a/v1`, tenant: "acme" });
    await client.sendMessage("hi", { skillId: "chat", contextId: "c9", historyLength: 2, metadata: { k: 1 } });
    const req = server.requests[0] as RecordedRequest;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/a2a/v1");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["a2a-version"]).toBe("1.0");
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({
      jsonrpc: "2.0",
      method: "SendMessage",
      params: {
        tenant: "acme",
        message: { role: "ROLE_USER", contextId: "c9", metadata: { skillId: "chat" }, parts: [{ text: "hi" }] },
        configuration: { historyLength: 2 },
        metadata: { k: 1 },
      },
    });
    expect(typeof body.id).toBe("number");
    expect(body.params.message.messageId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reads a bare Task result as the task (hand-rolled peers)", async () => {
    server = await startHttpServer((req, res) => sendJson(res, 200, result(req, task("TASK_STATE_COMPLETED", "bare"))));
    await using client = new Client({ baseUrl: server.url });
    const reply = await client.sendMessage("hi");
    expect(reply.$typeName).toBe("lf.a2a.v1.Task");
  });

  it("refuses a SendMessage result with neither task nor message (-32006)", async () => {
    server = await startHttpServer((req, res) => sendJson(res, 200, result(req, { something: 1 })));
    await using client = new Client({ baseUrl: server.url });
    expect(await failure(client.sendMessage("hi"))).toBeInstanceOf(InvalidAgentResponseError);
  });

  it("refuses a reply whose id is not the request's", async () => {
    server = await startHttpServer((_req, res) => sendJson(res, 200, { jsonrpc: "2.0", id: 999, result: task("X") }));
    await using client = new Client({ baseUrl: server.url });
    expect(await failure(client.getTask("t1"))).toBeInstanceOf(InvalidAgentResponseError);
  });

  it("refuses a body that is not JSON, and one over the size cap", async () => {
    server = await startHttpServer((req, res) => {
      if (req.url === "/big") return sendJson(res, 200, { jsonrpc: "2.0", id: 1, result: { pad: "x".repeat(4096) } });
      res.writeHead(200, { "content-type": "application/json" });
      res.end("<html>");
    });
    await using client = new Client({ baseUrl: server.url });
    expect(await failure(client.getTask("t1"))).toBeInstanceOf(InvalidAgentResponseError);
    await using capped = new Client({ baseUrl: `${server.url}/big`, maxResponseBytes: 1024 });
    const error = await failure(capped.getTask("t1"));
    expect(error).toBeInstanceOf(InvalidAgentResponseError);
    expect((error as Error).message).toContain("1024");
  });

  it("maps an error envelope to its class, whatever the HTTP status", async () => {
    server = await startHttpServer((req, res) => {
      const status = req.headers["x-status"] === "500" ? 500 : 200;
      sendJson(res, status, rpcError(req, -32001, "no such task"));
    });
    await using client = new Client({ baseUrl: server.url });
    const ok = await failure(client.getTask("t1"));
    expect(ok).toBeInstanceOf(TaskNotFoundError);
    expect((ok as Error).message).toBe("no such task");
    const on500 = await failure(client.getTask("t1", { headers: { "x-status": "500" } }));
    expect(on500).toBeInstanceOf(TaskNotFoundError);
  });

  it("maps the standard JSON-RPC codes to the validation branch", async () => {
    server = await startHttpServer((req, res) => sendJson(res, 200, rpcError(req, -32601)));
    await using client = new Client({ baseUrl: server.url });
    const error = await failure(client.getTask("t1"));
    expect(error).toBeInstanceOf(MethodNotFoundError);
    expect(error).toBeInstanceOf(NovaOSValidationError);
  });
});

describe("HTTP failures", () => {
  it.each([
    [401, NovaOSAuthenticationError],
    [403, NovaOSAuthenticationError],
    [404, NovaOSAgentNotFoundError],
    [400, NovaOSValidationError],
    [502, NovaOSServerError],
  ])("HTTP %i without an A2A body is %o", async (status, ErrorClass) => {
    server = await startHttpServer((_req, res) => {
      res.writeHead(status, { "content-type": "text/html" });
      res.end("<h1>no</h1>");
    });
    await using client = new Client({ baseUrl: server.url });
    const error = await failure(client.getTask("t1"));
    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as NovaOSServerError).code).toBe(status);
  });

  it("5xx carries statusCode and is retryable only for transient statuses", async () => {
    server = await startHttpServer((req, res) => {
      res.writeHead(Number(req.headers["x-status"]));
      res.end();
    });
    await using client = new Client({ baseUrl: server.url });
    const e503 = (await failure(client.getTask("t1", { headers: { "x-status": "503" } }))) as NovaOSServerError;
    expect(e503.statusCode).toBe(503);
    expect(e503.isRetryable).toBe(true);
    const e500 = (await failure(client.getTask("t1", { headers: { "x-status": "500" } }))) as NovaOSServerError;
    expect(e500.isRetryable).toBe(false);
    // No automatic retry (decision C5): one request per call.
    expect(server.requests).toHaveLength(2);
  });

  it("429 is a NovaOSRateLimitError with Retry-After in seconds", async () => {
    server = await startHttpServer((_req, res) => {
      res.writeHead(429, { "retry-after": "7" });
      res.end();
    });
    await using client = new Client({ baseUrl: server.url });
    const error = await failure(client.getTask("t1"));
    expect(error).toBeInstanceOf(NovaOSRateLimitError);
    expect((error as NovaOSRateLimitError).retryAfter).toBe(7);
  });

  it("a refused connection is a retryable NovaOSConnectionError", async () => {
    server = await startHttpServer(() => undefined);
    const url = server.url;
    await server.close();
    server = undefined;
    await using client = new Client({ baseUrl: url });
    const error = await failure(client.getTask("t1"));
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect((error as NovaOSConnectionError).isRetryable).toBe(true);
    expect((error as Error).message).toContain("ECONNREFUSED");
  });

  it("refuses to follow a redirect (credentials must not follow it elsewhere)", async () => {
    server = await startHttpServer((_req, res) => {
      res.writeHead(307, { location: "http://127.0.0.1:1/" });
      res.end();
    });
    await using client = new Client({ baseUrl: server.url });
    expect(await failure(client.getTask("t1"))).toBeInstanceOf(NovaOSConnectionError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("JSON-RPC streams", () => {
  it("asks for SSE and decodes each event's result, skipping keep-alives", async () => {
    server = await startHttpServer((req, res) => {
      startSse(res);
      res.write(": keep-alive\n\n");
      sseEvent(res, result(req, { task: task("TASK_STATE_WORKING") }));
      res.write("data:\n\n");
      sseEvent(
        res,
        result(req, { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } }),
      );
      res.end();
    });
    await using client = new Client({ baseUrl: server.url });
    const frames = await drain(client.sendStreamingMessage("go"));
    expect(frames).toHaveLength(2);
    const req = server.requests[0] as RecordedRequest;
    expect(JSON.parse(req.body).method).toBe("SendStreamingMessage");
    expect(req.headers.accept).toContain("text/event-stream");
  });

  it("reads a plain JSON error answered to a streaming call as the error, not an empty stream", async () => {
    server = await startHttpServer((req, res) => sendJson(res, 200, rpcError(req, -32004)));
    await using client = new Client({ baseUrl: server.url });
    expect(await failure(drain(client.sendStreamingMessage("go")))).toBeInstanceOf(UnsupportedOperationError);
  });

  it("an error event mid-stream is thrown as its class after the frames before it (even in one read)", async () => {
    server = await startHttpServer((req, res) => {
      startSse(res);
      const frame = JSON.stringify(result(req, { task: task("TASK_STATE_WORKING") }));
      res.end(`data: ${frame}\n\nevent: error\ndata: ${JSON.stringify(rpcError(req, -32001))}\n\n`);
    });
    await using client = new Client({ baseUrl: server.url });
    const seen: unknown[] = [];
    const error = await failure(
      (async () => {
        for await (const frame of client.sendStreamingMessage("go")) seen.push(frame);
      })(),
    );
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(TaskNotFoundError);
  });

  it("a connection dropped mid-stream is a NovaOSConnectionError", async () => {
    server = await startHttpServer((req, res) => {
      startSse(res);
      sseEvent(res, result(req, { task: task("TASK_STATE_WORKING") }));
      res.socket?.destroy();
    });
    await using client = new Client({ baseUrl: server.url });
    const error = await failure(drain(client.sendStreamingMessage("go")));
    expect(error).toBeInstanceOf(NovaOSConnectionError);
  });

  it("a stream that closes cleanly before a last frame is a NovaOSConnectionError", async () => {
    server = await startHttpServer((req, res) => {
      startSse(res);
      sseEvent(res, result(req, { task: task("TASK_STATE_WORKING") }));
      res.end();
    });
    await using client = new Client({ baseUrl: server.url });
    const error = await failure(drain(client.sendStreamingMessage("go")));
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect((error as Error).message).toContain("terminal or interrupted");
  });

  it("stops at the last frame and hangs up even if the agent keeps the stream open", async () => {
    server = await startHttpServer((req, res) => {
      startSse(res);
      sseEvent(res, result(req, { task: task("TASK_STATE_INPUT_REQUIRED") }));
    });
    await using client = new Client({ baseUrl: server.url });
    const frames = await drain(client.sendStreamingMessage("go"));
    expect(frames).toHaveLength(1);
    await (server.requests[0] as RecordedRequest).closed;
  });

  it("aborting the signal rejects with its reason and closes the stream and the socket", async () => {
    server = await startHttpServer((req, res) => {
      startSse(res);
      sseEvent(res, result(req, { task: task("TASK_STATE_WORKING") }));
    });
    await using client = new Client({ baseUrl: server.url });
    const controller = new AbortController();
    const reason = new Error("user gave up");
    const error = await failure(
      (async () => {
        for await (const _ of client.sendStreamingMessage("go", { signal: controller.signal }))
          controller.abort(reason);
      })(),
    );
    expect(error).toBe(reason);
    await (server.requests[0] as RecordedRequest).closed;
    await server.socketsClosed();
  });

  it("a stream deadline is a NovaOSConnectionError and closes the request", async () => {
    server = await startHttpServer((req, res) => {
      startSse(res);
      sseEvent(res, result(req, { task: task("TASK_STATE_WORKING") }));
    });
    await using client = new Client({ baseUrl: server.url });
    const error = await failure(drain(client.sendStreamingMessage("go", { timeoutMs: 50 })));
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect((error as Error).message).toContain("timed out after 50 ms");
    // On a loaded machine the deadline may pass before the request is read: the connection is what must close.
    await server.socketsClosed();
  });

  it("a unary deadline cancels the pending request", async () => {
    server = await startHttpServer(() => undefined);
    await using client = new Client({ baseUrl: server.url, timeoutMs: 50 });
    const error = await failure(client.getTask("t1"));
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    await server.socketsClosed();
  });
});
