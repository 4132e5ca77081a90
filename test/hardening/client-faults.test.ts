/**
 * Attack family: client faults. No client call, close or abort may crash the
 * caller's process: a gRPC client at an HTTP/1.1 port (a child process, so an
 * unhandled 'error' shows as its exit code), and clients of every binding
 * closed mid-call, mid-stream and after a failed connect against a served
 * agent: typed errors on the pending calls, nothing unhandled, and the agent
 * and its store unaffected.
 */
import { execFile } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProtocolBinding } from "../../src/a2a/constants.js";
import { Client } from "../../src/client/client.js";
import { NovaOSError } from "../../src/errors/novaos-errors.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { listen } from "../../src/node/index.js";
import type { AgentServer } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";

const BINDINGS: readonly ProtocolBinding[] = ["JSONRPC", "HTTP+JSON", "GRPC"];

let server: AgentServer;
/** Releases every held skill (at the end, so the agent can close). */
const releases: (() => void)[] = [];
let heldCount = 0;
const heldWaiters: (() => void)[] = [];

function whenHeld(n: number): Promise<void> {
  return heldCount >= n
    ? Promise.resolve()
    : new Promise((resolve) => heldWaiters.push(() => heldCount >= n && resolve()));
}

beforeAll(async () => {
  const agent = new AgentBuilder({ name: "faults", logger: createLogger({ level: "silent" }) });
  agent.skill("hold", async (ctx) => {
    await ctx.taskUpdater.startWork("holding");
    heldCount++;
    for (const waiter of heldWaiters) waiter();
    await new Promise<void>((resolve) => releases.push(resolve));
    return { output: "released" };
  });
  agent.skill("echo", async (_ctx, text) => ({ output: text }));
  server = await listen(agent, { port: 0, grpcPort: 0 });
});

afterAll(async () => {
  for (const release of releases) release();
  await server.close();
});

const unhandled: unknown[] = [];
const record = (error: unknown) => unhandled.push(error);
beforeAll(() => {
  process.on("unhandledRejection", record);
  process.on("uncaughtException", record);
});
afterAll(() => {
  process.off("unhandledRejection", record);
  process.off("uncaughtException", record);
});
afterEach(() => {
  expect(unhandled).toEqual([]);
});

function clientFor(binding: ProtocolBinding): Client {
  const baseUrl = binding === "GRPC" ? `http://${server.grpcTarget}` : server.url;
  return new Client({ transports: [grpcTransport()], baseUrl, binding });
}

/** The agent still answers, on this binding, and its store still lists tasks. */
async function expectAgentUnaffected(binding: ProtocolBinding): Promise<void> {
  await using client = clientFor(binding);
  const task = await client.sendMessage("still here", { skillId: "echo" });
  expect(task).toMatchObject({ status: { state: 3 } });
  const listed = await client.listTasks();
  expect(listed.tasks.length).toBeGreaterThan(0);
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as net.AddressInfo;
  probe.close();
  await once(probe, "close");
  return port;
}

describe("client faults", () => {
  it("a gRPC client at an HTTP/1.1 port fails the call, closes, and its process survives", async () => {
    const { stdout, stderr } = await promisify(execFile)(
      "node_modules/.bin/tsx",
      ["test/hardening/fixtures/grpc-close-after-http1.ts"],
      { timeout: 60_000 },
    );
    expect(stdout).toContain("call failed: NovaOSConnectionError");
    expect(stdout.trim().split("\n").at(-1)).toBe("survived");
    expect(stderr).not.toContain("Unhandled");
  });

  it.each(BINDINGS)("%s: closing mid-call fails the pending call with a typed error", async (binding) => {
    const client = clientFor(binding);
    const held = whenHeld(heldCount + 1);
    const pending = client.sendMessage("wait", { skillId: "hold" });
    const failure = pending.then(
      () => undefined,
      (error: unknown) => error,
    );
    await held;
    await client.close();
    expect(await failure).toBeInstanceOf(NovaOSError);
    await expectAgentUnaffected(binding);
  });

  it.each(BINDINGS)("%s: closing mid-stream fails the stream's next read with a typed error", async (binding) => {
    const client = clientFor(binding);
    const held = whenHeld(heldCount + 1);
    const frames = client.sendStreamingMessage("wait", { skillId: "hold" })[Symbol.asyncIterator]();
    expect((await frames.next()).done).toBe(false);
    await held;
    await client.close();
    // Frames already received are still read; the stream then fails rather than end as if complete.
    let failure: unknown;
    for (;;) {
      const read = await frames.next().then(
        (result) => result,
        (error: unknown) => error,
      );
      if (!(read instanceof Error) && !(read as IteratorResult<unknown>).done) continue;
      failure = read;
      break;
    }
    expect(failure).toBeInstanceOf(NovaOSError);
    await expectAgentUnaffected(binding);
  });

  it.each(BINDINGS)("%s: a failed connect is a typed error, and closing after it is quiet", async (binding) => {
    const port = await closedPort();
    const client = new Client({ transports: [grpcTransport()], baseUrl: `http://127.0.0.1:${port}`, binding });
    await expect(client.getTask("t-1")).rejects.toBeInstanceOf(NovaOSError);
    await expect(client.close()).resolves.toBeUndefined();
    await expect(client.getTask("t-1")).rejects.toBeInstanceOf(Error);
  });
});
