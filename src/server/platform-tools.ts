/**
 * Zero-config `ctx.tools`: an agent built without a `tools` factory gives
 * each run the platform tools (`ToolBindings`) of the MCP Gateway at
 * `MCP_GATEWAY_URL`. Everything that identifies the run comes from that
 * run's own execution context, never from an earlier run's (a fleet pod
 * serves many): its token, tenant, run id, `traceparent`, the caller's
 * custom headers, its signal (a cancelled run's calls end at once) and its
 * event channel (its stream, or its final message). What outlives a run,
 * the connection and the circuit breakers, is shared by the agent's runs.
 *
 * The gateway's URL is read from the environment only, never from the
 * request: the platform context in a request's metadata comes from the
 * caller, and a caller-chosen URL would receive the run's token.
 */
import { McpToolGateway } from "../tools/mcp-tool-gateway.js";
import { ToolBindings, type ToolBindingsOptions } from "../tools/tool-bindings.js";
import { MCP_GATEWAY_URL_ENV } from "../tools/tool-errors.js";
import type { AgentExecutionContext, ToolsFactory } from "./agent-execution-context.js";

type Env = Readonly<Record<string, string | undefined>>;

/** What a factory may set on the platform tools of a run; the run decides the rest. */
export type PlatformToolsOptions = Omit<
  ToolBindingsOptions,
  "token" | "tenantId" | "runId" | "traceparent" | "customHeaders" | "signal" | "runEvents"
>;

/** The platform tools of `ctx`'s run (for a `tools` factory that wants them with options of its own). */
export function createPlatformTools(
  ctx: AgentExecutionContext<unknown>,
  options: PlatformToolsOptions = {},
): ToolBindings {
  return new ToolBindings({
    ...options,
    // The run's credential, chosen here only: the token the agent's authentication verified (`ctx.identity.token`,
    // which `ctx.executionContext` carries), NOVAOS_EXECUTION_TOKEN only when the caller presented none.
    token: ctx.executionContext.executionToken,
    tenantId: ctx.tenantId,
    runId: ctx.runId,
    traceparent: ctx.traceparent,
    customHeaders: ctx.customHeaders,
    signal: ctx.signal,
    runEvents: (event) => ctx.emitToolEvent(event),
  });
}

/**
 * An AgentBuilder's default `tools` factory: `createPlatformTools` with
 * `MCP_GATEWAY_URL` (and `NOVAOS_TOOL_TIMEOUT_S`) read when a run first uses
 * its tools, over one `McpToolGateway` per URL for all of the agent's runs.
 */
export function platformToolsFactory(env: Env = process.env): ToolsFactory<ToolBindings> {
  const gateways = new Map<string, McpToolGateway>();
  return (ctx) => {
    const url = env[MCP_GATEWAY_URL_ENV]?.trim();
    let gateway = url ? gateways.get(url) : undefined;
    if (url && !gateway) {
      gateway = new McpToolGateway({ url });
      gateways.set(url, gateway);
    }
    return createPlatformTools(ctx, { gateway, env });
  };
}
