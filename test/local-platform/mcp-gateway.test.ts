import { describe, expect, it } from "vitest";
import type { LocalPlatform } from "../../src/local-platform/index.js";
import { GatewayClient, type StreamEvent } from "../../src/platform/index.js";
import { AgentBuilder, createLogger, createPlatformTools } from "../../src/server/index.js";
import { ToolError } from "../../src/tools/index.js";
import { platform, serve } from "./support.js";

/** The `output` of a `done` event's payload, parsed. */
function outputOf(event: StreamEvent | undefined): unknown {
  return JSON.parse((event?.payload as { output?: string } | undefined)?.output ?? "null");
}

/** `notes-agent`: writes a memory, finds it, updates it, then updates it again with the stale version. */
function notesAgent(local: LocalPlatform): AgentBuilder {
  const agent = new AgentBuilder({
    name: "notes-agent",
    logger: createLogger({ level: "silent" }),
    tools: (ctx) => createPlatformTools(ctx, { gateway: local.urls["mcp-gateway"] }),
  });
  agent.skill("note", { description: "Keeps a note" }, async (ctx, text) => {
    const written = await ctx.tools.memory.write("agent", text, { tags: ["note"] });
    const found = await ctx.tools.memory.query("agent", "moon tides");
    const updated = await ctx.tools.memory.update("agent", written.memory_id, 1, { content: `${text} (checked)` });
    const stale = await ctx.tools.memory.update("agent", written.memory_id, 1, { content: "lost" }).then(
      () => "accepted",
      (error: unknown) => (error instanceof ToolError ? error.message : String(error)),
    );
    const after = await ctx.tools.memory.query("agent", "tides");
    return {
      output: JSON.stringify({
        found: found.items.map((item) => [item.content, item.score]),
        version: updated.version,
        stale,
        after: after.items.map((item) => [item.content, item.version]),
      }),
    };
  });
  return agent;
}

describe("the local MCP Gateway's memory tools, through ctx.tools in a run started at the gateway", () => {
  it("writes, finds, updates with versions, and refuses a stale version", async () => {
    const local = await platform();
    const agent = await serve(notesAgent(local));
    const { instanceId } = await local.registerAgent({ url: agent.url });
    const gateway = new GatewayClient({ baseUrl: local.urls.gateway });
    const { runId } = await gateway.execute({ instanceId, inputText: "the moon pulls the tides" });
    const events: StreamEvent[] = [];
    for await (const event of gateway.events(runId)) events.push(event);
    const done = events.at(-1);
    expect([done?.type, done?.content]).toEqual(["done", undefined]);
    const output = outputOf(done) as Record<string, unknown>;
    expect(output.found).toEqual([["the moon pulls the tides", 1]]);
    expect(output.version).toBe(2);
    expect(output.stale).toMatch(/HTTP 409: .* is at version 2, not 1/);
    expect(output.after).toEqual([["the moon pulls the tides (checked)", 2]]);
    expect(local.violations).toEqual([]);
    await gateway.close();
  });
});

/** `library-agent`: ingests two documents, waits for their jobs, and searches them. */
function libraryAgent(local: LocalPlatform): AgentBuilder {
  const agent = new AgentBuilder({
    name: "library-agent",
    logger: createLogger({ level: "silent" }),
    tools: (ctx) => createPlatformTools(ctx, { gateway: local.urls["mcp-gateway"] }),
  });
  agent.skill("library", { description: "Searches what it filed" }, async (ctx, text) => {
    for (const content of ["Tides follow the moon.", "Bread needs yeast."]) {
      const { job_id } = await ctx.tools.knowledge.ingest(content, { collection: "notes" });
      const job = await ctx.tools.knowledge.pollUntilComplete(job_id);
      if (job.status !== "completed") return { output: `job ${job.status}`, status: "FAILED" };
    }
    const { results } = await ctx.tools.knowledge.search(text, { collection_id: "notes" });
    return { output: JSON.stringify(results.map((hit) => [hit.content, hit.score])) };
  });
  return agent;
}

describe("the local MCP Gateway's knowledge tools", () => {
  it("ingests documents, reports their jobs completed, and finds them by a real text search", async () => {
    const local = await platform();
    const agent = await serve(libraryAgent(local));
    const { instanceId } = await local.registerAgent({ url: agent.url });
    const gateway = new GatewayClient({ baseUrl: local.urls.gateway });
    const { runId } = await gateway.execute({ instanceId, inputText: "what do tides follow" });
    let last: StreamEvent | undefined;
    for await (const event of gateway.events(runId)) last = event;
    expect(last?.type).toBe("done");
    expect(outputOf(last)).toEqual([["Tides follow the moon.", 0.5]]);
    expect(local.violations).toEqual([]);
    await gateway.close();
  });
});

describe("the local MCP Gateway refuses a call its run token does not allow", () => {
  const call = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "novaos.memory.query", arguments: { scope: "agent", query: "x" } },
  };
  const post = (local: LocalPlatform, headers: Record<string, string>) =>
    fetch(`${local.urls["mcp-gateway"]}/mcp/v1/tools/call`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(call),
    });
  const grant = { user_id: "u", tenant_id: "acme", run_id: "r", instance_id: "i" };

  it("an expired token is 401 and a wrong tenant 403 tenant_mismatch; the right one is served", async () => {
    const local = await platform();
    const expired = await local.tokens.mint(grant, { expiresInSeconds: -600 });
    const valid = await local.tokens.mint(grant);
    const refusedExpired = await post(local, { authorization: `Bearer ${expired}` });
    expect(refusedExpired.status).toBe(401);
    const wrongTenant = await post(local, { authorization: `Bearer ${valid}`, "x-tenant-id": "globex" });
    expect(wrongTenant.status).toBe(403);
    expect(await wrongTenant.json()).toMatchObject({ error: "tenant_mismatch" });
    const served = await post(local, { authorization: `Bearer ${valid}`, "x-tenant-id": "acme" });
    expect(served.status).toBe(200);
    expect(served.headers.get("mcp-session-id")).toBeTruthy();
    expect(local.violations).toEqual([]);
  });
});
