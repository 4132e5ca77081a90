/**
 * An agent whose skill `recall` queries the Memory Service through
 * `ctx.memory` (and, given a tools gateway, searches knowledge through
 * `ctx.tools`), and the Memory Service contract server it calls: what the
 * trace-context tests follow from the caller to the services.
 */

import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { createPlatformTools } from "../../src/server/platform-tools.js";
import { TOOL_SAMPLES } from "../openapi/tool-samples.js";
import { type ContractServer, startContractServer } from "./contract-server.js";

/** The execution token the Memory Service (and the tools gateway) accepts. */
export const RECALL_TOKEN = "exec-token-trace";

export async function startRecallingAgent(
  options: { toolsGateway?: string } = {},
): Promise<{ memory: ContractServer; agent: AgentBuilder }> {
  const memory = await startContractServer({
    spec: "memory.yaml",
    bearerToken: RECALL_TOKEN,
    handlers: {
      memoryDispatch: () => ({
        status: 200,
        body: { tool: "memory.query", result: TOOL_SAMPLES["novaos.memory.query"].result },
      }),
    },
  });
  const gateway = options.toolsGateway;
  const agent = new AgentBuilder({
    name: "recalling-agent",
    logger: createLogger({ level: "silent" }),
    memory: { baseUrl: memory.url },
    tools: (ctx) => createPlatformTools(ctx, { gateway }),
  });
  agent.skill("recall", async (ctx) => {
    await using client = ctx.memory.client();
    const { items } = await client.query("agent", "date formats");
    if (gateway !== undefined) await ctx.tools.knowledge.search("date formats");
    return { output: items[0]?.content ?? "" };
  });
  return { memory, agent };
}
