/**
 * Streaming (docs/client.md, docs/building-agents.md): the example agent's
 * storyteller writes one growing artifact; the client reads the words as they
 * arrive with `streamText`. Run it: `npx tsx streaming.ts`.
 */
import { Client, streamText } from "@novaos/client-sdk";
import { listen } from "@novaos/client-sdk/node";
import { createLogger } from "@novaos/client-sdk/server";
import { createExampleAgent } from "./example-agent.js";

const agent = createExampleAgent({ sentenceDelayMs: 50, logger: createLogger({ level: "warn" }) });
await using server = await listen(agent, { port: 0 });
await using client = new Client({ baseUrl: server.url });

for await (const words of streamText(client.sendStreamingMessage("a lighthouse", { skillId: "storyteller" }))) {
  process.stdout.write(words);
}
process.stdout.write("\n");
