import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JsonReply, loadSpec, schemaValidator } from "../platform/contract-server.js";
import { expectRefused, type SpecExchange, startSpecExchange } from "./spec-exchange.js";
import { TOOL_SAMPLES, type ToolName } from "./tool-samples.js";

// openapi/mcp-gateway.yaml is what the tool bindings, MCPClient and the local platform are checked against:
// these tests prove it accepts what it should and refuses what it must, over a real socket.

let spec: SpecExchange;
beforeAll(async () => {
  spec = await startSpecExchange("mcp-gateway.yaml", ["toolsList", "toolsCall"]);
});
afterAll(() => spec.server.close());

/** Sends a JSON-RPC body to `path`, answered with `answer`; resolves to the violations found. */
const exchange = (path: string, body: unknown, answer?: JsonReply) =>
  spec.send("POST", path, { body, answer, headers: { "x-tenant-id": "t-1" } });

const call = (name: string, args: unknown, meta?: object) => ({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

/** A successful tools/call answer as the spec describes it: typed structuredContent, the same JSON as text. */
const success = (result: unknown): JsonReply => ({
  status: 200,
  headers: { "Mcp-Session-Id": "sess-1" },
  body: {
    jsonrpc: "2.0",
    id: 7,
    result: { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result },
  },
});

const rpcError = (error: object, status = 200): JsonReply => ({
  status,
  body: { jsonrpc: "2.0", id: status === 400 ? null : 7, error },
});

describe("openapi/mcp-gateway.yaml", () => {
  const samples = Object.entries(TOOL_SAMPLES) as [ToolName, (typeof TOOL_SAMPLES)[ToolName]][];

  it("accepts the sample call of every catalogued tool, and each sample result matches the catalog", async () => {
    for (const [name, sample] of samples) {
      expect(await exchange("/mcp/v1/tools/call", call(sample.call, sample.arguments), success(sample.result))).toEqual(
        [],
      );
      const validate = schemaValidator(await catalogApi, "ToolCatalog", "properties", name, "properties", "result");
      expect(validate(sample.result), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it("refuses each catalogued tool's bad arguments", async () => {
    for (const [name, sample] of samples) {
      const violations = await exchange("/mcp/v1/tools/call", call(sample.call, sample.badArguments.value));
      expectRefused(violations, `${name}: ${sample.badArguments.why}`);
    }
  });

  it("refuses a catalogued result that breaks its schema", async () => {
    const validate = schemaValidator(
      await catalogApi,
      "ToolCatalog",
      "properties",
      "novaos.memory.write",
      "properties",
      "result",
    );
    expect(validate({ memory_id: "m", scope: "agent", write_event_id: "w" })).toBe(false);
  });

  it("passes unknown tool names through with any object arguments", async () => {
    const answer = success({ affirmation: "You can do it" });
    expect(
      await exchange("/mcp/v1/tools/call", call("novaos.affirmations.generate_affirmation", { theme: "x" }), answer),
    ).toEqual([]);
  });

  it("holds connector names to the tier grammar", async () => {
    const answer = success(TOOL_SAMPLES["novaos.connector.*"].result);
    for (const name of [
      "novaos.connector.clickup.create-task",
      "novaos.connector.licensed.salesforce.query_accounts",
      "novaos.connector.ext.acme.getThing",
    ]) {
      expect(await exchange("/mcp/v1/tools/call", call(name, {}), answer), name).toEqual([]);
    }
    for (const name of [
      "novaos.connector.licensed.create-task", // a tier is not a connector id
      "novaos.connector.ext.a.b.c", // too many segments
      "novaos.connector.clickup", // no operation
      "novaos.connector.-bad.op", // a segment starts with a letter or digit
    ]) {
      expectRefused(await exchange("/mcp/v1/tools/call", call(name, {})), name);
    }
  });

  it("takes the call id in _meta and a session id header, and refuses a method other than the path's", async () => {
    expect(
      await exchange(
        "/mcp/v1/tools/call",
        call(
          "novaos.code.execute",
          { language: "bash", code: "true" },
          {
            "novaos/call_id": "call-1",
          },
        ),
        success(TOOL_SAMPLES["novaos.code.execute"].result),
      ),
    ).toEqual([]);
    const listBody = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { query: "memory" } };
    expectRefused(await exchange("/mcp/v1/tools/call", listBody));
    expectRefused(await exchange("/mcp/v1/tools/list", { ...listBody, id: null }));
  });

  it("describes tools/list pages with annotations and a cursor", async () => {
    const page: JsonReply = {
      status: 200,
      headers: { "Mcp-Session-Id": "sess-1" },
      body: {
        jsonrpc: "2.0",
        id: "l-1",
        result: {
          tools: [
            {
              name: "novaos.notify.send",
              description: "Multi-channel notifications",
              inputSchema: { type: "object", properties: { channel: { type: "string" } } },
              annotations: { readOnlyHint: false, idempotentHint: false },
            },
          ],
          nextCursor: "c-2",
        },
      },
    };
    const request = { jsonrpc: "2.0", id: "l-1", method: "tools/list", params: { query: "notify", cursor: "c-1" } };
    expect(await exchange("/mcp/v1/tools/list", request, page)).toEqual([]);
    const noSchema = structuredClone(page);
    delete (noSchema.body as { result: { tools: { inputSchema?: unknown }[] } }).result.tools[0]?.inputSchema;
    expect(await exchange("/mcp/v1/tools/list", request, noSchema)).toHaveLength(1);
  });

  it("requires the write-confirmation error to name the call and the tool", async () => {
    const request = call("novaos.notify.send", TOOL_SAMPLES["novaos.notify.send"].arguments, {
      "novaos/call_id": "c-9",
    });
    const data = { reason: "WRITE_CONFIRMATION_REQUIRED", call_id: "c-9", tool_name: "novaos.notify.send" };
    expect(await exchange("/mcp/v1/tools/call", request, rpcError({ code: -32042, message: "confirm", data }))).toEqual(
      [],
    );
    const { call_id: _, ...withoutCallId } = data;
    expect(
      await exchange(
        "/mcp/v1/tools/call",
        request,
        rpcError({ code: -32042, message: "confirm", data: withoutCallId }),
      ),
    ).toHaveLength(1);
    expect(
      await exchange(
        "/mcp/v1/tools/call",
        request,
        rpcError({ code: -32042, message: "confirm", data: { ...data, reason: "FORBIDDEN" } }),
      ),
    ).toHaveLength(1);
  });

  it("types the other gateway refusals", async () => {
    const request = call("novaos.connector.clickup.create-task", {});
    const ok = [
      {
        code: -32602,
        message: "Unknown tool",
        data: { reason: "TOOL_NOT_FOUND", tool_name: "novaos.connector.clickup.create-task" },
      },
      {
        code: -32602,
        message: "Bad arguments",
        data: { reason: "INVALID_ARGUMENTS", violations: [{ path: "/name", message: "must be string" }] },
      },
      { code: -32040, message: "Denied", data: { reason: "DOMAIN_NOT_ALLOWED" } },
      {
        code: -32043,
        message: "SERVICE_DISABLED: connector-host",
        data: { reason: "SERVICE_DISABLED", service: "connector-host" },
      },
      { code: -32603, message: "Internal error" },
    ];
    for (const error of ok)
      expect(await exchange("/mcp/v1/tools/call", request, rpcError(error)), error.message).toEqual([]);
    const bad = [
      { code: -32602, message: "Unknown tool", data: { reason: "TOOL_NOT_FOUND" } },
      { code: -32043, message: "disabled", data: { reason: "SERVICE_DISABLED" } },
      { code: -32040, message: "Denied" },
      { code: -32099, message: "A code the gateway does not use" },
    ];
    for (const error of bad)
      expect(await exchange("/mcp/v1/tools/call", request, rpcError(error)), error.message).toHaveLength(1);
  });

  it("answers a body that is not JSON-RPC with a null id, and HTTP refusals with the platform error body", async () => {
    const request = call("novaos.code.execute", { language: "bash", code: "true" });
    expect(
      await exchange(
        "/mcp/v1/tools/call",
        request,
        rpcError({ code: -32600, message: "Invalid Request", data: { reason: "INVALID_REQUEST" } }, 400),
      ),
    ).toEqual([]);
    for (const [status, error, headers] of [
      [404, "session_expired", {}],
      [429, "rate_limited", { "Retry-After": "3" }],
      [503, "unavailable", { "Retry-After": "1" }],
      [504, "upstream_timeout", {}],
    ] as const) {
      expect(await exchange("/mcp/v1/tools/call", request, { status, headers, body: { error } }), error).toEqual([]);
    }
  });

  it("requires a failed tool result to say why in a text block", async () => {
    const request = call("novaos.code.execute", { language: "bash", code: "exit 1" });
    const failed = (content: object[]) => ({
      status: 200,
      body: { jsonrpc: "2.0", id: 7, result: { content, isError: true } },
    });
    expect(
      await exchange("/mcp/v1/tools/call", request, failed([{ type: "text", text: "sandbox unavailable" }])),
    ).toEqual([]);
    expect(
      await exchange("/mcp/v1/tools/call", request, failed([{ type: "image", data: "AA==", mimeType: "image/png" }])),
    ).toHaveLength(1);
  });
});

const catalogApi = loadSpec("mcp-gateway.yaml");
