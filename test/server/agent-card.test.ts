/**
 * `toAgentCard()` derives what the builder knows, and the adapters serve the
 * card at the well-known path with caching headers.
 */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AgentCardSchema } from "../../gen/a2a_pb.js";
import { A2AExtension } from "../../src/a2a/extensions.js";
import { encodeMessage } from "../../src/a2a/protojson.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { InMemoryPushNotificationConfigStore } from "../../src/server/push-config-store.js";
import { type RunningServer, serveAgent } from "./support/agent-server.js";

const logger = createLogger({ level: "silent" });

/** GETs the served card with exactly this Host header (fetch sends its own). */
// biome-ignore lint/suspicious/noExplicitAny: the card JSON is inspected freely.
function getCard(port: string, host: string): Promise<{ cacheControl: string | undefined; card: any }> {
  return new Promise((resolve, reject) => {
    http
      .get({ port, host: "127.0.0.1", path: "/.well-known/agent-card.json", headers: { host } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ cacheControl: res.headers["cache-control"], card: JSON.parse(text) }));
      })
      .on("error", reject);
  });
}

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function agentWithSkills(options = {}) {
  const agent = new AgentBuilder({ name: "carded", version: "2.1.0", description: "Does things", logger, ...options });
  agent.skill("greet", { description: "Greets", tags: ["hello"] }, async () => ({ output: "hi" }));
  agent.skill("Summarise", { id: "sum", outputModes: ["text/markdown"], examples: ["sum this"] }, async () => ({}));
  return agent;
}

describe("toAgentCard", () => {
  it("publishes every skill under the id it is routed by, with the builder's defaults", () => {
    const card = agentWithSkills().toAgentCard();
    expect(card.name).toBe("carded");
    expect(card.version).toBe("2.1.0");
    expect(card.description).toBe("Does things");
    expect(card.skills.map((s) => [s.id, s.name])).toEqual([
      ["greet", "greet"],
      ["sum", "Summarise"],
    ]);
    expect(card.skills[0]?.tags).toEqual(["hello"]);
    expect(card.skills[1]?.outputModes).toEqual(["text/markdown"]);
    expect(card.defaultOutputModes).toEqual(["text/plain", "application/json"]);
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: false, extendedAgentCard: false });
  });

  it("publishes a skill registered without a description or tags with its name and its id, so the card has every REQUIRED field", () => {
    const json = encodeMessage(AgentCardSchema, agentWithSkills().toAgentCard()) as {
      skills: { id: string; description?: string; tags?: string[] }[];
    };
    expect(json.skills[1]).toMatchObject({ id: "sum", description: "Summarise", tags: ["sum"] });
    expect(json.skills[0]).toMatchObject({ description: "Greets", tags: ["hello"] });
  });

  it("derives capabilities from how the builder was constructed", () => {
    const card = agentWithSkills({
      streaming: false,
      pushNotificationStore: new InMemoryPushNotificationConfigStore(),
      pushNotificationDelivery: "platform",
      extendedAgentCard: () => undefined,
      defaultOutputModes: ["application/json"],
      extensions: [new A2AExtension({ uri: "urn:ext", required: true, description: "needed" })],
    }).toAgentCard();
    expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: true, extendedAgentCard: true });
    expect(card.capabilities?.extensions.map((e) => [e.uri, e.required])).toEqual([["urn:ext", true]]);
    expect(card.defaultOutputModes).toEqual(["application/json"]);
  });

  it("takes what only the publisher knows, defaulting interfaces to JSON-RPC 1.0", () => {
    const card = agentWithSkills().toAgentCard({
      description: "Published by the gateway",
      supportedInterfaces: [{ url: "https://gw.example/agents/carded" }],
      provider: { organization: "NovaOS", url: "https://novaos.example" },
    });
    expect(card.description).toBe("Published by the gateway");
    expect(card.supportedInterfaces.map((i) => [i.url, i.protocolBinding, i.protocolVersion])).toEqual([
      ["https://gw.example/agents/carded", "JSONRPC", "1.0"],
    ]);
    expect(card.provider?.organization).toBe("NovaOS");
  });

  it("refuses two extensions with one URI", () => {
    const agent = agentWithSkills();
    agent.registerExtension(new A2AExtension({ uri: "urn:a" }));
    expect(() => agent.registerExtension(new A2AExtension({ uri: "urn:a" }))).toThrow(TypeError);
    expect(agent.declaredExtensions().map((e) => e.uri)).toEqual(["urn:a"]);
  });
});

describe("the served card", () => {
  it("serves the card at /.well-known/agent-card.json with this server as the JSON-RPC and HTTP+JSON interface", async () => {
    running = await serveAgent(agentWithSkills(), { publicUrl: "https://agent.example/a2a/" });
    const res = await fetch(`${running.url}.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const card = await res.json();
    expect(card.supportedInterfaces).toEqual([
      { url: "https://agent.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: "https://agent.example/a2a", protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
    ]);
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(["greet", "sum"]);

    const etag = res.headers.get("etag") as string;
    const cached = await fetch(`${running.url}.well-known/agent-card.json`, { headers: { "if-none-match": etag } });
    expect(cached.status).toBe(304);
  });

  it("names the URL a request came in on only for this machine's own names, or with trustHostHeader, and then privately", async () => {
    const warnings: unknown[] = [];
    const agent = agentWithSkills({ logger: { ...logger, warn: (...args: unknown[]) => warnings.push(args) } });
    running = await serveAgent(agent);
    const local = await fetch(`${running.url}.well-known/agent-card.json`);
    expect(local.headers.get("cache-control")).toBe("private, max-age=300");
    expect(local.headers.get("vary")).toBe("Host, X-Forwarded-Proto");
    expect((await local.json()).supportedInterfaces[0].url).toBe(running.url.replace(/\/$/, ""));
    const port = new URL(running.url).port;
    const remote = await getCard(port, "agent.example");
    expect(remote.card.supportedInterfaces).toEqual([]);
    expect(remote.cacheControl).toBe("public, max-age=300");
    expect(warnings).toHaveLength(1);
    await running.close();

    running = await serveAgent(agentWithSkills(), { trustHostHeader: true });
    const trusted = await getCard(new URL(running.url).port, "agent.example");
    expect(trusted.card.supportedInterfaces[0].url).toBe("http://agent.example");
    expect(trusted.cacheControl).toBe("private, max-age=300");
  });

  it("serves no card when asked not to", async () => {
    running = await serveAgent(agentWithSkills(), { agentCard: false });
    expect((await fetch(`${running.url}.well-known/agent-card.json`)).status).toBe(404);
  });
});
