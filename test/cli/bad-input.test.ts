/**
 * Bad input never ends in a stack trace: an unreachable URL, a server that is
 * not an A2A agent, an HTML page, a card that is not JSON, a huge card, a
 * stream that never ends (with --timeout), invalid JSON in --data. Each is
 * one line on stderr and its documented exit code; `--debug` adds the stack.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { cli, cliProcess } from "./support/run-cli.js";

let hostile: Server;
let base: string;
let closedPort: number;

/** One server, one misbehaviour per path prefix. */
function misbehave(path: string, origin: string, res: import("node:http").ServerResponse): void {
  const [, kind] = path.split("/");
  switch (kind) {
    case "html":
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Welcome</title><p>Hello!</p>");
      return;
    case "notjson":
      res.writeHead(200, { "content-type": "application/json" }).end('{"name": "half a card"');
      return;
    case "huge":
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }));
      return;
    case "forever":
      if (path.endsWith("/.well-known/agent-card.json")) {
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            name: "forever",
            description: "streams that never end",
            version: "1",
            supportedInterfaces: [{ url: `${origin}/forever/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
            capabilities: { streaming: true },
            defaultInputModes: ["text/plain"],
            defaultOutputModes: ["text/plain"],
            skills: [],
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { task: { id: "t", contextId: "c", status: { state: "TASK_STATE_WORKING" } } } })}\n\n`,
      );
      return; // never ends
    default:
      res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
  }
}

beforeAll(async () => {
  hostile = createServer((req, res) => misbehave(req.url ?? "/", base, res));
  hostile.listen(0, "127.0.0.1");
  await once(hostile, "listening");
  base = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  const closed = createServer().listen(0, "127.0.0.1");
  await once(closed, "listening");
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((done) => closed.close(done));
});
afterAll(() => {
  hostile.closeAllConnections();
  hostile.close();
});

/** Exactly one line, no stack frames. */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split("\n");
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  return lines[0] as string;
}

describe("bad input: one clear line on stderr, a documented exit code", () => {
  it("an unreachable URL is exit 3", async () => {
    const run = await cli(["send", `http://127.0.0.1:${closedPort}/`, "hi"]);
    expect(run.code).toBe(EXIT.UNREACHABLE);
    expect(oneLine(run.stderr)).toMatch(
      /^novaos-a2a: Connection to http:\/\/127\.0\.0\.1:\d+\/.* failed: .*ECONNREFUSED/,
    );
  });

  it("a server that is not an A2A agent (no card) is exit 4", async () => {
    const run = await cli(["card", `${base}/nothing/`]);
    expect(run.code).toBe(EXIT.PROTOCOL);
    expect(oneLine(run.stderr)).toMatch(/^novaos-a2a: .*404/);
  });

  it("an HTML page where the card should be is exit 4", async () => {
    const run = await cli(["send", `${base}/html/`, "hi"]);
    expect(run.code).toBe(EXIT.PROTOCOL);
    expect(oneLine(run.stderr)).toContain("is not a usable Agent Card: the body is not JSON");
  });

  it("a card that is not JSON is exit 4", async () => {
    const run = await cli(["card", `${base}/notjson/`]);
    expect(run.code).toBe(EXIT.PROTOCOL);
    expect(oneLine(run.stderr)).toContain("is not a usable Agent Card: the body is not JSON");
  });

  it("a huge card is refused at the cap, exit 4", async () => {
    const run = await cli(["card", `${base}/huge/`]);
    expect(run.code).toBe(EXIT.PROTOCOL);
    expect(oneLine(run.stderr)).toContain("is not a usable Agent Card: larger than 1048576 bytes");
  });

  it("a stream that never ends stops at --timeout, exit 5", async () => {
    const run = await cli(["stream", `${base}/forever/`, "hi", "--timeout", "1"]);
    expect(run.code).toBe(EXIT.TIMEOUT);
    expect(run.stdout).toContain("working");
    expect(oneLine(run.stderr)).toBe("novaos-a2a: timeout: Request timed out after 1000 ms");
  });

  it("invalid JSON in --data is exit 2, before anything is sent", async () => {
    const run = await cli(["send", `http://127.0.0.1:${closedPort}/`, "hi", "--data", "{'single': quotes}"]);
    expect(run.code).toBe(EXIT.USAGE);
    expect(oneLine(run.stderr)).toMatch(/^novaos-a2a: --data is not valid JSON: /);
  });

  it("--json puts the error on stderr as JSON; --debug adds the stack", async () => {
    const json = await cli(["--json", "card", `${base}/html/`]);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { exitCode: 4 } });
    const debug = await cli(["--debug", "card", `${base}/html/`]);
    expect(debug.code).toBe(EXIT.PROTOCOL);
    expect(debug.stderr).toMatch(/^\s+at /m);
  });

  it("the bin itself prints one line and exits 3 for an unreachable agent", async () => {
    const run = await cliProcess(["task", "get", `http://127.0.0.1:${closedPort}/`, "t-1"]);
    expect(run.code).toBe(EXIT.UNREACHABLE);
    expect(oneLine(run.stderr)).toMatch(/^novaos-a2a: Connection to .* failed/);
  });
});
