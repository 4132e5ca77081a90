import { describe, expect, it } from "vitest";
import {
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  type NovaOSError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { MissingServiceUrlError } from "../../src/http/service-url.js";
import { MCPClient } from "../../src/platform/mcp-client.js";
import { MCPTool, MCPToolResult } from "../../src/platform/mcp-tool.js";
import {
  ServiceDisabledError,
  ToolNotFoundError,
  WriteConfirmationRequiredError,
} from "../../src/tools/tool-errors.js";
import { rejection } from "../discovery/support.js";
import { ManualClock } from "../runtime/manual-clock.js";
import type { JsonReply } from "./contract-server.js";
import { startRawServer } from "./raw-server.js";
import { serviceClientHarness } from "./service-client-harness.js";

const TOKEN = "exec-token";
const TOOL = "novaos.knowledge.query";

const start = serviceClientHarness("mcp-gateway.yaml", TOKEN, (options) => new MCPClient(options));

type Rpc = { id: number; method: string; params?: Record<string, unknown> };
const rpcOf = (body: unknown) => body as Rpc;
const answer = (body: unknown, result: unknown, session = "sess-1"): JsonReply => ({
  status: 200,
  body: { jsonrpc: "2.0", id: rpcOf(body).id, result },
  headers: { "Mcp-Session-Id": session },
});
const refusal = (body: unknown, error: unknown): JsonReply => ({
  status: 200,
  body: { jsonrpc: "2.0", id: rpcOf(body).id, error },
  headers: { "Mcp-Session-Id": "sess-1" },
});
const KNOWLEDGE_RESULT = {
  results: [{ document_id: "d1", content: "Refunds within 30 days.", score: 0.9, metadata: {} }],
};
const called = (structured: unknown) => ({
  content: [{ type: "text", text: JSON.stringify(structured) }],
  structuredContent: structured,
});

describe("MCPClient (contract)", () => {
  it("lists tools with a query, following the next page, as JSON-RPC 2.0 with the bearer token", async () => {
    const { server, client } = await start({
      toolsList: ({ body }) =>
        rpcOf(body).params?.cursor === undefined
          ? answer(body, {
              tools: [{ name: TOOL, description: "Search", inputSchema: { type: "object" } }],
              nextCursor: "p2",
            })
          : answer(body, { tools: [{ name: "novaos.files.read", inputSchema: { type: "object" } }] }),
    });
    const tools = await client.toolsList("knowledge");
    expect(tools).toEqual([
      new MCPTool(TOOL, "Search", { type: "object" }),
      new MCPTool("novaos.files.read", undefined, { type: "object" }),
    ]);
    expect(tools[0]?.toJSON()).toEqual({ name: TOOL, description: "Search", inputSchema: { type: "object" } });
    expect(server.requests.map((r) => r.body)).toEqual([
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { query: "knowledge" } },
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { query: "knowledge", cursor: "p2" } },
    ]);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(server.violations).toEqual([]);
  });

  it("keeps the session id of the last answer and sends it with every later call", async () => {
    let n = 0;
    const { server, client } = await start({
      toolsList: ({ body }) => answer(body, { tools: [] }, `sess-${++n}`),
      toolsCall: ({ body }) => answer(body, called(KNOWLEDGE_RESULT), `sess-${++n}`),
    });
    expect(client.sessionId).toBeUndefined();
    await client.toolsList();
    expect(client.sessionId).toBe("sess-1");
    await client.toolsCall(TOOL, { query: "refunds" });
    await client.toolsCall(TOOL, { query: "refunds" });
    expect(server.requests.map((r) => r.headers["mcp-session-id"])).toEqual([undefined, "sess-1", "sess-2"]);
    expect(client.sessionId).toBe("sess-3");
    expect(server.violations).toEqual([]);
  });

  it("calls a tool and returns its result; an isError result is returned, not thrown", async () => {
    const { server, client } = await start({
      toolsCall: ({ body }) =>
        (rpcOf(body).params?.arguments as { query?: string } | undefined)?.query === "fail"
          ? answer(body, { content: [{ type: "text", text: "the index is rebuilding" }], isError: true })
          : answer(body, { ...called(KNOWLEDGE_RESULT), _meta: { took_ms: 12 } }),
    });
    const ok = await client.toolsCall(TOOL, { query: "refunds" }, { callId: "call-7" });
    expect(ok.isError).toBe(false);
    expect(ok.structuredContent).toEqual(KNOWLEDGE_RESULT);
    expect(ok.metadata).toEqual({ took_ms: 12 });
    expect(JSON.parse(ok.text ?? "")).toEqual(KNOWLEDGE_RESULT);
    const failed = await client.toolsCall(TOOL, { query: "fail" });
    expect(failed.isError).toBe(true);
    expect(failed.text).toBe("the index is rebuilding");
    expect(server.requests[0]?.body).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: TOOL, arguments: { query: "refunds" }, _meta: { "novaos/call_id": "call-7" } },
    });
    expect(server.violations).toEqual([]);
  });

  it("renews an expired session once: the same request again, without the session id", async () => {
    let expired = true;
    const { server, client } = await start({
      toolsList: ({ body }) => answer(body, { tools: [] }, "old"),
      toolsCall: ({ body, headers }) => {
        if (headers["mcp-session-id"] === "old" && expired) {
          expired = false;
          return { status: 404, body: { error: "session_expired", message: "unknown session" } };
        }
        return answer(body, called(KNOWLEDGE_RESULT), "new");
      },
    });
    await client.toolsList();
    const result = await client.toolsCall(TOOL, { query: "refunds" });
    expect(result.structuredContent).toEqual(KNOWLEDGE_RESULT);
    expect(client.sessionId).toBe("new");
    const calls = server.requests.filter((r) => r.operationId === "toolsCall");
    expect(calls.map((r) => r.headers["mcp-session-id"])).toEqual(["old", undefined]);
    expect(rpcOf(calls[1]?.body).params).toEqual(rpcOf(calls[0]?.body).params);
    expect(server.violations).toEqual([]);
  });

  it("renews only once: a second expiry is an error", async () => {
    const { server, client } = await start({
      toolsList: ({ body }) => answer(body, { tools: [] }, "old"),
      toolsCall: () => ({ status: 404, body: { error: "session_expired" } }),
    });
    await client.toolsList();
    const error = await rejection(client.toolsCall(TOOL, { query: "x" }));
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect(error).toMatchObject({ statusCode: 404 });
    expect(server.requests.filter((r) => r.operationId === "toolsCall")).toHaveLength(2);
  });

  it("sends a call once more only when the 404 says session_expired, the rule ctx.tools follows", async () => {
    const { server, client } = await start({
      toolsList: ({ body }) => answer(body, { tools: [] }, "old"),
      toolsCall: () => ({ status: 404, body: { error: "not_found", message: "no such route" } }),
    });
    await client.toolsList();
    const error = await rejection(client.toolsCall(TOOL, { query: "x" }));
    expect(error).toMatchObject({ statusCode: 404 });
    expect(server.requests.filter((r) => r.operationId === "toolsCall")).toHaveLength(1);
    expect(client.sessionId).toBe("old");
  });

  it("throws JSON-RPC errors typed", async () => {
    const errors: [unknown, abstract new (...args: never[]) => NovaOSError][] = [
      [
        { code: -32602, message: "Unknown tool", data: { reason: "TOOL_NOT_FOUND", tool_name: "novaos.x.y" } },
        ToolNotFoundError,
      ],
      [
        {
          code: -32602,
          message: "Invalid arguments",
          data: { reason: "INVALID_ARGUMENTS", violations: [{ path: "/query", message: "must be string" }] },
        },
        NovaOSValidationError,
      ],
      [
        { code: -32040, message: "Forbidden", data: { reason: "FORBIDDEN", required_scope: "mcp:x" } },
        NovaOSAuthenticationError,
      ],
      [
        {
          code: -32042,
          message: "Write confirmation required",
          data: { reason: "WRITE_CONFIRMATION_REQUIRED", call_id: "call-9", tool_name: "novaos.notify.send" },
        },
        WriteConfirmationRequiredError,
      ],
      [
        { code: -32043, message: "SERVICE_DISABLED", data: { reason: "SERVICE_DISABLED", service: "connector-host" } },
        ServiceDisabledError,
      ],
      [{ code: -32603, message: "Internal" }, NovaOSServerError],
    ];
    let current: unknown;
    const { server, client } = await start({ toolsCall: ({ body }) => refusal(body, current) });
    for (const [error, type] of errors) {
      current = error;
      const thrown = await rejection(client.toolsCall(TOOL, { query: "x" }));
      expect(thrown).toBeInstanceOf(type);
      expect((thrown as NovaOSError).isRetryable).toBe(false);
      expect((thrown as NovaOSError).code).toBe((error as { code: number }).code);
      if (thrown instanceof WriteConfirmationRequiredError) {
        expect(thrown).toMatchObject({ callId: "call-9", toolName: "novaos.notify.send" });
      }
    }
    expect(server.violations).toEqual([]);
  });

  it("maps a 400 JSON-RPC error by its code and HTTP refusals by status", async () => {
    let reply: JsonReply = {
      status: 401,
      body: { error: "unauthenticated" },
      headers: { "WWW-Authenticate": "Bearer" },
    };
    const { client } = await start({ toolsList: () => reply });
    expect(await rejection(client.toolsList())).toBeInstanceOf(NovaOSAuthenticationError);
    reply = { status: 400, body: { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } } };
    expect(await rejection(client.toolsList())).toMatchObject({ code: -32600 });
  });

  it("retries tools/list and an idempotent call on 503; a call not said to be idempotent is sent once", async () => {
    const clock = new ManualClock();
    const { server, client } = await start(
      { toolsCall: () => ({ status: 503, body: { error: "unavailable" } }) },
      { resilience: { clock, random: () => 0.5, timeoutMs: 0 } },
    );
    expect(await rejection(client.toolsCall(TOOL, { query: "x" }))).toMatchObject({ statusCode: 503 });
    expect(server.requests).toHaveLength(1);
    const idempotent = client.toolsCall(TOOL, { query: "x" }, { idempotent: true });
    clock.advance(await clock.nextSleep());
    clock.advance(await clock.nextSleep());
    await rejection(idempotent);
    expect(server.requests).toHaveLength(4);
  });
});

