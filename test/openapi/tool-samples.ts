/**
 * One valid call of every tool in openapi/mcp-gateway.yaml's `ToolCatalog`
 * (arguments and result), plus arguments the spec must refuse. Typed from the
 * generated catalog, so a spec change that breaks a sample fails the
 * typecheck before it fails a test; tool bindings and the local platform can
 * reuse them as fixtures.
 */
import type { components } from "../../gen/openapi/mcp-gateway.js";

export type ToolCatalog = components["schemas"]["ToolCatalog"];
export type ToolName = keyof ToolCatalog;

export interface ToolSample<N extends ToolName> {
  /** The name called (a real connector name for the connector entry). */
  readonly call: string;
  readonly arguments: ToolCatalog[N]["arguments"];
  readonly result: ToolCatalog[N]["result"];
  /** Arguments the spec refuses, and why. */
  readonly badArguments: { readonly value: unknown; readonly why: string };
}

const AT = "2026-07-25T14:00:00Z";
const MEMORY_ITEM: ToolCatalog["novaos.memory.query"]["result"]["items"][number] = {
  memory_id: "mem_1",
  scope: "agent",
  content: "Reporting API requires ISO 8601 date ranges",
  version: 2,
  metadata: { tags: ["api"], source: null, confidence: 0.9, created_at: AT },
  score: 0.87,
};
const TASK = { id: "task-1", contextId: "ctx-1", status: { state: "TASK_STATE_COMPLETED" } };
const PAGE = {
  url: "https://example.com/",
  title: "Example",
  status: 200,
  content: "# Example",
  format: "markdown",
  truncated: false,
} as const;

