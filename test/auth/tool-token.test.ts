/**
 * The token an agent verified is the one its platform tools carry. An agent
 * with `auth: { mode: "executionToken" }` and the default `ctx.tools` (the MCP
 * Gateway at `MCP_GATEWAY_URL`) is called by the SDK's Client on every binding
 * with `Authorization: Bearer <execution token>`; the gateway (a real socket)
 * receives that same token as the bearer of each tool call, and the verified
 * tenant, never the pod's own `NOVAOS_EXECUTION_TOKEN` nor a tenant the caller
 * wrote into the message's platform context.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Task, TaskState } from "../../gen/a2a_pb.js";
import { Client } from "../../src/client/client.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { platformContextMetadata } from "../../src/messages/platform-context.js";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type GatewayDouble, startGateway as startMcpGateway } from "../tools/support/mcp-gateway.js";
import { type Gateway, runClaims, startGateway } from "./support/execution-tokens.js";

const BINDINGS = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;
const POD_TOKEN = "the-pod-s-own-token";

let issuer: Gateway;
let mcp: GatewayDouble;
let server: AgentServer;
/** A new task's id is its run's, so each binding's call is a run of its own: one token per binding and user. */
const tokens = new Map<string, string>();
const tokenOf = (binding: string, user: string) => tokens.get(`${binding} ${user}`) as string;

beforeAll(async () => {
  issuer = await startGateway();
  for (const binding of BINDINGS) {
    for (const user of ["alice", "mallory"]) {
      tokens.set(`${binding} ${user}`, await issuer.sign(runClaims("clinic-a", user, `run-${user}-${binding}`)));
    }
  }
  // The gateway accepts the pod's token too: a call carrying it would succeed, and the test would see it.
  mcp = await startMcpGateway({ tokens: [...tokens.values(), POD_TOKEN] });
  vi.stubEnv("MCP_GATEWAY_URL", mcp.url);
  vi.stubEnv("NOVAOS_EXECUTION_TOKEN", POD_TOKEN);
  const agent = new AgentBuilder({
    name: "clinic",
    auth: { mode: "executionToken", verifier: issuer.verifier() },
    logger: createLogger({ level: "silent" }),
  });
  agent.skill("files", async (ctx) => {
    await ctx.tools.files.list();
    return { output: `listed for ${ctx.identity.userId}` };
  });
  server = await listen(agent, { port: 0, grpcPort: 0 });
});

afterAll(async () => {
  await server?.close();
  await mcp?.close();
  await issuer?.[Symbol.asyncDispose]();
  vi.unstubAllEnvs();
});

function client(binding: (typeof BINDINGS)[number], token: string): Client {
  return new Client({
    transports: [grpcTransport()],
    baseUrl: binding === "GRPC" ? `http://${server.grpcTarget}` : server.url,
    binding,
    headers: { authorization: `Bearer ${token}` },
  });
}

describe.each(BINDINGS)("the platform tools of a verified caller over %s", (binding) => {
  it("call the MCP Gateway with the caller's verified token and tenant, not the pod's or the metadata's", async () => {
    for (const user of ["alice", "mallory"] as const) {
      const before = mcp.calls.length;
      await using c = client(binding, tokenOf(binding, user));
      const task = (await c.sendMessage("list", {
        skillId: "files",
        // A tenant the caller claims in the platform context is no credential.
        metadata: platformContextMetadata({ tenantId: "clinic-b", userId: "root" }),
      })) as Task;
      expect(task.status?.state, `${binding} ${user}`).toBe(TaskState.COMPLETED);
      const sent = mcp.calls
        .slice(before)
        .map((call) => [call.name, call.headers.authorization, call.headers["x-tenant-id"]]);
      expect(sent, `${binding} ${user}`).toEqual([
        ["novaos.files.list", `Bearer ${tokenOf(binding, user)}`, "clinic-a"],
      ]);
    }
    expect(mcp.server.violations).toEqual([]);
  });
});
