import { Agent, fetch as undiciFetch } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import {
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  NovaOSError,
  NovaOSRateLimitError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { BearerTokenAuth } from "../../src/http/auth.js";
import { MissingServiceUrlError } from "../../src/http/service-url.js";
import type { MemoryCallerContext } from "../../src/memory/caller-context.js";
import { MemoryClient, type MemoryClientOptions } from "../../src/memory/memory-client.js";
import { CircuitOpenError } from "../../src/runtime/resilience.js";
import { rejection } from "../discovery/support.js";
import { TOOL_SAMPLES } from "../openapi/tool-samples.js";
import { type ContractServer, type JsonReply, startContractServer } from "../platform/contract-server.js";
import { type RawServer, startRawServer, writeForever } from "../platform/raw-server.js";
import { ManualClock } from "../runtime/manual-clock.js";

const TOKEN = "exec-token-1";
const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
const AT = "2026-07-25T14:00:00Z";

let server: ContractServer | RawServer | undefined;
let client: MemoryClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** A contract server answering each tool with `answers[tool]` (a result, or a whole reply). */
async function start(
  answers: Record<string, unknown | ((payload: Record<string, unknown>) => JsonReply)>,
  options: MemoryClientOptions = {},
) {
  const contract = await startContractServer({
    spec: "memory.yaml",
    bearerToken: TOKEN,
    handlers: {
      memoryDispatch: ({ body }) => {
        const { tool, payload } = body as { tool: string; payload: Record<string, unknown> };
        const answer = answers[tool];
        if (typeof answer === "function") return answer(payload);
        return { status: 200, body: { tool, result: answer } };
      },
    },
  });
  server = contract;
  client = new MemoryClient({ baseUrl: contract.url, auth: new BearerTokenAuth(TOKEN), ...options });
  return { server: contract, client };
}

const sentBodies = (s: ContractServer) => s.requests.map((r) => r.body as { tool: string; payload: unknown });

function skillContext(idempotencyKey: string): MemoryCallerContext {
  return { idempotencyKey, contextId: "conv-9", runId: "run-7", traceId: "4bf92f3577b34da6a3ce929d0e0e4736" };
}

describe("MemoryClient (contract)", () => {
  it("sends every tool's envelope with the bearer token and trace context, and reads each result", async () => {
    const { server, client } = await start({
      "memory.query": TOOL_SAMPLES["novaos.memory.query"].result,
      "memory.write": { memory_id: "mem_2", scope: "agent", write_event_id: "we-2", created_at: AT },
      "memory.update": TOOL_SAMPLES["novaos.memory.update"].result,
      "memory.forget": TOOL_SAMPLES["novaos.memory.forget"].result,
      "memory.hint": TOOL_SAMPLES["novaos.memory.hint"].result,
      "memory.hint_status": { hint_id: "hint-1", status: "pending", submitted_at: AT, resolved_at: null },
      "memory.proposal_status": { proposal_id: "prop_1", status: "committed", reason: null, memory_id: "mem_9" },
      "memory.assemble": TOOL_SAMPLES["novaos.memory.assemble"].result,
    });
    const query = await client.query("agent", "date formats", {
      topK: 3,
      memoryType: "semantic",
      conversationId: "conv-1",
      filters: { tags: ["api"] },
      traceparent: TRACEPARENT,
      requestId: "req-1",
    });
    expect(query).toEqual({
      items: [
        {
          memoryId: "mem_1",
          scope: "agent",
          content: "Reporting API requires ISO 8601 date ranges",
          version: 2,
          metadata: {
            tags: ["api"],
            source: undefined,
            conversationId: undefined,
            confidence: 0.9,
            salience: undefined,
            memoryType: undefined,
            createdAt: AT,
            updatedAt: undefined,
            lastAccessedAt: undefined,
            custom: undefined,
          },
          score: 0.87,
        },
      ],
      retrievalId: "ret-1",
      partial: false,
      storesQueried: ["vector"],
    });
    const write = await client.write("agent", "Use ISO 8601", { tags: ["api"], memoryType: "procedural" });
    expect(write).toEqual({ memoryId: "mem_2", scope: "agent", writeEventId: "we-2", createdAt: AT, durable: true });
    expect(await client.update("agent", "mem_1", 2, { confidence: 0.95 })).toMatchObject({ version: 3 });
    expect(await client.forget("agent", "mem_1", { reason: "outdated" })).toEqual({
      deletedCount: 1,
      deleteEventId: "de-1",
    });
    expect(await client.hint("User prefers dark mode", { conversationId: "conv-1", priority: "low" })).toEqual({
      hintId: "hint-1",
      status: "accepted",
      message: "queued",
    });
    expect(await client.hintStatus("hint-1")).toEqual({
      hintId: "hint-1",
      status: "pending",
      submittedAt: AT,
      resolvedAt: undefined,
    });
    expect(await client.pollProposal("prop_1")).toEqual({
      proposalId: "prop_1",
      status: "committed",
      reason: undefined,
      memoryId: "mem_9",
    });
    const bundle = await client.assembleContext("current task", { liveMessageLimit: 10, tokenBudget: 2000 });
    expect(bundle.liveMessages).toEqual([{ messageId: "m1", role: "user", content: "hi", timestamp: AT }]);
    expect(bundle.agentMemories.map((m) => m.memoryId)).toEqual(["mem_1"]);
    expect(bundle).toMatchObject({ sourcesSkipped: ["user"], partial: false, retrievalId: undefined });

    expect(server.violations).toEqual([]);
    expect(sentBodies(server)[0]).toEqual({
      tool: "memory.query",
      payload: {
        scope: "agent",
        query: "date formats",
        top_k: 3,
        filters: { tags: ["api"], memory_type: "semantic", conversation_id: "conv-1" },
      },
      context: { request_id: "req-1" },
    });
    expect(sentBodies(server)[7]?.payload).toEqual({
      query: "current task",
      top_k: 10,
      live_message_limit: 10,
      token_budget: 2000,
    });
    for (const request of server.requests) {
      expect(request.path).toBe("/api/v1/mcp");
      expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    }
    expect(server.requests[0]?.headers.traceparent).toBe(TRACEPARENT);
  });

  it("derives durable from a prop_ id when the service does not say, and keeps what it says", async () => {
    const results = [
      { memory_id: "prop_7", scope: "agent", write_event_id: "we-1", created_at: AT },
      { memory_id: "mem_7", scope: "agent", write_event_id: "we-2", created_at: AT, durable: false },
    ];
    const { server, client } = await start({
      "memory.write": () => ({ status: 200, body: { tool: "memory.write", result: results.shift() } }),
    });
    expect((await client.write("agent", "a")).durable).toBe(false);
    expect((await client.write("agent", "b")).durable).toBe(false);
    expect(server.violations).toEqual([]);
  });
});

describe("MemoryClient idempotency keys", () => {
  it("derives one stable key per write of an execution, counted across client instances", async () => {
    const { server, client } = await start({
      "memory.write": { memory_id: "mem_1", scope: "run", write_event_id: "we", created_at: AT },
    });
    const ctx = skillContext("exec-42");
    await client.write("run", "first", { ctx });
    const second = new MemoryClient({ baseUrl: server.url, auth: new BearerTokenAuth(TOKEN), context: ctx });
    await second.write("run", "second");
    await second.close();
    await client.write("run", "explicit", { ctx, idempotencyKey: "mine" });
    await client.write("run", "third", { ctx });
    // The platform runs the execution again: a new context with the same key makes the same keys.
    const replay = skillContext("exec-42");
    await client.write("run", "first", { ctx: replay });
    await client.write("run", "no key", { ctx: skillContext("") });
    const keys = sentBodies(server).map((b) => (b.payload as { idempotency_key?: string }).idempotency_key);
    expect(keys).toEqual([
      "exec-42:memory.write:1",
      "exec-42:memory.write:2",
      "mine",
      "exec-42:memory.write:3",
      "exec-42:memory.write:1",
      undefined,
    ]);
    expect(server.violations).toEqual([]);
  });

  it("hashes a context key too long to leave room for the ordinal", async () => {
    const { server, client } = await start({
      "memory.write": { memory_id: "mem_1", scope: "run", write_event_id: "we", created_at: AT },
    });
    await client.write("run", "x", { ctx: skillContext("k".repeat(250)) });
    const key = (sentBodies(server)[0]?.payload as { idempotency_key?: string } | undefined)?.idempotency_key;
    expect(key).toMatch(/^[0-9a-f]{64}:memory\.write:1$/);
    expect(server.violations).toEqual([]);
  });

  it("takes the hint's conversation and the correlation ids from the context", async () => {
    const { server, client } = await start({ "memory.hint": TOOL_SAMPLES["novaos.memory.hint"].result });
    await client.hint("Prefers dark mode", { ctx: skillContext("k") });
    expect(sentBodies(server)[0]).toEqual({
      tool: "memory.hint",
      payload: { hint: "Prefers dark mode", conversation_id: "conv-9", priority: "normal" },
      context: { request_id: "run-7", trace_id: "4bf92f3577b34da6a3ce929d0e0e4736" },
    });
    expect(server.violations).toEqual([]);
  });
});

describe("MemoryClient client-side validation", () => {
  it("refuses calls that break the service's limits before sending anything", async () => {
    const { server, client } = await start({});
    const refused: [string, Promise<unknown>][] = [
      ["empty reason", client.forget("agent", "mem_1", { reason: "" })],
      ["501-character reason", client.forget("agent", "mem_1", { reason: "r".repeat(501) })],
      ["update without a field", client.update("agent", "mem_1", 2, {})],
      ["hint without a conversation", client.hint("Prefers dark mode")],
      ["hint without a context conversation", client.hint("x", { ctx: { ...skillContext("k"), contextId: "" } })],
      ["content over 32 KiB of UTF-8", client.write("agent", "é".repeat(16 * 1024 + 1))],
      ["hint over 8 KiB", client.hint("h".repeat(8193), { conversationId: "c" })],
      ["21 tags", client.write("agent", "x", { tags: Array(21).fill("t") })],
      ["a 65-character tag", client.write("agent", "x", { tags: ["t".repeat(65)] })],
      ["topK 0", client.query("agent", "x", { topK: 0 })],
      ["topK 101", client.query("agent", "x", { topK: 101 })],
      ["liveMessageLimit 101", client.assembleContext("x", { liveMessageLimit: 101 })],
      ["confidence 1.5", client.write("agent", "x", { confidence: 1.5 })],
      ["unknown scope", client.query("galaxy" as "agent", "x")],
      ["unknown priority", client.hint("x", { conversationId: "c", priority: "urgent" as "low" })],
      ["unknown filter", client.query("agent", "x", { filters: { color: "red" } as object })],
      ["not a proposal id", client.pollProposal("mem_1")],
      ["version 0", client.update("agent", "mem_1", 0, { content: "x" })],
      ["a trace id that is not 32 hex", client.query("agent", "x", { traceId: "T" })],
    ];
    for (const [label, call] of refused) {
      const error = await rejection(call);
      expect(error, label).toBeInstanceOf(NovaOSValidationError);
    }
    expect(server.requests).toEqual([]);
  });
});

describe("MemoryClient errors", () => {
  const refuse = (status: number, error: string, headers?: Record<string, string>) => (): JsonReply => ({
    status,
    body: { error, message: `refused: ${error}` },
    ...(headers ? { headers } : {}),
  });

  it("surfaces every documented refusal as a typed error", async () => {
    const replies: Record<number, () => JsonReply> = {
      400: refuse(400, "invalid_payload"),
      401: refuse(401, "unauthenticated"),
      403: refuse(403, "forbidden"),
      404: refuse(404, "not_found"),
      409: refuse(409, "version_conflict"),
      413: refuse(413, "payload_too_large"),
      422: refuse(422, "scope_not_writable"),
      500: refuse(500, "internal"),
    };
    let status = 400;
    const { server, client } = await start({ "memory.update": () => (replies[status] as () => JsonReply)() });
    const expected: [number, abstract new (...args: never[]) => NovaOSError][] = [
      [400, NovaOSValidationError],
      [401, NovaOSAuthenticationError],
      [403, NovaOSServerError],
      [404, NovaOSServerError],
      [409, NovaOSServerError],
      [413, NovaOSServerError],
      [422, NovaOSServerError],
      [500, NovaOSServerError],
    ];
    for (const [s, type] of expected) {
      status = s;
      const error = await rejection(client.update("agent", "mem_1", 2, { content: "x" }));
      expect(error, String(s)).toBeInstanceOf(type);
      expect((error as NovaOSError).code, String(s)).toBe(s);
      expect((error as NovaOSError).isRetryable, String(s)).toBe(false);
      if (error instanceof NovaOSServerError) expect(error.statusCode).toBe(s);
      expect((error as Error).message).toContain(`refused: `);
    }
    expect(server.requests).toHaveLength(expected.length); // none retried
    expect(server.violations).toEqual([]);
  });

  it("maps 422 on a user-scope write, 409 on a stale update and 404 on forget to NovaOSServerError with the status", async () => {
    const { client } = await start({
      "memory.write": refuse(422, "scope_not_writable"),
      "memory.update": refuse(409, "version_conflict"),
      "memory.forget": refuse(404, "not_found"),
    });
    expect(await rejection(client.write("user", "x"))).toMatchObject({ statusCode: 422 });
    expect(await rejection(client.update("agent", "mem_1", 1, { content: "x" }))).toMatchObject({ statusCode: 409 });
    expect(await rejection(client.forget("agent", "mem_x"))).toMatchObject({ statusCode: 404 });
  });
});

describe("MemoryClient resilience", () => {
  function clocked() {
    const clock = new ManualClock();
    return { clock, resilience: { clock, random: () => 0.5, timeoutMs: 0 } };
  }

  it("retries a read 3 times on 503, waiting 1 s then 2 s (jittered), and throws the last error", async () => {
    const { clock, resilience } = clocked();
    const { server, client } = await start(
      { "memory.query": () => ({ status: 503, body: { error: "unavailable" }, headers: { "retry-after": "0" } }) },
      { resilience },
    );
    const call = client.query("agent", "x");
    for (const wait of [750, 1500]) {
      expect(await clock.nextSleep()).toBe(wait);
      clock.advance(wait);
    }
    expect(await rejection(call)).toMatchObject({ statusCode: 503 });
    expect(server.requests).toHaveLength(3);
    expect(server.violations).toEqual([]);
  });

  it("retries a keyed write but sends a write without a key once", async () => {
    const { clock, resilience } = clocked();
    const replies: JsonReply[] = [
      { status: 502, body: { error: "unavailable" } },
      {
        status: 200,
        body: {
          tool: "memory.write",
          result: { memory_id: "mem_1", scope: "run", write_event_id: "w", created_at: AT },
        },
      },
      { status: 502, body: { error: "unavailable" } },
    ];
    const { server, client } = await start({ "memory.write": () => replies.shift() as JsonReply }, { resilience });
    const keyed = client.write("run", "x", { idempotencyKey: "k-1" });
    clock.advance(await clock.nextSleep());
    expect((await keyed).memoryId).toBe("mem_1");
    expect(await rejection(client.write("run", "y"))).toMatchObject({ statusCode: 502 });
    expect(server.requests).toHaveLength(3);
  });

  it("opens the breaker after 5 consecutive transient failures and refuses calls without sending them", async () => {
    const { clock, resilience } = clocked();
    const { server, client } = await start(
      { "memory.hint_status": () => ({ status: 504, body: { error: "unavailable" } }) },
      { resilience: { ...resilience, maxAttempts: 1 } },
    );
    for (let i = 0; i < 5; i++) await rejection(client.hintStatus("h"));
    const refused = await rejection(client.hintStatus("h"));
    expect(refused).toBeInstanceOf(CircuitOpenError);
    expect((refused as CircuitOpenError).retryAfter).toBe(30);
    expect(server.requests).toHaveLength(5);
    clock.advance(30_000);
    await rejection(client.hintStatus("h"));
    expect(server.requests).toHaveLength(6); // the probe
  });
});

describe("MemoryClient configuration", () => {
  it("reads MEMORY_SERVICE_URL when no baseUrl is given, and names the variable when neither is set", async () => {
    expect(() => new MemoryClient({ env: {} })).toThrow(MissingServiceUrlError);
    const error = (() => {
      try {
        new MemoryClient({ env: { MEMORY_SERVICE_URL: " " } });
      } catch (e) {
        return e as MissingServiceUrlError;
      }
    })();
    expect(error).toBeInstanceOf(NovaOSValidationError);
    expect(error?.variable).toBe("MEMORY_SERVICE_URL");
    expect(error?.message).toContain("MEMORY_SERVICE_URL");
    const { server: contract } = await start({
      "memory.hint_status": { hint_id: "h", status: "expired", submitted_at: null, resolved_at: null },
    });
    await using fromEnv = new MemoryClient({
      env: { MEMORY_SERVICE_URL: contract.url },
      auth: new BearerTokenAuth(TOKEN),
    });
    expect(fromEnv.baseUrl).toBe(contract.url);
    expect((await fromEnv.hintStatus("h")).status).toBe("expired");
  });

  it("never closes a fetch it was given, and refuses calls once closed", async () => {
    const { server: contract } = await start({
      "memory.hint_status": { hint_id: "h", status: "pending", submitted_at: null, resolved_at: null },
    });
    const dispatcher = new Agent();
    const given = ((input: string, init: RequestInit) =>
      undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;
    const first = new MemoryClient({ baseUrl: contract.url, auth: new BearerTokenAuth(TOKEN), fetch: given });
    await first.hintStatus("h");
    await first.close();
    expect(first.closed).toBe(true);
    await expect(first.hintStatus("h")).rejects.toBeInstanceOf(NovaOSError);
    expect(dispatcher.closed || dispatcher.destroyed).toBe(false);
    await using second = new MemoryClient({ baseUrl: contract.url, auth: new BearerTokenAuth(TOKEN), fetch: given });
    expect((await second.hintStatus("h")).status).toBe("pending");
    await dispatcher.close();
  });
});

describe("MemoryClient bad answers", () => {
  async function raw(answer: Parameters<typeof startRawServer>[0], options: MemoryClientOptions = {}) {
    const rawServer = await startRawServer(answer);
    server = rawServer;
    client = new MemoryClient({ baseUrl: rawServer.url, resilience: { maxAttempts: 1 }, ...options });
    return client;
  }

  it("types an HTML page, garbage, a wrong content type, a wrong tool and a non-object result as NovaOSServerError", async () => {
    const answers: [string, (res: import("node:http").ServerResponse) => void][] = [
      ["HTML 200", (res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>oops</html>")],
      ["garbage JSON", (res) => res.writeHead(200, { "content-type": "application/json" }).end("{not json")],
      ["no content type", (res) => res.writeHead(200).end('{"tool":"memory.query","result":{}}')],
      [
        "another tool",
        (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"tool":"memory.write","result":{}}'),
      ],
      [
        "array result",
        (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"tool":"memory.query","result":[]}'),
      ],
      ["null body", (res) => res.writeHead(200, { "content-type": "application/json" }).end("null")],
    ];
    let current = answers[0]?.[1];
    const memory = await raw((_req, res) => current?.(res));
    for (const [label, answer] of answers) {
      current = answer;
      const error = await rejection(memory.query("agent", "x"));
      expect(error, label).toBeInstanceOf(NovaOSServerError);
      expect((error as NovaOSServerError).isRetryable, label).toBe(false);
    }
  });

  it("reads an HTML error page's status, and a 502 page stays retryable", async () => {
    const memory = await raw((_req, res) =>
      res
        .writeHead(502, { "content-type": "text/html" })
        .end(`<html><body>${"Bad gateway ".repeat(10_000)}</body></html>`),
    );
    const error = await rejection(memory.query("agent", "x"));
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect(error).toMatchObject({ statusCode: 502, isRetryable: true });
    expect((error as Error).message.length).toBeLessThan(1000);
  });

  it("refuses an answer past maxResponseBytes, and an endless one, without keeping it", async () => {
    const memory = await raw(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        writeForever(res, `{"tool":"memory.query","result":{"items":[${"1,".repeat(8192)}`);
      },
      { maxResponseBytes: 64 * 1024 },
    );
    const error = await rejection(memory.query("agent", "x"));
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect((error as Error).message).toContain("more than 65536 bytes");
  });

  it("ends an endless error answer after its first 64 KiB", async () => {
    const memory = await raw((_req, res) => {
      res.writeHead(503, { "content-type": "text/plain" });
      writeForever(res, "x".repeat(4096));
    });
    expect(await rejection(memory.query("agent", "x"))).toMatchObject({ statusCode: 503 });
  });

  it("calls a connection cut midway a retryable NovaOSConnectionError", async () => {
    const memory = await raw((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"tool":"memory.query","res');
      setImmediate(() => res.socket?.destroy());
    });
    const error = await rejection(memory.query("agent", "x"));
    expect(error).toBeInstanceOf(NovaOSConnectionError);
  });

  it("maps 429 with Retry-After to NovaOSRateLimitError", async () => {
    const memory = await raw((_req, res) =>
      res.writeHead(429, { "content-type": "application/json", "retry-after": "120" }).end('{"error":"rate_limited"}'),
    );
    const error = await rejection(memory.query("agent", "x"));
    expect(error).toBeInstanceOf(NovaOSRateLimitError);
    expect((error as NovaOSRateLimitError).retryAfter).toBe(120);
  });
});
