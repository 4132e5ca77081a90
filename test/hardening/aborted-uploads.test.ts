/**
 * Attack family: clients that go away mid-upload. Every aborted upload used
 * to log an error with a stack ("request failed"), so a client could fill the
 * logs at will and bury real failures. Now it is one debug line without a
 * stack, on every adapter (node:http through `listen()`, Fetch) and binding;
 * the process, the store and other tenants are unaffected.
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { Writable } from "node:stream";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { ATTACKER, expectUnaffected, type ServedAgent, serveForAttack } from "./support.js";

type LogLine = Record<string, unknown>;

/** A debug-level logger whose lines can be awaited. */
function capturingLogger() {
  const lines: LogLine[] = [];
  let waiting: ((line: LogLine) => void) | undefined;
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split("\n").filter(Boolean)) {
        const line = JSON.parse(text) as LogLine;
        lines.push(line);
        waiting?.(line);
      }
      done();
    },
  });
  return {
    logger: createLogger({ destination, level: "debug" }),
    lines,
    /** The next line written. */
    next: () =>
      new Promise<LogLine>((resolve) => {
        waiting = resolve;
      }),
  };
}

function buildAgent(logger: ReturnType<typeof createLogger>, auth?: "none"): AgentBuilder {
  const builder = new AgentBuilder({ name: "uploads", logger, ...(auth ? { auth } : {}) });
  builder.skill("echo", async (_ctx, text) => ({ output: text }));
  return builder;
}

/** Sends the head and the first bytes of a body that declares 100,000, then resets the connection. */
async function abortUpload(port: number, path: string, contentType: string): Promise<void> {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${contentType}\r\nA2A-Version: 1.0\r\n` +
      `X-NovaOS-Tenant-Id: attacker\r\nContent-Length: 100000\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"SendMess`,
  );
  socket.resetAndDestroy();
}

/** The line an aborted upload logged: debug, naming the binding, with no error object and so no stack. */
function expectQuietLine(line: LogLine, binding: string): void {
  expect(line.message).toMatch(/went away before sending its whole request/);
  expect(line.level).toBe("debug");
  expect(line.binding).toBe(binding);
  expect(line).not.toHaveProperty("err");
  expect(JSON.stringify(line)).not.toMatch(/stack|at .*\.ts:/);
}

describe("a client going away mid-upload", () => {
  const log = capturingLogger();
  let agent: ServedAgent;
  beforeAll(async () => {
    agent = await serveForAttack(buildAgent(log.logger));
  });
  afterAll(() => agent.close());

  it("is one debug line without a stack over JSON-RPC and HTTP+JSON (listen, node:http)", async () => {
    const logged = log.next();
    await abortUpload(agent.server.port, "/", "application/json");
    expectQuietLine(await logged, "JSONRPC");
    const again = log.next();
    await abortUpload(agent.server.port, "/message:send", "application/a2a+json");
    expectQuietLine(await again, "HTTP+JSON");
    await expectUnaffected(agent);
    expect(log.lines.filter((l) => l.level === "error" || l.level === "warn")).toEqual([]);
  });

  it("logs nothing over gRPC when the caller resets its stream mid-message", async () => {
    const session = http2.connect(`http://${agent.server.grpcTarget}`);
    const request = session.request({
      ":method": "POST",
      ":path": "/lf.a2a.v1.A2AService/SendMessage",
      "content-type": "application/grpc",
      te: "trailers",
      ...Object.fromEntries(Object.entries(ATTACKER).map(([k, v]) => [k.toLowerCase(), v])),
    });
    request.on("error", () => undefined);
    const header = Buffer.alloc(5);
    header.writeUInt32BE(100_000, 1);
    request.write(Buffer.concat([header, Buffer.alloc(1000)]));
    await new Promise<void>((resolve) => request.write(Buffer.alloc(1000), () => resolve()));
    request.close(http2.constants.NGHTTP2_CANCEL);
    await new Promise((resolve) => request.once("close", resolve));
    session.close();
    // The agent answers everyone else, and nothing above debug was logged meanwhile.
    await expectUnaffected(agent);
    expect(log.lines.filter((l) => l.level === "error" || l.level === "warn")).toEqual([]);
  });
});

describe("a client going away mid-upload, Fetch adapter", () => {
  it("is one debug line without a stack", async () => {
    const log = capturingLogger();
    // A Fetch handler cannot tell a local caller from another: it needs an auth mode.
    const handler = buildAgent(log.logger, "none").fetchHandler();
    const server = serve({ fetch: handler, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    try {
      const logged = log.next();
      await abortUpload((server.address() as AddressInfo).port, "/", "application/json");
      expectQuietLine(await logged, "JSONRPC");
      expect(log.lines.filter((l) => l.level === "error" || l.level === "warn")).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      });
    }
  });
});
