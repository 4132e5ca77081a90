/**
 * Discovery (docs/discovery.md): read an agent's card, check it has the skill
 * you need, and get a client from the card; then, when an Agent DNS registry
 * is configured (AGENT_DNS_URL and friends), find agents by capability.
 * Run it: `npx tsx discovery.ts`.
 */
import { isTask, skillById, taskText } from "@novaos/client-sdk";
import { AgentDiscoveryService, AgentDNSClient, getDnsUrlFromEnv } from "@novaos/client-sdk/discovery";
import { listen } from "@novaos/client-sdk/node";
import { AgentBuilder, createLogger } from "@novaos/client-sdk/server";

const agent = new AgentBuilder({ name: "joke-agent", logger: createLogger({ level: "warn" }) });
agent.skill("joke", { description: "Tells a joke", tags: ["fun"] }, () => ({
  output: "Why do agents love cards? They always know where to call.",
}));
await using server = await listen(agent, { port: 0 });

await using discovery = new AgentDiscoveryService({ baseUrl: server.url });
const card = await discovery.agentCard();
console.log(`${card.name} offers: ${card.skills.map((s) => s.id).join(", ")}`);
const skill = skillById(card, "joke") ?? (await discovery.requireSkill("joke"));

// The SSRF guard refuses loopback and private addresses; a local agent is reached by lifting that, on purpose.
await using client = await discovery.toClient({ allowedHostSuffixes: ["127.0.0.1"], allowPrivateIps: true });
const reply = await client.sendMessage("one more", { skillId: skill.id });
console.log(isTask(reply) ? taskText(reply) : "the agent answered with a message");

let registry: string | undefined;
try {
  registry = getDnsUrlFromEnv();
} catch {
  console.log("No Agent DNS registry configured (set AGENT_DNS_URL to search one).");
}
if (registry) {
  const dns = new AgentDNSClient({ baseUrl: registry });
  for await (const record of dns.findAgents({ capabilities: ["joke_telling"], fuzzyMatch: true })) {
    console.log(`${record.name} at ${record.url} (${record.isAvailable ? "available" : "unavailable"})`);
  }
}
