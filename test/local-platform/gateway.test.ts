import { describe, expect, it } from "vitest";
import { AgentDNSClient } from "../../src/discovery/index.js";
import { INSTANCE_ID_METADATA_KEY, registerWithLocalPlatform } from "../../src/local-platform/index.js";
import { GatewayClient, type StreamEvent } from "../../src/platform/index.js";
import { JwksTokenVerifier } from "../../src/security/token-verifier.js";
import { bookingAgent, platform, researchAgent, serve } from "./support.js";

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/**
 * A fetch whose first event stream is cut after `frames` SSE frames, as a
 * dropped connection would: the body errors, what came before it arrived.
 */
function cuttingFetch(frames: number): { fetch: typeof fetch; cuts: number } {
  const state = { cuts: 0, fetch: undefined as unknown as typeof fetch };
  state.fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (state.cuts > 0 || !response.headers.get("content-type")?.startsWith("text/event-stream") || !response.body) {
      return response;
    }
    state.cuts++;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        // Pass whole frames until the `frames`-th, then drop the connection.
        const text = decoder.decode(value, { stream: true });
        let end = 0;
        while (seen < frames) {
          const next = text.indexOf("\n\n", end);
          if (next < 0) break;
          end = next + 2;
          seen++;
        }
        if (seen < frames) return controller.enqueue(value);
        controller.enqueue(new TextEncoder().encode(text.slice(0, end)));
        await reader.cancel();
        controller.error(new TypeError("terminated"));
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return state;
}

describe("the local Execution Gateway and Agent DNS", () => {
  it("finds a registered agent by name and capability with AgentDNSClient", async () => {
    const local = await platform();
    const agent = await serve(researchAgent());
    await local.registerAgent({ url: agent.url, domains: ["science"] });
    const dns = new AgentDNSClient({ baseUrl: local.urls["agent-dns"], trustDnsUrls: true });
    const byName = await dns.getAgent("research-agent");
    const bare = (url: string | undefined) => url?.replace(/\/$/, "");
    expect(bare(byName?.url)).toBe(bare(agent.url));
    expect(byName?.metadata[INSTANCE_ID_METADATA_KEY]).toMatch(/^[0-9a-f-]{36}$/);
    const found = [];
    for await (const record of dns.findAgents({ capabilities: ["research"], domain: "science" })) found.push(record);
    expect(found.map((record) => record.name)).toEqual(["research-agent"]);
    expect(await dns.getAgent("nobody")).toBeUndefined();
    expect(local.violations).toEqual([]);
  });

  it("lets a running agent register itself through the local registration route", async () => {
    const local = await platform();
    const agent = await serve(researchAgent());
    const record = await registerWithLocalPlatform(agent.url, { dnsUrl: local.urls["agent-dns"] });
    expect(record.name).toBe("research-agent");
    expect(local.registry.byName("research-agent")?.url.replace(/\/$/, "")).toBe(agent.url.replace(/\/$/, ""));
  });

  it("runs a registered agent over A2A and streams its events to GatewayClient, ending with done", async () => {
    const local = await platform();
    const agent = await serve(researchAgent());
    const { instanceId } = await local.registerAgent({ url: agent.url });
    const gateway = new GatewayClient({ baseUrl: local.urls.gateway });
    const { runId } = await gateway.execute({ instanceId, inputText: "tides" });
    const events = await collect(gateway.events(runId));
    expect(events.map((e) => [e.type, e.status ?? e.content ?? (e.payload as { output?: string }).output])).toEqual([
      ["status", "QUEUED"],
      ["status", "RUNNING"],
      ["status", "RUNNING"],
      ["status", "RUNNING"],
      ["chunk", "About "],
      ["chunk", "tides"],
      ["chunk", "."],
      ["done", "About tides."],
    ]);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => String(i + 1)));
    const last = events.at(-1);
    expect(last?.isTerminal && !last.isFailure).toBe(true);
    const run = await gateway.getServiceRun(runId);
    expect(run).toMatchObject({ id: runId, status: "COMPLETED", output: "About tides." });
    expect(run.artifacts).toEqual([{ artifact_id: "answer", text: "About tides." }]);
    expect(local.violations).toEqual([]);
    await gateway.close();
  });

  it("resumes a killed event stream after Last-Event-ID: every event exactly once, in order", async () => {
    const local = await platform();
    const agent = await serve(researchAgent());
    const { instanceId } = await local.registerAgent({ url: agent.url });
    const plain = new GatewayClient({ baseUrl: local.urls.gateway });
    const { runId } = await plain.execute({ instanceId, inputText: "tides" });
    const all = await collect(plain.events(runId));

    const cutting = cuttingFetch(3);
    const gateway = new GatewayClient({ baseUrl: local.urls.gateway, fetch: cutting.fetch });
    const resumed = await collect(gateway.eventsWithReconnect(runId, { initialBackoffMs: 1, maxBackoffMs: 1 }));
    expect(cutting.cuts).toBe(1);
    expect(resumed.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(resumed.map((e) => e.payload)).toEqual(all.map((e) => e.payload));
    // The sequence counts one connection's events: it restarts on the resumed connection.
    expect(resumed[3]?.sequence).toBe(1);
    await plain.close();
    await gateway.close();
  });

  it("ends the stream with an error event when the agent cannot be reached", async () => {
    const local = await platform();
    const agent = await serve(researchAgent());
    const { instanceId } = await local.registerAgent({ url: agent.url });
    await agent.close();
    const gateway = new GatewayClient({ baseUrl: local.urls.gateway });
    const { runId } = await gateway.execute({ instanceId, inputText: "tides" });
    const last = (await collect(gateway.events(runId))).at(-1);
    expect(last).toMatchObject({ type: "error", isTerminal: true, isFailure: true });
    expect(last?.payload).toMatchObject({ code: "agent_unavailable" });
    await gateway.close();
  });

  it("refuses an unknown instance (404) and hides a run from another tenant (404)", async () => {
    const local = await platform();
    const agent = await serve(researchAgent());
    const { instanceId } = await local.registerAgent({ url: agent.url });
    const gateway = new GatewayClient({ baseUrl: local.urls.gateway, tenantId: "acme" });
    await expect(
      gateway.execute({ instanceId: "00000000-0000-4000-8000-000000000000", inputText: "x" }),
    ).rejects.toThrow(/404/);
    const { runId } = await gateway.execute({ instanceId, inputText: "tides" });
    await collect(gateway.events(runId));
    const other = new GatewayClient({ baseUrl: local.urls.gateway, tenantId: "globex" });
    await expect(other.getServiceRun(runId)).rejects.toThrow(/404/);
    await expect(collect(other.events(runId))).rejects.toThrow(/404/);
    await gateway.close();
    await other.close();
  });
});

