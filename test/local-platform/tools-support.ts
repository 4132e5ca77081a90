/**
 * Helpers for the tests of the local MCP Gateway's tools: agents whose
 * `ctx.tools` call the platform, runs started through the gateway with
 * `GatewayClient`, pauses answered through it, and the run's result.
 */
import { BearerTokenAuth } from "../../src/http/auth.js";
import { LOCAL_TENANT, LOCAL_USER_ID, type LocalPlatform } from "../../src/local-platform/index.js";
import { GatewayClient, MemoryClient, type StreamEvent } from "../../src/platform/index.js";
import { JwksTokenVerifier } from "../../src/security/index.js";
import { AgentBuilder, type AgentBuilderOptions, createLogger, createPlatformTools } from "../../src/server/index.js";

/**
 * An agent whose `ctx.tools` call `local`'s MCP Gateway and which accepts
 * `local`'s run tokens only (verified against its JWKS, as a pod does).
 */
export function toolAgent(
  local: LocalPlatform,
  name: string,
  options: Partial<AgentBuilderOptions> = {},
): AgentBuilder {
  return new AgentBuilder({
    name,
    logger: createLogger({ level: "silent" }),
    tools: (ctx) => createPlatformTools(ctx, { gateway: local.urls["mcp-gateway"] }),
    auth: {
      mode: "executionToken",
      verifier: new JwksTokenVerifier({ gatewayUrl: local.urls.gateway, issuer: local.tokens.issuer }),
    },
    ...options,
  });
}

/**
 * Starts `instanceId` with `inputText` through the gateway and reads the run
 * to its end, answering each pause (`hitl` event) with the next of `answers`.
 */
export async function runThroughGateway(
  local: LocalPlatform,
  instanceId: string,
  inputText: string,
  answers: readonly string[] = [],
): Promise<StreamEvent[]> {
  await using gateway = new GatewayClient({ baseUrl: local.urls.gateway });
  const { runId } = await gateway.execute({ instanceId, inputText });
  const pending = [...answers];
  const events: StreamEvent[] = [];
  for await (const event of gateway.events(runId)) {
    events.push(event);
    const answer = event.type === "hitl" ? pending.shift() : undefined;
    if (answer !== undefined) await gateway.execute({ instanceId, inputText: answer, threadId: runId });
  }
  return events;
}

/** The output of the run's final `done` event, parsed as JSON; throws when the run did not end `done`. */
export function outputOf(events: readonly StreamEvent[]): unknown {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`The run ended ${JSON.stringify(last)}`);
  return JSON.parse((last.payload as { output: string }).output);
}

/**
 * A Memory client with a run token of `local`'s, for `instance_id` and
 * `agent_id` (the local tenant and user unless `grant` says otherwise), as a
 * run of that agent would hold.
 */
export async function memoryClient(
  local: LocalPlatform,
  grant: { instance_id: string; agent_id: string; tenant_id?: string },
): Promise<MemoryClient> {
  const token = await local.tokens.mint({
    user_id: LOCAL_USER_ID,
    tenant_id: LOCAL_TENANT,
    run_id: "run-outside",
    ...grant,
  });
  return new MemoryClient({ baseUrl: local.urls.memory, auth: new BearerTokenAuth(token) });
}