describe("MCPClient bad answers", () => {
  it("types a wrong id, a missing result, garbage and a refused connection", async () => {
    let reply = (id: number): string => JSON.stringify({ jsonrpc: "2.0", id: id + 1, result: {} });
    const raw = await startRawServer((_req, res, body) => {
      res.writeHead(200, { "content-type": "application/json" }).end(reply(JSON.parse(body).id));
    });
    const mcp = new MCPClient({ baseUrl: raw.url });
    try {
      expect(await rejection(mcp.toolsList())).toBeInstanceOf(NovaOSServerError);
      reply = (id) => JSON.stringify({ jsonrpc: "2.0", id });
      expect(await rejection(mcp.toolsList())).toBeInstanceOf(NovaOSServerError);
      reply = () => "<html>";
      expect(await rejection(mcp.toolsList())).toBeInstanceOf(NovaOSServerError);
      reply = (id) => JSON.stringify({ jsonrpc: "2.0", id, result: { tools: "none", nextCursor: 3 } });
      expect(await mcp.toolsList()).toEqual([]);
    } finally {
      await mcp.close();
      await raw.close();
    }
    const refused = new MCPClient({ baseUrl: raw.url, resilience: { maxAttempts: 1 } });
    expect(await rejection(refused.toolsList())).toBeInstanceOf(NovaOSConnectionError);
    await refused.close();
  });

  it("stops following a tools/list cursor that does not advance", async () => {
    const raw = await startRawServer((_req, res, body) => {
      const { id } = JSON.parse(body);
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [], nextCursor: "again" } }));
    });
    const mcp = new MCPClient({ baseUrl: raw.url });
    try {
      expect(await rejection(mcp.toolsList())).toBeInstanceOf(NovaOSServerError);
      expect(raw.requests).toHaveLength(2);
    } finally {
      await mcp.close();
      await raw.close();
    }
  });
});

