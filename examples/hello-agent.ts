/**
 * Hello agent (docs/building-agents.md): one skill, served on Node, called
 * with the universal Client. Run it: `npx tsx hello-agent.ts`.
 */
import { Client, isTask, taskText } from "@novaos/client-sdk";
import { listen } from "@novaos/client-sdk/node";
import { AgentBuilder } from "@novaos/client-sdk/server";

const agent = new AgentBuilder({ name: "hello-agent", version: "1.0.0" });
agent.skill("greet", { description: "Greets whoever you name" }, async (_ctx, name) => ({
  output: `Hello, ${name.trim() || "world"}!`,
}));

// Port 0 picks a free port; listen() logs one "listening" line per binding.
await using server = await listen(agent, { port: 0 });
await using client = new Client({ baseUrl: server.url });

const result = await client.sendMessage("Ada", { skillId: "greet" });
console.log(isTask(result) ? taskText(result) : "the agent answered with a message");
