/**
 * Attack family: an agent whose reply is larger than the client accepts (a
 * hostile agent, or a task grown past the caller's cap). On every binding the
 * call fails with InvalidAgentResponseError (-32006), which is not retryable:
 * sending the same call again gets the same reply. An oversized gRPC reply
 * used to be a retryable NovaOSRateLimitError (RESOURCE_EXHAUSTED), so a
 * retry policy hammered the agent for a reply it could never read.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProtocolBinding } from "../../src/a2a/constants.js";
import { InvalidAgentResponseError } from "../../src/a2a/errors.js";
import { Client } from "../../src/client/client.js";
import type { NovaOSError } from "../../src/errors/novaos-errors.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { expectUnaffected, type ServedAgent, serveForAttack } from "./support.js";

const BINDINGS: readonly ProtocolBinding[] = ["JSONRPC", "HTTP+JSON", "GRPC"];
const CAP = 64 * 1024;

let agent: ServedAgent;
beforeAll(async () => {
  const builder = new AgentBuilder({ name: "big-replies", logger: createLogger({ level: "silent" }) });
  builder.skill("echo", async (_ctx, text) => ({ output: text }));
  builder.skill("big", async () => ({ output: "x".repeat(4 * CAP) }));
  agent = await serveForAttack(builder);
});
afterAll(() => agent.close());

function cappedClient(binding: ProtocolBinding): Client {
  const baseUrl = binding === "GRPC" ? `http://${agent.server.grpcTarget}` : agent.server.url;
  return new Client({ transports: [grpcTransport()], baseUrl, binding, maxResponseBytes: CAP, maxSseEventBytes: CAP });
}

function expectNotRetryableOversize(error: unknown): void {
  expect(error).toBeInstanceOf(InvalidAgentResponseError);
  expect((error as NovaOSError).isRetryable).toBe(false);
}

describe("a reply over the client's cap", () => {
  it.each(BINDINGS)("%s: a unary reply is InvalidAgentResponseError, not retryable", async (binding) => {
    await using client = cappedClient(binding);
    expectNotRetryableOversize(await client.sendMessage("go", { skillId: "big" }).catch((e: unknown) => e));
    await expectUnaffected(agent);
  });

  it.each(BINDINGS)("%s: a stream frame is InvalidAgentResponseError, not retryable", async (binding) => {
    await using client = cappedClient(binding);
    const read = async () => {
      for await (const _frame of client.sendStreamingMessage("go", { skillId: "big" })) {
        // Read to the end, or to the failure.
      }
    };
    expectNotRetryableOversize(await read().catch((e: unknown) => e));
    await expectUnaffected(agent);
  });
});
