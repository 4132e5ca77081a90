/**
 * `dns find|get` and `gateway run|events` against local platform services
 * built from openapi/ (every request and answer validated against the spec).
 */
import { afterEach, describe, expect, it } from "vitest";
import { type ContractServer, type OperationHandler, startContractServer } from "../platform/contract-server.js";
import { cli, jsonLines } from "./support/run-cli.js";

const TOKEN = "platform-token";
const INSTANCE = "6f1c2a7e-8a49-4f0e-9d55-3c1f4b2a9e10";
let server: ContractServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(spec: string, handlers: Record<string, OperationHandler>, eventSchema?: string) {
  server = await startContractServer({ spec, handlers, bearerToken: TOKEN, ...(eventSchema ? { eventSchema } : {}) });
  return server;
}

const env = { NOVAOS_A2A_TOKEN: TOKEN };
const RECORDS = [
  { id: "1", name: "joke-agent", url: "https://joke.agents.example", capabilities: ["humor"], status: "active" },
  { id: "2", name: "news-agent", url: "https://news.agents.example", capabilities: ["search"], status: "active" },
];

describe("dns", () => {
  it("find lists matching records; get prints one; an unknown name exits 1", async () => {
    const dns = await start("agent-dns.yaml", {
      listAgents: () => ({ status: 200, body: { agents: RECORDS } }),
      getAgent: ({ params }) => {
        const record = RECORDS.find((r) => r.name === params.name);
        return record ? { status: 200, body: record } : { status: 404, body: { error: "not found" } };
      },
    });
    const found = await cli(["dns", "find", "--capability", "humor", "--url", dns.url, "--auth", "bearer"], { env });
    expect(found.code).toBe(0);
    expect(found.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(/^joke-agent {2}https:\/\/joke\.agents\.example {2}active {2}humor$/),
    ]);
    const got = await cli(["--json", "dns", "get", "news-agent", "--url", dns.url, "--auth", "bearer"], { env });
    expect(jsonLines(got.stdout)[0]).toMatchObject({ name: "news-agent", url: "https://news.agents.example" });
    const missing = await cli(["dns", "get", "nobody", "--url", dns.url, "--auth", "bearer"], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('novaos-a2a: Agent DNS has no agent named "nobody"\n');
    expect(dns.violations).toEqual([]);
  });

  it("without a registry URL it is a usage error", async () => {
    const run = await cli(["dns", "find"], { env: {} });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^novaos-a2a: no Agent DNS: pass --url or set AGENT_DNS_URL/);
  });
});

describe("gateway", () => {
  const events: OperationHandler = ({ sse }) => {
    const stream = sse();
    stream.event({ type: "status", payload: { status: "RUNNING" }, sequence: 1 }, { id: "e1" });
    stream.event({ type: "message.delta", payload: { content: "Hello" }, sequence: 2 }, { id: "e2" });
    stream.event({ type: "message.delta", payload: { content: ", world" }, sequence: 3 }, { id: "e3" });
    stream.event({ type: "done", payload: {}, sequence: 4 }, { id: "e4" });
    return undefined;
  };

  it("run starts a run and follows its events to the end", async () => {
    const gateway = await start(
      "gateway.yaml",
      { execute: () => ({ status: 200, body: { run_id: "run-1", status: "started" } }), runEvents: events },
      "GatewayEvent",
    );
    const run = await cli(["gateway", "run", INSTANCE, "Say hello", "--url", gateway.url, "--auth", "bearer"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      "run run-1 started",
      "status RUNNING",
      "chunk Hello",
      "chunk , world",
      "done {}",
      "",
    ]);
    expect(gateway.requests.map((r) => r.operationId)).toEqual(["execute", "runEvents"]);
    expect(gateway.violations).toEqual([]);
  });

  it("events --json prints one event per line; a failed run exits 1", async () => {
    const gateway = await start(
      "gateway.yaml",
      {
        runEvents: ({ sse }) => {
          sse().event({ type: "status", payload: { status: "FAILED", message: "boom" }, sequence: 1 }, { id: "e1" });
          return undefined;
        },
      },
      "GatewayEvent",
    );
    const run = await cli(["--json", "gateway", "events", "run-2", "--url", gateway.url, "--auth", "bearer"], { env });
    expect(run.code).toBe(1);
    expect(jsonLines(run.stdout)).toEqual([
      {
        type: "status",
        content: "boom",
        status: "FAILED",
        id: "e1",
        sequence: 1,
        payload: { status: "FAILED", message: "boom" },
      },
    ]);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: { message: "the run ended FAILED", exitCode: 1 } });
  });
});
