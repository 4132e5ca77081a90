/**
 * Every tool method against an MCP Gateway built from
 * openapi/mcp-gateway.yaml, which validates every request (envelope,
 * headers, the tool's argument schema) and every answer: each method sends
 * exactly the catalog sample's arguments to its tool and answers the
 * sample's result, unwrapped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolBindings } from "../../src/tools/tool-bindings.js";
import { HitlUnavailableError } from "../../src/tools/tool-errors.js";
import { TOOL_SAMPLES, type ToolName } from "../openapi/tool-samples.js";
import { GATEWAY_TOKEN, type GatewayDouble, sampleAnswer, startGateway, toolSuccess } from "./support/mcp-gateway.js";

type Case = readonly [method: string, tool: ToolName, call: (tools: ToolBindings) => Promise<unknown>];

const URL_ = "https://api.example.com/v1/items";
const PAGE = "https://example.com/";

const CASES: readonly Case[] = [
  [
    "knowledge.search",
    "novaos.knowledge.query",
    (t) => t.knowledge.search("refund policy", { top_k: 5, filters: { lang: "en" } }),
  ],
  [
    "knowledge.ingest",
    "novaos.knowledge.ingest",
    (t) => t.knowledge.ingest("Refunds within 30 days.", { collection: "policies", filename: "refunds.txt" }),
  ],
  ["knowledge.getJobStatus", "novaos.knowledge.get_job_status", (t) => t.knowledge.getJobStatus("job-1")],
  ["knowledge.buildGraph", "novaos.knowledge.build_graph", (t) => t.knowledge.buildGraph("policies")],
  ["knowledge.getGraphStatus", "novaos.knowledge.get_graph_status", (t) => t.knowledge.getGraphStatus("policies")],
  [
    "knowledge.queryGraphLocal",
    "novaos.knowledge.query_graph_local",
    (t) => t.knowledge.queryGraphLocal("Who approves refunds?", "policies"),
  ],
  [
    "knowledge.queryGraphGlobal",
    "novaos.knowledge.query_graph_global",
    (t) => t.knowledge.queryGraphGlobal("What are the main themes?", "policies"),
  ],
  [
    "memory.query",
    "novaos.memory.query",
    (t) => t.memory.query("agent", "date formats", { top_k: 3, memory_type: "semantic" }),
  ],
  [
    "memory.write",
    "novaos.memory.write",
    (t) => t.memory.write("agent", "Use ISO 8601", { tags: ["api"], memory_type: "procedural", ttl_seconds: 3600 }),
  ],
  ["memory.update", "novaos.memory.update", (t) => t.memory.update("agent", "mem_1", 2, { confidence: 0.95 })],
  ["memory.forget", "novaos.memory.forget", (t) => t.memory.forget("agent", "mem_1", "outdated")],
  ["memory.hint", "novaos.memory.hint", (t) => t.memory.hint("User prefers dark mode", "conv-1", { priority: "low" })],
  ["memory.assemble", "novaos.memory.assemble", (t) => t.memory.assemble("current task", { live_message_limit: 10 })],
  [
    "agents.call",
    "novaos.agents.call",
    (t) => t.agents.call("translator", { input: "Bonjour", skill_id: "translate", wait_s: 30 }),
  ],
  ["agents.getTask", "novaos.agents.get_task", (t) => t.agents.getTask("task-1", { history_length: 0 })],
  ["agents.list", "novaos.agents.list", (t) => t.agents.list({ query: "translate" })],
  ["files.list", "novaos.files.list", (t) => t.files.list({ scope: "agent", prefix: "reports/" })],
  ["files.read", "novaos.files.read", (t) => t.files.read("reports/q1.md")],
  [
    "files.write",
    "novaos.files.write",
    (t) => t.files.write("out/chart.png", "iVBORw0KGgo=", { encoding: "base64", content_type: "image/png" }),
  ],
  ["files.delete", "novaos.files.delete", (t) => t.files.delete("out/chart.png")],
  [
    "notify.send",
    "novaos.notify.send",
    (t) => t.notify.send({ channel: "email", to: ["ada@example.com"], subject: "Report ready", body: "See attached." }),
  ],
  ["http.get", "novaos.http.get", (t) => t.http.get(URL_, { headers: { accept: "application/json" } })],
  ["http.request", "novaos.http.request", (t) => t.http.request("POST", URL_, { body: '{"name":"x"}' })],
  [
    "browser.extract",
    "novaos.browser.extract",
    (t) => t.browser.extract(PAGE, { selector: "main", format: "markdown" }),
  ],
  ["browser.screenshot", "novaos.browser.screenshot", (t) => t.browser.screenshot(PAGE, { full_page: true })],
  [
    "browser.interact",
    "novaos.browser.interact",
    (t) =>
      t.browser.interact("https://example.com/login", [
        { action: "type", selector: "#user", value: "ada" },
        { action: "click", selector: "button[type=submit]" },
        { action: "wait_for", selector: "#dashboard" },
      ]),
  ],
  ["code.execute", "novaos.code.execute", (t) => t.code.execute("python", "print(1 + 1)", { timeout_s: 10 })],
  [
    "connector.call",
    "novaos.connector.*",
    (t) => t.connector.call("clickup", "create-task", { list_id: "901", name: "Follow up" }, { tier: "licensed" }),
  ],
];

describe("every tool method against the MCP Gateway's contract", () => {
  let gateway: GatewayDouble;
  let tools: ToolBindings;
  beforeAll(async () => {
    gateway = await startGateway();
    tools = new ToolBindings({ gateway: gateway.url, token: GATEWAY_TOKEN, tenantId: "tenant-1" });
  });
  afterAll(() => gateway.close());

  it("covers every tool of the catalog", () => {
    expect(new Set(CASES.map(([, tool]) => tool))).toEqual(new Set(Object.keys(TOOL_SAMPLES)));
  });

  it.each(CASES)("%s sends the sample arguments to %s and answers its result", async (_method, tool, call) => {
    const sample = TOOL_SAMPLES[tool];
    const before = gateway.calls.length;
    const result = await call(tools);
    const sent = gateway.calls.slice(before);
    expect(sent.map((c) => c.name)).toEqual([sample.call]);
    expect(sent[0]?.arguments).toEqual(sample.arguments);
    expect(result).toEqual(sample.result);
    expect(gateway.server.violations).toEqual([]);
  });

  it("sends the run's token and tenant, names each call in _meta and as the JSON-RPC id, and keeps the session", async () => {
    const before = gateway.calls.length;
    await tools.knowledge.getJobStatus("job-1");
    await tools.knowledge.getJobStatus("job-1");
    const [first, second] = gateway.calls.slice(before);
    for (const call of [first, second]) {
      expect(call?.headers.authorization).toBe(`Bearer ${GATEWAY_TOKEN}`);
      expect(call?.headers["x-tenant-id"]).toBe("tenant-1");
      expect(call?.callId).toMatch(/^[0-9a-f-]{36}$/);
      expect(call?.id).toBe(call?.callId);
    }
    expect(first?.callId).not.toBe(second?.callId);
    expect(second?.headers["mcp-session-id"]).toBe("session-1");
    expect(gateway.server.violations).toEqual([]);
  });

  it("derives the status, batch and pollers from the same calls", async () => {
    expect(await tools.knowledge.getIngestStatus("job-1")).toEqual({
      index: 0,
      jobId: "job-1",
      status: "completed",
      error: undefined,
      duplicateOf: "doc-0",
      isDuplicate: true,
    });
    expect((await tools.knowledge.pollUntilComplete("job-1")).status).toBe("completed");
    expect((await tools.knowledge.pollGraphBuildUntilComplete("policies")).graph_status).toBe("completed");
    const batch = await tools.knowledge.ingestBatch(
      [{ content: "a" }, { content: "b", metadata: { collection: "own" } }],
      {
        collection: "policies",
      },
    );
    expect(batch.total).toBe(2);
    expect(batch.items.map((i) => [i.index, i.jobId, i.status])).toEqual([
      [0, "job-1", "pending"],
      [1, "job-1", "pending"],
    ]);
    const ingests = gateway.calls.filter((c) => c.name === "novaos.knowledge.ingest").slice(-2);
    expect(
      ingests.map((c) => c.arguments.metadata).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([{ collection: "own" }, { collection: "policies" }]);
    const polled = await tools.knowledge.pollBatchUntilComplete(batch);
    expect(polled.items.map((i) => i.status)).toEqual(["completed", "completed"]);
    expect(gateway.server.violations).toEqual([]);
  });

  it("calls any tool by name: a catalogued one typed, a third-party one passed through", async () => {
    gateway.answer = (call) => toolSuccess(call, { forecast: "sunny", for: call.arguments.city });
    try {
      expect(await tools.call("novaos.weather.forecast", { city: "Paris" })).toEqual({
        forecast: "sunny",
        for: "Paris",
      });
    } finally {
      gateway.answer = sampleAnswer;
    }
    const hits = await tools.call("novaos.knowledge.query", { query: "refunds" });
    expect(hits.results[0]?.document_id).toBe("doc-1");
    expect(gateway.server.violations).toEqual([]);
  });

  it("fails hitl.requestInput closed, sending nothing", async () => {
    const before = gateway.calls.length;
    await expect(tools.hitl.requestInput("Approve?")).rejects.toBeInstanceOf(HitlUnavailableError);
    expect(gateway.calls.length).toBe(before);
  });
});