describe("MCPToolResult", () => {
  it("reads a single content value as one block and finds the first text block", () => {
    expect(MCPToolResult.fromJson({ content: "plain" }).text).toBe("plain");
    expect(MCPToolResult.fromJson({ content: { answer: 42 } }).text).toBe('{"answer":42}');
    const mixed = MCPToolResult.fromJson({
      content: [
        { type: "image", data: "AA==", mimeType: "image/png" },
        { type: "text", text: "caption" },
      ],
    });
    expect(mixed.text).toBe("caption");
    expect(MCPToolResult.fromJson({ content: [{ type: "image", data: "AA==", mimeType: "image/png" }] }).text).toBe(
      undefined,
    );
    expect(MCPToolResult.fromJson(null)).toEqual(new MCPToolResult());
  });

  it("reads MCP_GATEWAY_URL, and names it when unset", () => {
    expect(() => new MCPClient({ env: {} })).toThrow(MissingServiceUrlError);
    expect(() => new MCPClient({ env: {} })).toThrow(/MCP_GATEWAY_URL/);
    const fromEnv = new MCPClient({ env: { MCP_GATEWAY_URL: "http://mcp-gateway:8080" } });
    expect(fromEnv.baseUrl).toBe("http://mcp-gateway:8080");
    void fromEnv.close();
  });
});
