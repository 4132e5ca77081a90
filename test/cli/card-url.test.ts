/**
 * A URL is an agent's base URL or its card's URL, and a card need not sit at
 * the well-known path: a `.json` URL anywhere is read as the card itself.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { cli, jsonLines } from "./support/run-cli.js";

let agent: AgentServer;
let publisher: Server;
let cardUrl: string;

beforeAll(async () => {
  const builder = new AgentBuilder({ name: "published-elsewhere", version: "1.0.0", description: "Echoes" });
  builder.skill("echo", { description: "Repeats what you say", tags: ["demo"] }, async (_ctx, text) => ({
    output: `echo: ${text}`,
  }));
  agent = await listen(builder, { port: 0 });
  const card = await (await fetch(new URL(".well-known/agent-card.json", agent.url))).text();
  // Another origin publishes the card under a path of its own; nothing is at its well-known path.
  publisher = createServer((req, res) => {
    if (req.url === "/catalog/agents/echo.json") res.writeHead(200, { "content-type": "application/json" }).end(card);
    else res.writeHead(404).end();
  });
  publisher.listen(0, "127.0.0.1");
  await once(publisher, "listening");
  cardUrl = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}/catalog/agents/echo.json`;
});
afterAll(async () => {
  await agent?.close();
  publisher?.close();
});

it("card reads a card published at its own .json URL", async () => {
  const run = await cli(["card", cardUrl, "--json"]);
  expect(run.code).toBe(EXIT.OK);
  expect(JSON.stringify(jsonLines(run.stdout))).toContain('"name":"published-elsewhere"');
});

it("send calls the agent that card names", async () => {
  const run = await cli(["send", cardUrl, "hi", "--skill", "echo"]);
  expect(run.code).toBe(EXIT.OK);
  expect(run.stdout).toContain("echo: hi");
});