export const TOOL_SAMPLES: { readonly [N in ToolName]: ToolSample<N> } = {
  "novaos.knowledge.query": {
    call: "novaos.knowledge.query",
    arguments: { query: "refund policy", top_k: 5, filters: { lang: "en" } },
    result: { results: [{ document_id: "doc-1", content: "Refunds within 30 days.", score: 0.91, metadata: {} }] },
    badArguments: { value: { query: "x", top_k: 0 }, why: "top_k below 1" },
  },
  "novaos.knowledge.ingest": {
    call: "novaos.knowledge.ingest",
    arguments: { content: "Refunds within 30 days.", metadata: { collection: "policies", filename: "refunds.txt" } },
    result: { job_id: "job-1", status: "pending" },
    badArguments: { value: { content: "" }, why: "empty content" },
  },
  "novaos.knowledge.get_job_status": {
    call: "novaos.knowledge.get_job_status",
    arguments: { job_id: "job-1" },
    result: { job_id: "job-1", status: "completed", error: null, duplicate_of: "doc-0", document_id: "doc-0" },
    badArguments: { value: {}, why: "no job_id" },
  },
  "novaos.knowledge.build_graph": {
    call: "novaos.knowledge.build_graph",
    arguments: { collection_id: "policies" },
    result: { status: "pending", entity_count: 0, relationship_count: 0, community_count: 0 },
    badArguments: { value: { collection: "policies" }, why: "collection_id misspelt" },
  },
  "novaos.knowledge.get_graph_status": {
    call: "novaos.knowledge.get_graph_status",
    arguments: { collection_id: "policies" },
    result: {
      graph_status: "completed",
      graph_error: null,
      graph_entity_count: 12,
      graph_relationship_count: 30,
      graph_community_count: 3,
    },
    badArguments: { value: { collection_id: "" }, why: "empty collection_id" },
  },
  "novaos.knowledge.query_graph_local": {
    call: "novaos.knowledge.query_graph_local",
    arguments: { question: "Who approves refunds?", collection_id: "policies" },
    result: {
      answer: "The finance team.",
      citations: [{ document_id: "doc-1", excerpt: "Finance approves refunds." }],
      confidence: 0.8,
      degraded: false,
      metadata: { search_mode: "graph_local" },
    },
    badArguments: { value: { question: "Who?" }, why: "no collection_id" },
  },
  "novaos.knowledge.query_graph_global": {
    call: "novaos.knowledge.query_graph_global",
    arguments: { question: "What are the main themes?", collection_id: "policies" },
    result: {
      answer: "",
      citations: [],
      confidence: null,
      degraded: true,
      metadata: { search_mode: "graph_global" },
    },
    badArguments: { value: { question: "", collection_id: "policies" }, why: "empty question" },
  },
  "novaos.memory.query": {
    call: "novaos.memory.query",
    arguments: { scope: "agent", query: "date formats", top_k: 3, filters: { memory_type: "semantic" } },
    result: { items: [MEMORY_ITEM], retrieval_id: "ret-1", partial: false, stores_queried: ["vector"] },
    badArguments: { value: { scope: "galaxy", query: "x" }, why: "unknown scope" },
  },
  "novaos.memory.write": {
    call: "novaos.memory.write",
    arguments: { scope: "agent", content: "Use ISO 8601", tags: ["api"], memory_type: "procedural", ttl_seconds: 3600 },
    result: { memory_id: "prop_1", scope: "agent", write_event_id: "we-1", created_at: AT, durable: false },
    badArguments: { value: { scope: "agent", content: "x", tags: Array(21).fill("t") }, why: "21 tags" },
  },
  "novaos.memory.update": {
    call: "novaos.memory.update",
    arguments: { scope: "agent", memory_id: "mem_1", version: 2, confidence: 0.95 },
    result: { memory_id: "mem_1", scope: "agent", version: 3, update_event_id: "ue-1", updated_at: AT },
    badArguments: { value: { scope: "agent", memory_id: "mem_1", version: 2 }, why: "nothing to update" },
  },
  "novaos.memory.forget": {
    call: "novaos.memory.forget",
    arguments: { scope: "agent", memory_id: "mem_1", reason: "outdated" },
    result: { deleted_count: 1, delete_event_id: "de-1" },
    badArguments: { value: { scope: "agent", memory_id: "mem_1", reason: "x".repeat(501) }, why: "reason over 500" },
  },
  "novaos.memory.hint": {
    call: "novaos.memory.hint",
    arguments: { hint: "User prefers dark mode", conversation_id: "conv-1", priority: "low" },
    result: { hint_id: "hint-1", status: "accepted", message: "queued" },
    badArguments: { value: { hint: "User prefers dark mode" }, why: "no conversation_id" },
  },
  "novaos.memory.assemble": {
    call: "novaos.memory.assemble",
    arguments: { query: "current task", live_message_limit: 10 },
    result: {
      durable_memories: [],
      live_messages: [{ message_id: "m1", role: "user", content: "hi", timestamp: AT }],
      agent_memories: [MEMORY_ITEM],
      run_data: null,
      sources_consulted: ["agent", "live"],
      sources_skipped: ["user"],
      partial: false,
      retrieval_id: null,
    },
    badArguments: { value: { query: "x", live_message_limit: 101 }, why: "live_message_limit over 100" },
  },
  "novaos.agents.call": {
    call: "novaos.agents.call",
    arguments: { agent_id: "translator", input: "Bonjour", skill_id: "translate", wait_s: 30 },
    result: {
      task_id: "task-1",
      context_id: "ctx-1",
      state: "TASK_STATE_COMPLETED",
      output: "Hello",
      message: null,
      task: TASK,
    },
    badArguments: { value: { agent_id: "translator" }, why: "no input" },
  },
  "novaos.agents.get_task": {
    call: "novaos.agents.get_task",
    arguments: { task_id: "task-1", history_length: 0 },
    result: {
      task_id: "task-1",
      context_id: "ctx-1",
      state: "TASK_STATE_INPUT_REQUIRED",
      output: null,
      message: "Which language?",
      task: TASK,
    },
    badArguments: { value: { task_id: "task-1", history_length: -1 }, why: "negative history_length" },
  },
  "novaos.agents.list": {
    call: "novaos.agents.list",
    arguments: { query: "translate" },
    result: {
      agents: [{ agent_id: "translator", name: "Translator", skills: [{ id: "translate", name: "Translate" }] }],
    },
    badArguments: { value: { page_size: 1000 }, why: "page_size over 100" },
  },
  "novaos.files.list": {
    call: "novaos.files.list",
    arguments: { scope: "agent", prefix: "reports/" },
    result: {
      files: [{ path: "reports/q1.md", size_bytes: 120, content_type: "text/markdown", updated_at: AT, etag: "e1" }],
    },
    badArguments: { value: { scope: "tenant" }, why: "unknown scope" },
  },
  "novaos.files.read": {
    call: "novaos.files.read",
    arguments: { path: "reports/q1.md" },
    result: {
      path: "reports/q1.md",
      content: "# Q1",
      encoding: "utf-8",
      content_type: "text/markdown",
      size_bytes: 4,
      etag: "e1",
    },
    badArguments: { value: { path: "../../etc/passwd" }, why: "a path climbing out" },
  },
  "novaos.files.write": {
    call: "novaos.files.write",
    arguments: { path: "out/chart.png", content: "iVBORw0KGgo=", encoding: "base64", content_type: "image/png" },
    result: { path: "out/chart.png", size_bytes: 8, content_type: "image/png", updated_at: AT, etag: "e2" },
    badArguments: { value: { path: "/abs/path", content: "x" }, why: "an absolute path" },
  },
  "novaos.files.delete": {
    call: "novaos.files.delete",
    arguments: { path: "out/chart.png" },
    result: { path: "out/chart.png", deleted: false },
    badArguments: { value: { path: "out/" }, why: "a path ending in /" },
  },
  "novaos.notify.send": {
    call: "novaos.notify.send",
    arguments: { channel: "email", to: ["ada@example.com"], subject: "Report ready", body: "See attached." },
    result: { notification_id: "n-1", channel: "email", status: "queued", recipients: 1 },
    badArguments: { value: { channel: "email", to: ["ada@example.com"], body: "x" }, why: "email without subject" },
  },
  "novaos.http.get": {
    call: "novaos.http.get",
    arguments: { url: "https://api.example.com/v1/items", headers: { accept: "application/json" } },
    result: {
      status: 404,
      headers: { "content-type": "application/json" },
      body: '{"error":"not found"}',
      body_encoding: "utf-8",
      truncated: false,
      url: "https://api.example.com/v1/items",
    },
    badArguments: { value: { url: "file:///etc/passwd" }, why: "not an http(s) URL" },
  },
  "novaos.http.request": {
    call: "novaos.http.request",
    arguments: { method: "POST", url: "https://api.example.com/v1/items", body: '{"name":"x"}' },
    result: {
      status: 201,
      headers: {},
      body: "",
      body_encoding: "utf-8",
      truncated: false,
      url: "https://api.example.com/v1/items",
    },
    badArguments: { value: { method: "GET", url: "https://api.example.com/", body: "x" }, why: "a GET with a body" },
  },
  "novaos.browser.extract": {
    call: "novaos.browser.extract",
    arguments: { url: "https://example.com/", selector: "main", format: "markdown" },
    result: PAGE,
    badArguments: { value: { url: "https://example.com/", format: "pdf" }, why: "unknown format" },
  },
  "novaos.browser.screenshot": {
    call: "novaos.browser.screenshot",
    arguments: { url: "https://example.com/", full_page: true },
    result: { url: "https://example.com/", media_type: "image/png", data: "iVBORw0KGgo=", width: 1280, height: 2400 },
    badArguments: { value: { url: "https://example.com/", width: 100 }, why: "width below 320" },
  },
  "novaos.browser.interact": {
    call: "novaos.browser.interact",
    arguments: {
      url: "https://example.com/login",
      steps: [
        { action: "type", selector: "#user", value: "ada" },
        { action: "click", selector: "button[type=submit]" },
        { action: "wait_for", selector: "#dashboard" },
      ],
    },
    result: { ...PAGE, steps_completed: 3 },
    badArguments: {
      value: { url: "https://example.com/", steps: [{ action: "type", value: "x" }] },
      why: "type without selector",
    },
  },
  "novaos.code.execute": {
    call: "novaos.code.execute",
    arguments: { language: "python", code: "print(1 + 1)", timeout_s: 10 },
    result: { exit_code: 0, stdout: "2\n", stderr: "", timed_out: false, truncated: false, duration_ms: 41 },
    badArguments: { value: { language: "cobol", code: "DISPLAY 1" }, why: "unknown language" },
  },
  "novaos.connector.*": {
    call: "novaos.connector.licensed.clickup.create-task",
    arguments: { list_id: "901", name: "Follow up" },
    result: {
      data: { id: "t-1" },
      provenance: { connector_id: "clickup", operation: "create-task", tier: "licensed", data_tier: "raw" },
      meta: {},
    },
    badArguments: { value: [1, 2], why: "params that are not an object" },
  },
};
