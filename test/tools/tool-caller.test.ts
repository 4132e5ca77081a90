/**
 * The one governed call behind every tool: the run's headers (the SDK's own
 * always win over the caller's custom headers), its trace, its MCP session,
 * the tool events it emits, the evaluation transcript, and the typed error
 * of every refusal the gateway can answer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { NovaOSAuthenticationError, NovaOSValidationError } from "../../src/errors/novaos-errors.js";
import { type ToolEvent, toolEventsPart } from "../../src/messages/tool-event.js";
import { EvaluationContext } from "../../src/tools/evaluation-context.js";
import { ToolBindings, type ToolBindingsOptions } from "../../src/tools/tool-bindings.js";
import { MAX_EVENT_VALUE_BYTES } from "../../src/tools/tool-caller.js";
import {
  ServiceDisabledError,
  ToolError,
  ToolNotFoundError,
  WriteConfirmationRequiredError,
} from "../../src/tools/tool-errors.js";
import {
  GATEWAY_TOKEN,
  type GatewayDouble,
  rpcError,
  sampleAnswer,
  startGateway,
  toolFailure,
  toolSuccess,
} from "./support/mcp-gateway.js";

const TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

let gateway: GatewayDouble;
beforeAll(async () => {
  gateway = await startGateway();
});
afterEach(() => {
  gateway.answer = sampleAnswer;
  expect(gateway.server.violations).toEqual([]);
});
afterAll(() => gateway.close());

function bindings(options: ToolBindingsOptions = {}): ToolBindings {
  return new ToolBindings({ gateway: gateway.url, token: GATEWAY_TOKEN, tenantId: "tenant-1", ...options });
}

/** The call `run` sent (the last one to arrive). */
async function lastCallOf(run: () => Promise<unknown>) {
  const before = gateway.calls.length;
  await run();
  expect(gateway.calls.length).toBeGreaterThan(before);
  return gateway.calls[gateway.calls.length - 1];
}

