/**
 * Bad input to the tools, from the skill or from the gateway, ends in a
 * typed error: nothing crashes, nothing hangs, and what the SDK can check
 * itself is refused before anything is sent.
 */
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  MissingExecutionTokenError,
  NovaOSConnectionError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { MAX_PARAMS_BYTES } from "../../src/tools/connector-tool.js";
import { McpToolGateway } from "../../src/tools/mcp-tool-gateway.js";
import { ToolBindings, type ToolBindingsOptions } from "../../src/tools/tool-bindings.js";
import { ToolsNotConfiguredError } from "../../src/tools/tool-errors.js";

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void;

/** A gateway that answers whatever the test says, counting requests. */
let handler: Handler;
let requests = 0;
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    requests++;
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => handler(request, response, Buffer.concat(chunks).toString("utf8")));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});
beforeEach(() => {
  requests = 0;
  handler = (_request, response, body) => {
    const id = (JSON.parse(body) as { id: string }).id;
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ jsonrpc: "2.0", id, result: { content: [], structuredContent: { ok: true } } }));
  };
});

function bindings(options: ToolBindingsOptions = {}): ToolBindings {
  return new ToolBindings({ gateway: url, token: "t", tenantId: "tenant-1", ...options });
}

/** Answers every request with `status`, `contentType` and `body` as given. */
function answerWith(status: number, contentType: string, body: string | Buffer): void {
  handler = (_request, response) => {
    response.writeHead(status, { "content-type": contentType });
    response.end(body);
  };
}