describe("execution tokens of the local platform", () => {
  it("mints an RS256 token per run that JwksTokenVerifier accepts against the gateway's JWKS", async () => {
    const local = await platform();
    const seen = { tokens: [] as string[] };
    const agent = await serve(researchAgent(seen));
    const { instanceId } = await local.registerAgent({ url: agent.url });
    const gateway = new GatewayClient({ baseUrl: local.urls.gateway, tenantId: "acme" });
    const { runId } = await gateway.execute({ instanceId, inputText: "tides" });
    await collect(gateway.events(runId));
    const verifier = new JwksTokenVerifier({ gatewayUrl: local.urls.gateway, issuer: local.tokens.issuer });
    const claims = await verifier.verify(seen.tokens[0] as string);
    expect(claims).toMatchObject({ run_id: runId, instance_id: instanceId, tenant_id: "acme" });
    await gateway.close();
  });

  it("an expired token is refused", async () => {
    const local = await platform();
    const token = await local.tokens.mint(
      { user_id: "u", tenant_id: "acme", run_id: "r", instance_id: "i" },
      { expiresInSeconds: -600 },
    );
    const verifier = new JwksTokenVerifier({ gatewayUrl: local.urls.gateway, issuer: local.tokens.issuer });
    await expect(verifier.verify(token)).rejects.toMatchObject({ reason: "expired" });
    expect(await local.tokens.claimsOf(token)).toBeUndefined();
  });
});

describe("a pause answered through the local gateway", () => {
  it("execute with the paused run's thread_id continues the same run and task to its end", async () => {
    const local = await platform();
    const agent = await serve(bookingAgent());
    const { instanceId } = await local.registerAgent({ url: agent.url });
    const gateway = new GatewayClient({ baseUrl: local.urls.gateway });
    const { runId } = await gateway.execute({ instanceId, inputText: "Lisbon" });
    const seen: StreamEvent[] = [];
    for await (const event of gateway.events(runId)) {
      seen.push(event);
      if (event.status === "WAITING_USER") {
        const answer = await gateway.execute({ instanceId, inputText: "yes", threadId: runId });
        expect(answer.runId).toBe(runId);
      }
    }
    expect(seen.map((e) => e.type)).toContain("hitl");
    expect(seen.find((e) => e.type === "hitl")?.content).toBe("Book Lisbon? Answer yes or no.");
    expect(seen.at(-1)).toMatchObject({ type: "done", payload: { output: "Booked." } });
    expect(local.violations).toEqual([]);
    await gateway.close();
  });
});