describe("the run's headers", () => {
  it("forwards the caller's custom headers, filtered, and never lets one replace the SDK's own", async () => {
    const tools = bindings({
      traceparent: TRACE,
      customHeaders: {
        "X-Caller-Ref": "order-42",
        Authorization: "Bearer someone-else",
        "X-Tenant-ID": "another-tenant",
        traceparent: "00-11111111111111111111111111111111-2222222222222222-01",
        "Mcp-Session-Id": "forged",
        "X-NovaOS-Execution-Token": "forged",
      },
    });
    const call = await lastCallOf(() => tools.files.list());
    expect(call?.headers["x-caller-ref"]).toBe("order-42");
    expect(call?.headers.authorization).toBe(`Bearer ${GATEWAY_TOKEN}`);
    expect(call?.headers["x-tenant-id"]).toBe("tenant-1");
    expect(call?.headers.traceparent).toBe(TRACE);
    expect(call?.headers["mcp-session-id"]).toBeUndefined();
    expect(call?.headers["x-novaos-execution-token"]).toBeUndefined();
  });

  it("refuses a custom header value that is not a header value", () => {
    expect(() => bindings().setCustomHeaders({ "x-note": "line\r\nInjected: yes" })).toThrow(NovaOSValidationError);
  });

  it("sends the run's trace as set per run, and never the TRACEPARENT of the pod's first run", async () => {
    vi.stubEnv("TRACEPARENT", "00-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbb-01");
    try {
      const tools = bindings();
      expect((await lastCallOf(() => tools.files.list()))?.headers.traceparent).toBeUndefined();
      tools.setTraceparent(TRACE);
      expect((await lastCallOf(() => tools.files.list()))?.headers.traceparent).toBe(TRACE);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("omits X-Tenant-ID when the run has no tenant", async () => {
    const call = await lastCallOf(() => bindings({ tenantId: "" }).files.list());
    expect(call?.headers["x-tenant-id"]).toBeUndefined();
  });
});

describe("the MCP session", () => {
  it("sends the last session id, and renews an expired one once, even for a tool that is never retried", async () => {
    const tools = bindings();
    await tools.files.list();
    let expired = 0;
    gateway.answer = (call) => {
      if (call.headers["mcp-session-id"] === "session-1" && expired++ === 0) {
        return { status: 404, body: { error: "session_expired", message: "unknown session" } };
      }
      return toolSuccess(call, { notification_id: "n-1", channel: "slack", status: "queued", recipients: 1 }, "s-2");
    };
    const before = gateway.calls.length;
    await tools.notify.send({ channel: "slack", to: ["#ops"], body: "done" });
    const sent = gateway.calls.slice(before);
    expect(sent.map((c) => c.headers["mcp-session-id"])).toEqual(["session-1", undefined]);
    expect(sent[0]?.callId).toBe(sent[1]?.callId);
    gateway.answer = sampleAnswer;
    expect((await lastCallOf(() => tools.files.list()))?.headers["mcp-session-id"]).toBe("s-2");
  });

  it("answers a second expiry, or a 404 with no session sent, with an error", async () => {
    gateway.answer = () => ({ status: 404, body: { error: "session_expired" } });
    const error = await bindings()
      .files.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSValidationError);
    expect((error as Error).message).toContain("HTTP 404");
  });
});

describe("tool events", () => {
  it("emits tool.call before and tool.result after each call, to the run's channel and to a custom sink", async () => {
    const run: ToolEvent[] = [];
    const custom: ToolEvent[] = [];
    const tools = bindings({ runEvents: (e) => run.push(e) });
    tools.setEventSink((e) => custom.push(e));
    const before = gateway.calls.length;
    await tools.knowledge.search("refund policy", { top_k: 5 });
    await tools.files.read("reports/q1.md");
    expect(run).toEqual(custom);
    expect(run.map((e) => [e.type, e.toolName, e.success])).toEqual([
      ["tool.call", "novaos.knowledge.query", undefined],
      ["tool.result", "novaos.knowledge.query", true],
      ["tool.call", "novaos.files.read", undefined],
      ["tool.result", "novaos.files.read", true],
    ]);
    const [call, result] = run;
    expect(call?.callId).toBe(gateway.calls[before]?.callId);
    expect(result?.callId).toBe(call?.callId);
    expect(call?.arguments).toEqual({ top_k: 5, query: "refund policy" });
    expect(result?.result?.kind.case).toBe("structValue");
    expect(result?.time).toBeDefined();
  });

  it("reports a failed call in its tool.result, and keeps going when a sink throws", async () => {
    const events: ToolEvent[] = [];
    const tools = bindings({
      runEvents: () => {
        throw new Error("broken sink");
      },
      eventSink: (e) => events.push(e),
    });
    gateway.answer = (call) => toolFailure(call, "collection not found");
    await expect(tools.knowledge.search("x")).rejects.toBeInstanceOf(ToolError);
    expect(events.map((e) => [e.type, e.success, e.error])).toEqual([
      ["tool.call", undefined, ""],
      ["tool.result", false, "novaos.knowledge.query failed: collection not found"],
    ]);
    tools.setEventSink(undefined);
    gateway.answer = sampleAnswer;
    await tools.knowledge.search("y");
    expect(events).toHaveLength(2);
  });

  it(`leaves arguments and results over ${MAX_EVENT_VALUE_BYTES} bytes out of the event, not out of the call`, async () => {
    const events: ToolEvent[] = [];
    const tools = bindings({ runEvents: (e) => events.push(e) });
    const content = "x".repeat(MAX_EVENT_VALUE_BYTES + 1);
    gateway.answer = (call) =>
      toolSuccess(call, {
        path: "big.txt",
        content,
        encoding: "utf-8",
        content_type: "text/plain",
        size_bytes: content.length,
        etag: "e",
      });
    const file = await tools.files.read("big.txt");
    expect(file.content).toBe(content);
    gateway.answer = sampleAnswer;
    await tools.files.write("big.txt", content);
    expect(events[0]?.arguments).toEqual({ path: "big.txt" });
    expect(events[1]?.result).toBeUndefined();
    expect(events[2]?.arguments).toEqual({});
    expect(toolEventsPart(events).content.case).toBe("data");
  });
});

describe("the evaluation transcript", () => {
  it("records every call made while it is active, arguments and responses unmasked, and nothing outside it", async () => {
    const tools = bindings();
    const evaluation = new EvaluationContext();
    gateway.answer = (call) =>
      call.name === "novaos.files.read" ? toolFailure(call, "no such file") : sampleAnswer(call);
    await tools.knowledge.search("call 555-123-4567 about ada@example.com");
    await evaluation.run(async () => {
      await tools.knowledge.search("call 555-123-4567 about ada@example.com");
      await tools.files.read("gone.txt").catch(() => undefined);
    });
    expect(EvaluationContext.current()).toBeUndefined();
    expect(
      evaluation.toolCalls.map(({ toolName, arguments: args, success, error }) => ({ toolName, args, success, error })),
    ).toEqual([
      {
        toolName: "novaos.knowledge.query",
        args: { query: "call 555-123-4567 about ada@example.com" },
        success: true,
        error: undefined,
      },
      {
        toolName: "novaos.files.read",
        args: { path: "gone.txt" },
        success: false,
        error: "novaos.files.read failed: no such file",
      },
    ]);
    expect(evaluation.toolCalls[0]?.response).toEqual({
      results: [{ document_id: "doc-1", content: "Refunds within 30 days.", score: 0.91, metadata: {} }],
    });
  });

  it("keeps concurrent runs apart: only the run started inside the evaluation records into it", async () => {
    const evaluation = new EvaluationContext();
    const tools = bindings();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inside = evaluation.run(async () => {
      await gate;
      await tools.files.read("inside.txt");
    });
    const outside = (async () => {
      await gate;
      await tools.files.read("outside.txt");
    })();
    release();
    await Promise.all([inside, outside]);
    expect(evaluation.toolCalls.map((c) => c.arguments.path)).toEqual(["inside.txt"]);
  });
});

describe("the gateway's refusals, typed", () => {
  it("a tool that ran and failed is a ToolError with the tool's own words", async () => {
    gateway.answer = (call) => toolFailure(call, "job job-9 does not exist");
    const error = await bindings()
      .knowledge.getJobStatus("job-9")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).message).toBe("novaos.knowledge.get_job_status failed: job job-9 does not exist");
    expect((error as ToolError).toolName).toBe("novaos.knowledge.get_job_status");
  });

  it("-32042 is a WriteConfirmationRequiredError naming the call to confirm and the tool", async () => {
    gateway.answer = (call) =>
      rpcError(call, -32042, "write confirmation required", {
        reason: "WRITE_CONFIRMATION_REQUIRED",
        call_id: call.callId ?? "",
        tool_name: call.name,
      });
    const tools = bindings();
    const error = await tools.notify
      .send({ channel: "slack", to: ["#ops"], body: "deploying" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriteConfirmationRequiredError);
    const { callId, toolName } = error as WriteConfirmationRequiredError;
    expect(toolName).toBe("novaos.notify.send");
    expect(callId).toBe(gateway.calls[gateway.calls.length - 1]?.callId);
    expect(tools.hitl.requiresWriteHitl(toolName)).toBe(true);
  });

  it("-32043 is a ServiceDisabledError whose message names SERVICE_DISABLED", async () => {
    gateway.answer = (call) =>
      rpcError(call, -32043, "connector-host is disabled", { reason: "SERVICE_DISABLED", service: "connector-host" });
    const error = await bindings()
      .connector.call("clickup", "get-task", { id: "1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceDisabledError);
    expect((error as ServiceDisabledError).service).toBe("connector-host");
    expect((error as Error).message).toContain("SERVICE_DISABLED");
  });

  it("a standard-tier connector the gateway does not know suggests the other tiers; a licensed one does not", async () => {
    gateway.answer = (call) =>
      rpcError(call, -32602, "unknown tool", { reason: "TOOL_NOT_FOUND", tool_name: call.name });
    const tools = bindings();
    const standard = await tools.connector.call("acme", "list-items").catch((e: unknown) => e);
    expect(standard).toBeInstanceOf(ToolNotFoundError);
    expect((standard as Error).message).toMatch(/tier: "licensed".*tier: "ext"/);
    expect((standard as ToolNotFoundError).toolName).toBe("novaos.connector.acme.list-items");
    const licensed = await tools.connector
      .call("acme", "list-items", {}, { tier: "licensed" })
      .catch((e: unknown) => e);
    expect(licensed).toBeInstanceOf(ToolNotFoundError);
    expect((licensed as Error).message).not.toContain("tier:");
  });

  it("-32602 INVALID_ARGUMENTS is a NovaOSValidationError carrying the violations; -32040 an authentication error", async () => {
    const violations = [{ path: "/top_k", message: "must be <= 100" }];
    gateway.answer = (call) => rpcError(call, -32602, "invalid arguments", { reason: "INVALID_ARGUMENTS", violations });
    const invalid = await bindings()
      .knowledge.search("x")
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(NovaOSValidationError);
    expect((invalid as NovaOSValidationError).details).toEqual({ data: { reason: "INVALID_ARGUMENTS", violations } });
    gateway.answer = (call) => rpcError(call, -32040, "domain not allowed", { reason: "DOMAIN_NOT_ALLOWED" });
    await expect(bindings().http.get("https://api.example.com/")).rejects.toBeInstanceOf(NovaOSAuthenticationError);
  });

  it("a request the gateway could not read (HTTP 400, id null) is a NovaOSValidationError", async () => {
    gateway.answer = () => ({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "not a request", data: { reason: "INVALID_REQUEST" } },
      },
    });
    const error = await bindings()
      .files.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSValidationError);
    expect((error as NovaOSValidationError).code).toBe(-32600);
  });
});
