/**
 * An agent whose skill `recall` queries the Memory Service through
 * `ctx.memory`, and the Memory Service contract server it calls: what the
 * trace-context tests follow from the caller to the service.
 */

import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { TOOL_SAMPLES } from "../openapi/tool-samples.js";
import { type ContractServer, startContractServer } from "./contract-server.js";

/** The execution token the Memory Service accepts. */
export const RECALL_TOKEN = "exec-token-trace";

export async function startRecallingAgent(): Promise<{ memory: ContractServer; agent: AgentBuilder }> {
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
  const agent = new AgentBuilder({
    name: "recalling-agent",
    logger: createLogger({ level: "silent" }),
    memory: { baseUrl: memory.url },
  });
  agent.skill("recall", async (ctx) => {
    await using client = ctx.memory.client();
    const { items } = await client.query("agent", "date formats");
    return { output: items[0]?.content ?? "" };
  });
  return { memory, agent };
}