describe("bad input from the skill, refused before anything is sent", () => {
  it.each<[string, (t: ToolBindings) => Promise<unknown>]>([
    [
      "connector params over MAX_PARAMS_BYTES",
      (t) => t.connector.call("clickup", "create-task", { blob: "x".repeat(MAX_PARAMS_BYTES) }),
    ],
    [
      "a connector tier that does not exist",
      (t) => t.connector.call("clickup", "get-task", {}, { tier: "premium" as never }),
    ],
    ["a connector id with a dot", (t) => t.connector.call("click.up", "get-task")],
    ["an operation with a slash", (t) => t.connector.call("clickup", "get/../task")],
    ["'licensed' as a standard connector id", (t) => t.connector.call("licensed", "get-task")],
    ["connector params that are not an object", (t) => t.connector.call("clickup", "get-task", [1, 2] as never)],
    [
      "params that break paramsSchema",
      (t) =>
        t.connector.call(
          "clickup",
          "create-task",
          { name: 7 },
          {
            paramsSchema: { type: "object", required: ["list_id"], properties: { name: { type: "string" } } },
          },
        ),
    ],
    [
      "a paramsSchema that cannot be used",
      (t) => t.connector.call("clickup", "get-task", {}, { paramsSchema: "nope" }),
    ],
    ["NaN in the arguments", (t) => t.knowledge.search("x", { top_k: Number.NaN })],
    ["Infinity in the arguments", (t) => t.call("novaos.weather.forecast", { days: Number.POSITIVE_INFINITY })],
    ["a BigInt in the arguments", (t) => t.call("novaos.weather.forecast", { days: 3n })],
    ["a function in the arguments", (t) => t.call("novaos.weather.forecast", { days: () => 3 })],
    [
      "arguments that refer to themselves",
      (t) => {
        const args: Record<string, unknown> = { city: "Paris" };
        args.self = args;
        return t.call("novaos.weather.forecast", args);
      },
    ],
    ["arguments that are an array", (t) => t.call("novaos.weather.forecast", [] as never)],
    ["a request over 10 MiB", (t) => t.files.write("big.bin", "x".repeat(10 * 1024 * 1024))],
    ["a memory over 32 KiB", (t) => t.memory.write("agent", "é".repeat(16 * 1024 + 1))],
    ["a hint over 8 KiB", (t) => t.memory.hint("x".repeat(8 * 1024 + 1), "conv-1")],
    ["an update that changes nothing", (t) => t.memory.update("agent", "mem_1", 2, {})],
    [
      "an update with a confidence over 1 (MemoryClient's own check)",
      (t) => t.memory.update("agent", "mem_1", 2, { confidence: 2 }),
    ],
    [
      "an update with 21 tags (MemoryClient's own check)",
      (t) => t.memory.update("agent", "mem_1", 2, { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }),
    ],
    ["an empty memory", (t) => t.memory.write("agent", "")],
    ["a timeout of 0 s", (t) => t.files.list({}, { timeoutS: 0 })],
    ["a timeout that is not a number", (t) => t.files.list({}, { timeoutS: Number.NaN })],
    ["a poll interval of 0 s", (t) => t.knowledge.pollUntilComplete("job-1", { pollIntervalS: 0 })],
    ["a negative maxWaitS", (t) => t.knowledge.pollGraphBuildUntilComplete("c", { maxWaitS: -1 })],
  ])("%s", async (_what, call) => {
    const error = await call(bindings()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSValidationError);
    expect(requests).toBe(0);
  });

  it.each([
    "novaos.knowledge.query\n",
    "novaos..query",
    "novaos/../query",
    "knowledge",
    "",
    "novaos.knowledge.qu ery",
    "novaos.knowledge.query;drop",
    "novaos.знание.query",
    `novaos.${"a".repeat(250)}`,
  ])("refuses the tool name %j", async (name) => {
    const error = await bindings()
      .call(name, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSValidationError);
    expect((error as NovaOSValidationError).field).toBe("name");
    expect(requests).toBe(0);
  });

  it("refuses a call below the gateway's timeout floor, and a default below it at construction", async () => {
    const tools = bindings({ gatewayTimeoutS: 120 });
    expect(tools.caller.defaultTimeoutS).toBe(128);
    await expect(tools.files.list({}, { timeoutS: 60 })).rejects.toBeInstanceOf(NovaOSValidationError);
    await expect(tools.knowledge.ingest("doc")).resolves.toEqual({ ok: true });
    await expect(bindings({ gatewayTimeoutS: 121 }).knowledge.ingest("doc")).rejects.toBeInstanceOf(
      NovaOSValidationError,
    );
    expect(() => bindings({ defaultTimeoutS: 30, gatewayTimeoutS: 60 })).toThrow(RangeError);
    expect(requests).toBe(1);
  });

  it("reads NOVAOS_TOOL_TIMEOUT_S, and refuses a value that is not a positive whole number of seconds", () => {
    expect(bindings({ env: { NOVAOS_TOOL_TIMEOUT_S: "45" } }).caller.defaultTimeoutS).toBe(45);
    expect(bindings({ env: {} }).caller.defaultTimeoutS).toBe(128);
    for (const value of ["0", "-5", "1.5", "soon"]) {
      expect(() => bindings({ env: { NOVAOS_TOOL_TIMEOUT_S: value } })).toThrow(/NOVAOS_TOOL_TIMEOUT_S/);
    }
  });

  it("refuses a call without a token, and every call without a gateway, naming MCP_GATEWAY_URL", async () => {
    await expect(bindings({ token: "" }).files.list()).rejects.toBeInstanceOf(MissingExecutionTokenError);
    const none = new ToolBindings({ token: "t", env: {} });
    const error = await none.knowledge.search("x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolsNotConfiguredError);
    expect((error as Error).message).toContain("MCP_GATEWAY_URL");
    expect(requests).toBe(0);
  });

  it("refuses a gateway URL that is not http(s)", () => {
    for (const bad of ["mcp-gateway:8080", "ftp://mcp-gateway", "not a url"]) {
      expect(() => bindings({ gateway: bad })).toThrow(NovaOSValidationError);
    }
  });
});

describe("bad answers from the gateway", () => {
  it.each<[string, () => void, RegExp]>([
    ["garbage", () => answerWith(200, "application/json", "{not json"), /not JSON/],
    ["an HTML page", () => answerWith(200, "text/html", "<html><body>Login</body></html>"), /text\/html, not JSON/],
    ["JSON that is not JSON-RPC", () => answerWith(200, "application/json", '{"ok":true}'), /not a JSON-RPC response/],
    [
      "another request's id",
      () => answerWith(200, "application/json", '{"jsonrpc":"2.0","id":"other","result":{"content":[]}}'),
      /answered request "other"/,
    ],
    [
      "a result that is not a CallToolResult",
      () => {
        handler = (_request, response, body) => {
          response.writeHead(200, { "content-type": "application/json" });
          response.end(JSON.stringify({ jsonrpc: "2.0", id: (JSON.parse(body) as { id: string }).id, result: 42 }));
        };
      },
      /not an MCP CallToolResult/,
    ],
    [
      "a catalogued tool's result that is not an object",
      () => {
        handler = (_request, response, body) => {
          const id = (JSON.parse(body) as { id: string }).id;
          response.writeHead(200, { "content-type": "application/json" });
          response.end(JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "hello" }] } }));
        };
      },
      /not an object/,
    ],
    [
      "a malformed JSON-RPC error",
      () => answerWith(200, "application/json", '{"jsonrpc":"2.0","id":null,"error":"boom"}'),
      /malformed JSON-RPC error/,
    ],
    [
      "a 10 MB body that is not JSON",
      () => answerWith(200, "application/json", Buffer.alloc(10_000_000, 0x41)),
      /not JSON/,
    ],
  ])("%s is a NovaOSServerError, not retried", async (_what, answer, message) => {
    answer();
    const error = await bindings()
      .files.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect((error as Error).message).toMatch(message);
    expect((error as NovaOSServerError).isRetryable).toBe(false);
    expect(requests).toBe(1);
  });

  it("refuses an answer over the reply cap as soon as it passes it", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      // 10 MB in 64 KiB chunks, never ended unless the reader keeps reading.
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const push = () => {
        while (sent < 10_000_000 && response.write(chunk)) sent += chunk.length;
        if (sent < 10_000_000) response.once("drain", push);
        else response.end();
      };
      push();
    };
    const tools = bindings({ gateway: new McpToolGateway({ url, maxReplyBytes: 1024 * 1024 }) });
    const error = await tools.files.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect((error as Error).message).toContain("more than 1048576 bytes");
  });

  it("an answer cut off midway is a NovaOSConnectionError", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      response.write('{"jsonrpc":"2.0","id":');
      response.socket?.destroy();
    };
    const tools = bindings({ gateway: new McpToolGateway({ url, resilience: { maxAttempts: 1 } }) });
    await expect(tools.files.list()).rejects.toBeInstanceOf(NovaOSConnectionError);
  });

  it("a gateway that is not there is a NovaOSConnectionError", async () => {
    const closed = http.createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, "close");
    const tools = bindings({
      gateway: new McpToolGateway({ url: `http://127.0.0.1:${port}`, resilience: { maxAttempts: 1 } }),
    });
    const error = await tools.connector.call("clickup", "get-task").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect((error as NovaOSConnectionError).isRetryable).toBe(true);
  });
});
