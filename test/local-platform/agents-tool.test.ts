import { describe, expect, it } from "vitest";
import { NovaOSAuthenticationError } from "../../src/errors/novaos-errors.js";
import type { LocalPlatform } from "../../src/local-platform/index.js";
import type { AgentExecutionContext } from "../../src/server/index.js";
import { ToolError } from "../../src/tools/index.js";
import { platform, serve } from "./support.js";
import { outputOf, runThroughGateway, toolAgent } from "./tools-support.js";

/** The run-token claims a skill was called with, as its agent verified them. */
function claimsOf(ctx: AgentExecutionContext) {
  const { tenant_id, user_id, run_id, agent_name, call_chain } = ctx.identity.claims as Record<string, unknown>;
  return { tenant_id, user_id, run_id, agent_name, call_chain: call_chain ?? [] };
}

/**
 * `front`: `ask` calls `back` through the agents tool and reports what came
 * back; `whoami` reports its own claims. `back`: `answer` calls `front`'s
 * `whoami` through the agents tool, and answers its own claims and that.
 */
async function twoAgents(local: LocalPlatform) {
  const front = toolAgent(local, "front");
  front.skill("ask", { description: "Asks back" }, async (ctx, text) => {
    const reply = await ctx.tools.agents.call("back", { input: text, skill_id: "answer", wait_s: 120 });
    const unknown = await ctx.tools.agents
      .call("nobody", { input: text })
      .catch((error: unknown) => (error instanceof ToolError ? error.message : String(error)));
    const { agents } = await ctx.tools.agents.list({ query: "answer" });
    return {
      output: JSON.stringify({
        me: claimsOf(ctx),
        reply: { state: reply.state, output: JSON.parse(reply.output ?? "null") },
        taskAgain: (await ctx.tools.agents.getTask(reply.task_id)).state,
        unknown,
        listed: agents.map((agent) => agent.name),
      }),
    };
  });
  front.skill("whoami", { description: "Says who called it" }, async (ctx) => ({
    output: JSON.stringify(claimsOf(ctx)),
  }));
  const back = toolAgent(local, "back");
  back.skill("answer", { description: "Answers, after asking front who it is" }, async (ctx) => {
    const nested = await ctx.tools.agents.call("front", { input: "who", skill_id: "whoami", wait_s: 120 });
    return { output: JSON.stringify({ me: claimsOf(ctx), nested: JSON.parse(nested.output ?? "null") }) };
  });
  const frontServer = await serve(front);
  const backServer = await serve(back);
  return {
    front: await local.registerAgent({ url: frontServer.url, skillId: "ask" }),
    back: await local.registerAgent({ url: backServer.url, skillId: "answer" }),
  };
}

describe("the local MCP Gateway's agents tool", () => {
  it("two agents call each other with chained run tokens: same tenant and user, each caller in call_chain, results back to the caller", async () => {
    const local = await platform();
    const { front, back } = await twoAgents(local);

    const events = await runThroughGateway(local, front.instanceId, "hello");
    const output = outputOf(events) as {
      me: { run_id: string; call_chain: unknown[] };
      reply: { state: string; output: { me: Record<string, unknown>; nested: Record<string, unknown> } };
      taskAgain: string;
      unknown: string;
      listed: string[];
    };

    expect(output.me).toMatchObject({ tenant_id: "local", user_id: "local-user", agent_name: "front", call_chain: [] });
    const frontLink = { agent_id: front.agentId, instance_id: front.instanceId, run_id: output.me.run_id };
    expect(output.reply.state).toBe("TASK_STATE_COMPLETED");
    const backClaims = output.reply.output.me;
    expect(backClaims).toMatchObject({
      tenant_id: "local",
      user_id: "local-user",
      agent_name: "back",
      call_chain: [frontLink],
    });
    expect(backClaims.run_id).not.toBe(output.me.run_id);
    // back's own call of front carries the whole chain: front's run, then back's.
    expect(output.reply.output.nested).toMatchObject({
      tenant_id: "local",
      user_id: "local-user",
      agent_name: "front",
      call_chain: [frontLink, { agent_id: back.agentId, instance_id: back.instanceId, run_id: backClaims.run_id }],
    });
    expect(output.taskAgain).toBe("TASK_STATE_COMPLETED");
    expect(output.unknown).toMatch(/HTTP 404: No agent nobody is registered/);
    expect(output.listed).toEqual(["back"]);
    expect(local.violations).toEqual([]);
  });

  it("refuses a call past the deepest chain (-32040): an agent that keeps calling itself stops there", async () => {
    const local = await platform();
    const agent = toolAgent(local, "loop");
    agent.skill("again", { description: "Calls itself" }, async (ctx, text) => {
      try {
        const reply = await ctx.tools.agents.call("loop", { input: `${text}+`, wait_s: 300 });
        return { output: reply.output ?? "" };
      } catch (error) {
        const depth = ((ctx.identity.claims as { call_chain?: unknown[] }).call_chain ?? []).length;
        const refused = error instanceof NovaOSAuthenticationError ? "refused" : String(error);
        return { output: JSON.stringify({ depth, refused, message: (error as Error).message }) };
      }
    });
    const server = await serve(agent);
    const { instanceId } = await local.registerAgent({ url: server.url });
    const output = outputOf(await runThroughGateway(local, instanceId, "go"));
    expect(output).toMatchObject({ depth: 8, refused: "refused" });
    expect((output as { message: string }).message).toMatch(/at most 8 agents/);
  });
});
