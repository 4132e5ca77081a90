/**
 * `check`: the requirement table is tied to the pinned spec text; it passes
 * on our example agent over all three bindings; it reports the known
 * deviations of the @a2a-js/sdk 1.3.0 server, and nothing else; and a stream
 * that stays open after its terminal frame fails STREAM-CLOSES.
 */
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { exampleAgentCheckArgs } from "../../src/cli/check/example-agent-args.js";
import { REQUIREMENTS } from "../../src/cli/check/requirements/index.js";
import type { RequirementResult } from "../../src/cli/check/run-check.js";
import { loadPinnedSpec, readSpecLock } from "../../tools/spec-lock.js";
import { type ExampleAgent, type PeerAgent, startExampleAgent, startPeerAgent } from "./support/agents.js";
import { cli, jsonLines, ROOT } from "./support/run-cli.js";

interface Report {
  summary: { passed: number; failed: number; skipped: number; mustFailed: number };
  results: RequirementResult[];
}

async function check(argv: readonly string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const run = await cli(["--json", "check", ...argv]);
  return { code: run.code, report: jsonLines(run.stdout)[0] as Report, stderr: run.stderr };
}

const failures = (report: Report) =>
  report.results
    .filter((r) => r.status === "fail")
    .map((r) => `${r.binding ?? "card"} ${r.id} ${r.level}`)
    .sort();

describe("the requirement table", () => {
  const spec = loadPinnedSpec(ROOT, readSpecLock(resolve(ROOT, "proto/a2a.lock")));
  const text = readFileSync(spec.specificationFile as string, "utf8");
  const headings = new Set([...text.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]));

  it("has unique ids, a level, and cites sections that exist in the pinned specification", () => {
    expect(new Set(REQUIREMENTS.map((r) => r.id)).size).toBe(REQUIREMENTS.length);
    for (const r of REQUIREMENTS) {
      expect(["MUST", "SHOULD"], r.id).toContain(r.level);
      const cited = [...r.section.matchAll(/\u00a7(\d+(?:\.\d+)*)/g)].map((m) => m[1]);
      expect(cited.length, r.id).toBeGreaterThan(0);
      for (const section of cited) expect(headings, `${r.id} cites \u00a7${section}`).toContain(section);
    }
  });

  it("check --list prints every requirement", async () => {
    const run = await cli(["check", "--list"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(REQUIREMENTS.length);
  });
});

describe("check against live agents", () => {
  let ours: ExampleAgent;
  let peer: PeerAgent;
  beforeAll(async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    [ours, peer] = await Promise.all([startExampleAgent(500), startPeerAgent()]);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await Promise.all([ours?.close(), peer?.close()]);
  });

  it("passes on our example agent over JSON-RPC, HTTP+JSON and gRPC, exercising every message kind", {
    timeout: 120_000,
  }, async () => {
    const { code, report } = await check([ours.url, ...exampleAgentCheckArgs]);
    expect(failures(report)).toEqual([]);
    expect(code).toBe(0);
    for (const binding of ["JSONRPC", "HTTP+JSON", "GRPC"]) {
      const ran = report.results.filter((r) => r.binding === binding);
      for (const id of [
        "CANCEL-TASK",
        "SUBSCRIBE-CLOSES",
        "CONTEXT-INFERRED",
        "STREAM-CLOSES",
        "PUSH-CONFIG-LIFECYCLE",
      ]) {
        expect(ran.find((r) => r.id === id)?.status, `${binding} ${id}`).toBe("pass");
      }
    }
  });

  it("reports the @a2a-js/sdk 1.3.0 server's deviations as failures, and exits 1", { timeout: 120_000 }, async () => {
    const { code, report, stderr } = await check([
      peer.url,
      "--text",
      "task",
      "--slow-text",
      "hold",
      "--input-text",
      "input",
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain("MUST requirement(s) failed");
    expect(failures(report)).toEqual(
      [
        // The test agent's card (not the server) leaves skills[0].tags empty.
        "card CARD-REQUIRED-FIELDS MUST",
        // An envelope that is not a JSON-RPC request is answered -32602 (Invalid params), not -32600.
        "JSONRPC JSONRPC-INVALID-REQUEST MUST",
        // A2A-Version 1.0.1 is refused: the patch number is considered.
        "JSONRPC VERSION-PATCH-IGNORED MUST",
        "HTTP+JSON VERSION-PATCH-IGNORED MUST",
        "GRPC VERSION-PATCH-IGNORED MUST",
        // ?A2A-Version=1.0 is not read: the request is taken as 0.3.
        "HTTP+JSON VERSION-QUERY-PARAMETER SHOULD",
        // A message with no parts is accepted.
        "JSONRPC EMPTY-PARTS SHOULD",
        "HTTP+JSON EMPTY-PARTS SHOULD",
        "GRPC EMPTY-PARTS SHOULD",
      ].sort(),
    );
    const invalid = report.results.find((r) => r.id === "JSONRPC-INVALID-REQUEST");
    expect(invalid?.reason).toContain("no method answered -32602; -32600 is due");
  });
});

describe("check against a broken agent", () => {
  it("fails STREAM-CLOSES when a stream stays open after its terminal frame", async () => {
    const server = createServer((req, res) => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      if (req.url === "/.well-known/agent-card.json") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            name: "lingering",
            description: "keeps streams open",
            version: "1.0.0",
            supportedInterfaces: [{ url: origin, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
            capabilities: { streaming: true },
            defaultInputModes: ["text/plain"],
            defaultOutputModes: ["text/plain"],
            skills: [{ id: "s", name: "s", description: "s", tags: ["t"] }],
          }),
        );
        return;
      }
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        let request: { id?: unknown; method?: unknown } = {};
        try {
          request = JSON.parse(body);
        } catch {
          // answered as an unknown method below: only the stream matters here
        }
        const { id, method } = request;
        if (method !== "SendStreamingMessage") {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: "no" } }));
          return;
        }
        const task = { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } };
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id, result: { task } })}\n\n`);
        // …and never ends the response.
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const { code, report } = await check([url, "--grace", "0.3", "--timeout", "5"]);
      expect(code).toBe(1);
      const closes = report.results.find((r) => r.id === "STREAM-CLOSES");
      expect(closes).toMatchObject({
        status: "fail",
        reason: "still open 300 ms after the terminal or interrupted state",
      });
      expect(report.results.find((r) => r.id === "STREAM-FIRST-FRAME")?.status).toBe("pass");
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
