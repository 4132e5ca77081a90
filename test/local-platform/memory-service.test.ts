import { describe, expect, it } from "vitest";
import { NovaOSAuthenticationError, NovaOSServerError } from "../../src/errors/novaos-errors.js";
import type { LocalPlatform } from "../../src/local-platform/index.js";
import { GatewayClient, MemoryClient, type StreamEvent } from "../../src/platform/index.js";
import { AgentBuilder, createLogger, createPlatformTools } from "../../src/server/index.js";
import { ToolError } from "../../src/tools/index.js";
import { platform, serve } from "./support.js";
import { memoryClient } from "./tools-support.js";

type Command =
  | { op: "write"; content: string }
  | { op: "read"; query: string }
  | { op: "update"; id: string; version: number; content: string };

/** `memo-agent`: runs one memory command through the MCP Gateway's tools (`ctx.tools.memory`) and answers its result. */
function memoAgent(local: LocalPlatform): AgentBuilder {
  const agent = new AgentBuilder({
    name: "memo-agent",
    logger: createLogger({ level: "silent" }),
    tools: (ctx) => createPlatformTools(ctx, { gateway: local.urls["mcp-gateway"] }),
  });
  agent.skill("memo", { description: "Keeps memos" }, async (ctx, text) => {
    const command = JSON.parse(text) as Command;
    const memory = ctx.tools.memory;
    let result: unknown;
    if (command.op === "write") result = (await memory.write("agent", command.content)).memory_id;
    else if (command.op === "read") {
      result = (await memory.query("agent", command.query)).items.map((item) => [item.content, item.version]);
    } else {
      result = await memory.update("agent", command.id, command.version, { content: command.content }).then(
        (updated) => updated.version,
        (error: unknown) => (error instanceof ToolError ? error.message : String(error)),
      );
    }
    return { output: JSON.stringify(result) };
  });
  return agent;
}

/** Starts a run of `instanceId` at the gateway and answers its parsed output. */
async function run(gateway: GatewayClient, instanceId: string, command: Command): Promise<unknown> {
  const { runId } = await gateway.execute({ instanceId, inputText: JSON.stringify(command) });
  let last: StreamEvent | undefined;
  for await (const event of gateway.events(runId)) last = event;
  expect(last?.type).toBe("done");
  return JSON.parse((last?.payload as { output?: string } | undefined)?.output ?? "null");
}

async function memoSetup() {
  const local = await platform();
  const agent = await serve(memoAgent(local));
  const { instanceId, agentId } = await local.registerAgent({ url: agent.url });
  const gateway = new GatewayClient({ baseUrl: local.urls.gateway });
  /** A Memory client with a run token of `agent` (or of another agent or tenant). */
  const client = (grant: { agent_id?: string; tenant_id?: string } = {}) =>
    memoryClient(local, { instance_id: instanceId, agent_id: agentId, ...grant });
  return { local, instanceId, gateway, client };
}

