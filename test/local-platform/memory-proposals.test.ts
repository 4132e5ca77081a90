import { describe, expect, it } from "vitest";
import type { NovaOSServerError } from "../../src/errors/novaos-errors.js";
import { LOCAL_TENANT } from "../../src/local-platform/index.js";
import { platform, serve } from "./support.js";
import { memoryClient, outputOf, runThroughGateway, toolAgent } from "./tools-support.js";

describe("the local memory write gate holds confidential agent writes as proposals", () => {
  it("a confidential agent write through ctx.tools is a pending prop_ proposal; approved it is written, rejected it is not, proposal_status tells", async () => {
    const local = await platform();
    const agent = toolAgent(local, "gated-agent");
    agent.skill("remember", { description: "Writes memories, some confidential" }, async (ctx) => {
      const memory = ctx.tools.memory;
      const writes = [
        await memory.write("agent", "the payroll salary band is B", { classification: "confidential" }),
        await memory.write("agent", "the salary review is in May", { classification: "confidential" }),
        await memory.write("agent", "the salary survey is public", { classification: "explicit" }),
      ];
      const found = await memory.query("agent", "salary");
      return {
        output: JSON.stringify({
          writes: writes.map((written) => [written.memory_id, written.durable]),
          found: found.items.map((item) => item.content),
        }),
      };
    });
    const { instanceId, agentId } = await local.registerAgent({ url: (await serve(agent)).url });
    const { writes, found } = outputOf(await runThroughGateway(local, instanceId, "go")) as {
      writes: [string, boolean][];
      found: string[];
    };
    const [[band, bandDurable], [review, reviewDurable], [survey, surveyDurable]] = writes as [
      [string, boolean],
      [string, boolean],
      [string, boolean],
    ];
    expect([band, review]).toEqual([expect.stringMatching(/^prop_./), expect.stringMatching(/^prop_./)]);
    expect([bandDurable, reviewDurable, survey.startsWith("mem_"), surveyDurable]).toEqual([false, false, true, true]);
    expect(found).toEqual(["the salary survey is public"]);
    expect(local.memoryProposals.pending()).toEqual([
      { proposalId: band, tenantId: LOCAL_TENANT, agentId, content: "the payroll salary band is B" },
      { proposalId: review, tenantId: LOCAL_TENANT, agentId, content: "the salary review is in May" },
    ]);

    const clientOf = (agent_id: string) => memoryClient(local, { instance_id: instanceId, agent_id });
    const memory = await clientOf(agentId);
    expect(await memory.pollProposal(band)).toEqual({
      proposalId: band,
      status: "pending",
      reason: undefined,
      memoryId: undefined,
    });

    const committed = local.memoryProposals.approve(band);
    local.memoryProposals.reject(review, "pii_detected");
    expect(() => local.memoryProposals.approve(band)).toThrow(RangeError);
    expect(() => local.memoryProposals.reject("prop_unknown")).toThrow(RangeError);
    expect(local.memoryProposals.pending()).toEqual([]);

    expect(await memory.pollProposal(band)).toEqual({
      proposalId: band,
      status: "committed",
      reason: undefined,
      memoryId: committed.memory_id,
    });
    expect(await memory.pollProposal(review)).toEqual({
      proposalId: review,
      status: "rejected",
      reason: "pii_detected",
      memoryId: undefined,
    });
    const recalled = await memory.query("agent", "salary band");
    expect(recalled.items.map((item) => [item.memoryId, item.content])).toEqual([
      [committed.memory_id, "the payroll salary band is B"],
      [survey, "the salary survey is public"],
    ]);
    const stranger = await (await clientOf("another-agent")).pollProposal(band).catch((error: unknown) => error);
    expect((stranger as NovaOSServerError).statusCode).toBe(404);
    expect(local.violations).toEqual([]);
  });
});
