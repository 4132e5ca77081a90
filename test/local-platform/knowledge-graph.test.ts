import { describe, expect, it } from "vitest";
import { platform, serve } from "./support.js";
import { outputOf, runThroughGateway, toolAgent } from "./tools-support.js";

describe("the local MCP Gateway's knowledge graph tools, through ctx.tools in a run started at the gateway", () => {
  it("builds a collection's graph to completed with its counts, answers local and global questions from it, degraded before", async () => {
    const local = await platform();
    const agent = toolAgent(local, "graph-agent");
    agent.skill("graph", { description: "Builds and asks a knowledge graph" }, async (ctx) => {
      const knowledge = ctx.tools.knowledge;
      const unbuilt = await knowledge.queryGraphLocal("Who is Charles Babbage?", "history");
      const statusBefore = await knowledge.getGraphStatus("history");
      const filed: [string, string][] = [
        ["Ada Lovelace worked with Charles Babbage. Charles Babbage designed the Analytical Engine.", "history"],
        ["Bread needs yeast.", "history"],
        ["Tides follow the Moon.", "science"],
      ];
      for (const [content, collection] of filed) {
        await knowledge.pollUntilComplete((await knowledge.ingest(content, { collection })).job_id);
      }
      const accepted = await knowledge.buildGraph("history");
      const built = await knowledge.pollGraphBuildUntilComplete("history");
      const near = await knowledge.queryGraphLocal("Who worked with Charles Babbage?", "history");
      const elsewhere = await knowledge.queryGraphLocal("What follows the Moon?", "history");
      const overall = await knowledge.queryGraphGlobal("What about Bread?", "history");
      await knowledge.buildGraph("empty");
      const empty = await knowledge.pollGraphBuildUntilComplete("empty");
      const excerpts = (answer: typeof near) => answer.citations.map((citation) => citation.excerpt);
      return {
        output: JSON.stringify({
          unbuilt: [unbuilt.degraded, unbuilt.confidence, unbuilt.metadata.search_mode],
          statusBefore: statusBefore.graph_status,
          accepted,
          built,
          near: [near.answer, near.confidence, near.degraded, near.metadata, excerpts(near)],
          elsewhere: [elsewhere.answer, elsewhere.confidence, elsewhere.citations],
          overall: [overall.answer, overall.confidence, overall.metadata.search_mode, excerpts(overall)],
          empty: [empty.graph_status, empty.graph_error],
        }),
      };
    });
    const { instanceId } = await local.registerAgent({ url: (await serve(agent)).url });
    expect(outputOf(await runThroughGateway(local, instanceId, "go"))).toEqual({
      unbuilt: [true, null, "graph_local"],
      statusBefore: "none",
      accepted: { status: "pending", entity_count: 0, relationship_count: 0, community_count: 0 },
      built: {
        graph_status: "completed",
        graph_error: null,
        graph_entity_count: 4,
        graph_relationship_count: 2,
        graph_community_count: 2,
      },
      near: [
        "Charles Babbage is related to Ada Lovelace (1), Analytical Engine (1).",
        0.4,
        false,
        { search_mode: "graph_local", entities: ["Charles Babbage"] },
        ["Ada Lovelace worked with Charles Babbage."],
      ],
      elsewhere: ["No entity of the graph is named in the question.", 0, []],
      overall: [
        "4 entities, 2 relationships, 2 communities.\nA community of 1: Bread.\nA community of 3: Ada Lovelace, Analytical Engine, Charles Babbage.",
        1 / 3,
        "graph_global",
        ["Bread needs yeast.", "Ada Lovelace worked with Charles Babbage."],
      ],
      empty: ["failed", "Collection empty has no documents"],
    });
    expect(local.violations).toEqual([]);
  });
});