describe("the local Memory Service shares one store with the MCP Gateway's memory tools", () => {
  it("a memory written through the MCP tool is read, updated and refused as stale through the Memory client, and back", async () => {
    const { local, instanceId, gateway, client } = await memoSetup();
    const memory = await client();

    const id = (await run(gateway, instanceId, { op: "write", content: "the moon pulls the tides" })) as string;
    const read = await memory.query("agent", "tides");
    expect(read.items.map((item) => [item.memoryId, item.content, item.version])).toEqual([
      [id, "the moon pulls the tides", 1],
    ]);
    const updated = await memory.update("agent", id, 1, { content: "the moon pulls the tides (checked)" });
    expect(updated.version).toBe(2);
    const stale = await memory.update("agent", id, 1, { content: "lost" }).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(NovaOSServerError);
    expect((stale as NovaOSServerError).statusCode).toBe(409);

    // Back through the MCP tool: the client's update is there, and the tool's stale version is refused too.
    expect(await run(gateway, instanceId, { op: "read", query: "tides" })).toEqual([
      ["the moon pulls the tides (checked)", 2],
    ]);
    expect(await run(gateway, instanceId, { op: "update", id, version: 1, content: "lost" })).toMatch(
      /HTTP 409: .* is at version 2, not 1/,
    );
    await memory.write("agent", "bread needs yeast");
    expect(await run(gateway, instanceId, { op: "read", query: "yeast" })).toEqual([["bread needs yeast", 1]]);
    expect(local.violations).toEqual([]);
    await Promise.all([memory.close(), gateway.close()]);
  });

  it("keeps tenants and agents apart, and refuses a call without a run token", async () => {
    const { local, instanceId, gateway, client } = await memoSetup();
    const id = (await run(gateway, instanceId, { op: "write", content: "acme's secret plan" })) as string;

    const otherTenant = await client({ tenant_id: "globex" });
    expect((await otherTenant.query("agent", "secret plan")).items).toEqual([]);
    const notFound = await otherTenant.update("agent", id, 1, { content: "x" }).catch((error: unknown) => error);
    expect((notFound as NovaOSServerError).statusCode).toBe(404);

    const otherAgent = await client({ agent_id: "another-agent" });
    expect((await otherAgent.query("agent", "secret plan")).items).toEqual([]);
    const forbidden = await otherAgent.forget("agent", id).catch((error: unknown) => error);
    expect((forbidden as NovaOSServerError).statusCode).toBe(403);

    const anonymous = new MemoryClient({ baseUrl: local.urls.memory });
    await expect(anonymous.query("agent", "plan")).rejects.toBeInstanceOf(NovaOSAuthenticationError);
    expect(local.violations).toEqual([]);
    await Promise.all([otherTenant.close(), otherAgent.close(), anonymous.close(), gateway.close()]);
  });

  it("forgets, consolidates a hint into user memory, assembles a context and knows no proposal", async () => {
    const { local, client } = await memoSetup();
    const memory = await client();
    const { memoryId } = await memory.write("agent", "tides follow the moon", { tags: ["sea"] });
    await memory.write("run", "scratch for this run");

    const hint = await memory.hint("the user sails at dawn", { conversationId: "conv-1" });
    expect(hint.status).toBe("accepted");
    expect((await memory.hintStatus(hint.hintId)).status).toBe("consolidated");

    const bundle = await memory.assembleContext("sails tides", { conversationId: "conv-1" });
    expect(bundle.durableMemories.map((item) => [item.scope, item.content])).toEqual([
      ["user", "the user sails at dawn"],
    ]);
    expect(bundle.agentMemories.map((item) => item.content)).toEqual([]);
    expect((await memory.assembleContext("tides")).agentMemories.map((item) => item.content)).toEqual([
      "tides follow the moon",
    ]);
    const runData = bundle.runData as { memories: { content: string }[] };
    expect(runData.memories.map((item) => item.content)).toEqual(["scratch for this run"]);

    // A retried write with the same idempotency key is the first one; filters narrow a query.
    const keyed = await memory.write("agent", "tides turn twice a day", {
      idempotencyKey: "k1",
      memoryType: "semantic",
    });
    expect((await memory.write("agent", "tides turn twice a day", { idempotencyKey: "k1" })).memoryId).toBe(
      keyed.memoryId,
    );
    expect((await memory.query("agent", "tides")).items).toHaveLength(2);
    expect(
      (await memory.query("agent", "tides", { memoryType: "semantic" })).items.map((item) => item.memoryId),
    ).toEqual([keyed.memoryId]);
    expect(
      (await memory.query("agent", "tides", { filters: { tags: ["sea"] } })).items.map((item) => item.memoryId),
    ).toEqual([memoryId]);
    await memory.forget("agent", keyed.memoryId);

    expect((await memory.forget("agent", memoryId)).deletedCount).toBe(1);
    expect((await memory.query("agent", "tides")).items).toEqual([]);
    const gone = await memory.forget("agent", memoryId).catch((error: unknown) => error);
    expect((gone as NovaOSServerError).statusCode).toBe(404);
    const proposal = await memory.pollProposal("prop_123").catch((error: unknown) => error);
    expect((proposal as NovaOSServerError).statusCode).toBe(404);
    expect(local.violations).toEqual([]);
    await memory.close();
  });
});
