/**
 * The main job (`make demo`), NovaOS end to end on one machine: start the
 * local platform, point the SDK at it (sandbox mode: the environment it
 * prints), start two agents that register themselves in Agent DNS, discover
 * the trip planner there with `AgentDNSClient`, start a run through the
 * Execution Gateway with `GatewayClient`, and print the run as it streams —
 * progress, the LLM's answer token by token, a HITL pause answered through
 * the gateway, the final result. Exits 0, or 1 if anything did not go as the
 * platform says.
 */
import { AgentDNSClient } from "@novaos/client-sdk/discovery";
import { platformEnv, registerWithLocalPlatform, startLocalPlatform } from "@novaos/client-sdk/local-platform";
import { listen } from "@novaos/client-sdk/node";
import { GatewayClient, type StreamEvent } from "@novaos/client-sdk/platform";
import { createLogger } from "@novaos/client-sdk/server";
import { createExampleAgent } from "./example-agent.js";
import { createTripPlannerAgent } from "./trip-planner-agent.js";

const say = (line: string) => process.stdout.write(`${line}\n`);
let failures = 0;
function check(ok: boolean, what: string): void {
  if (!ok) failures++;
  say(`   ${ok ? "✓" : "✗"} ${what}`);
}

/** `[3/5] searching the guides` → `▕██████░░░░▏ 3/5 searching the guides`. */
function progress(text: string): string {
  const step = /^\[(\d+)\/(\d+)\]\s*(.*)$/.exec(text);
  if (!step) return text;
  const [done, total] = [Number(step[1]), Number(step[2])];
  const width = 10;
  const filled = Math.round((done / total) * width);
  return `▕${"█".repeat(filled)}${"░".repeat(width - filled)}▏ ${done}/${total} ${step[3]}`;
}

const QUESTION = "Which tram climbs to the castle in Lisbon?";
const logger = createLogger({ level: "warn" });

say("① Local platform");
const platform = await startLocalPlatform();
const env = platformEnv(platform);
// Sandbox mode: every client and ctx.tools read their service's URL from these variables.
Object.assign(process.env, env);
for (const [name, value] of Object.entries(env)) say(`   ${name}=${value}`);

say("\n② Agents started; each registers itself in Agent DNS");
const servers = await Promise.all(
  [createTripPlannerAgent({ logger }), createExampleAgent({ logger })].map((agent) => listen(agent, { port: 0 })),
);
try {
  for (const server of servers) {
    const record = await registerWithLocalPlatform(server.url, { domains: ["travel"] });
    say(`   ${record.name} at ${server.url} — capabilities: ${record.capabilities?.join(", ")}`);
  }

  say("\n③ Discovery: AgentDNSClient finds the agent that can plan a trip");
  const dns = new AgentDNSClient({ baseUrl: env.AGENT_DNS_URL as string, trustDnsUrls: true });
  const found = [];
  for await (const record of dns.findAgents({ capabilities: ["plan-trip"], domain: "travel" })) found.push(record);
  const planner = found[0];
  const instanceId = planner?.metadata.instance_id;
  say(`   found ${found.map((record) => record.name).join(", ") || "nothing"} (instance ${instanceId})`);
  check(
    found.length === 1 && planner?.name === "trip-planner" && typeof instanceId === "string",
    "one agent, with the instance the gateway runs",
  );

  say(`\n④ Run through the Execution Gateway: "${QUESTION}"`);
  await using gateway = new GatewayClient({ baseUrl: env.NOVAOS_GATEWAY_URL as string });
  const { runId } = await gateway.execute({ instanceId: String(instanceId), inputText: QUESTION });
  say(`   run ${runId}`);
  const seen: StreamEvent[] = [];
  let streaming = false;
  for await (const event of gateway.events(runId)) {
    seen.push(event);
    if (event.type === "chunk") {
      if (!streaming) process.stdout.write("   › ");
      streaming = true;
      process.stdout.write(event.content ?? "");
      continue;
    }
    if (streaming) process.stdout.write("\n");
    streaming = false;
    if (event.type === "status") say(`   ${event.status ?? ""}${event.content ? `  ${progress(event.content)}` : ""}`);
    if (event.type === "hitl") {
      say(`\n⑤ HITL pause: the agent asks "${event.content}"`);
      say('   answering "yes" through the gateway (execute with the run as thread_id)');
    }
    if (event.status === "WAITING_USER") {
      const answer = await gateway.execute({ instanceId: String(instanceId), inputText: "yes", threadId: runId });
      check(answer.runId === runId, "the same run goes on");
    }
    if (event.isTerminal) {
      say(
        `\n⑥ Result (${event.type}):\n${String((event.payload as { output?: unknown } | undefined)?.output ?? event.content).replace(/^/gm, "   ")}`,
      );
    }
  }
  const types = new Set(seen.map((event) => event.type));
  const last = seen.at(-1);
  check(seen.filter((event) => /^\[\d\/5\]/.test(event.content ?? "")).length === 5, "five progress steps reported");
  const chunks = seen.filter((event) => event.type === "chunk");
  check(
    chunks.length > 1 && /28 tram/.test(chunks.map((c) => c.content).join("")),
    "the LLM's answer streamed token by token",
  );
  check(types.has("hitl"), "paused for approval, answered through the gateway");
  check(
    last?.type === "done" && /Saved the plan as mem_/.test(String((last.payload as { output?: unknown }).output)),
    "done: the plan saved to memory",
  );
  check(platform.violations.length === 0, "every request and reply matched the platform's OpenAPI specs");
} finally {
  await Promise.all(servers.map((server) => server.close()));
  await platform.close();
}

say(failures === 0 ? "\nThe NovaOS flow ran end to end." : `\n${failures} check(s) failed.`);
process.exit(failures === 0 ? 0 : 1);
