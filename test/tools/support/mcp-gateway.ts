/**
 * An MCP Gateway for the tool tests: the contract server of
 * openapi/mcp-gateway.yaml (every request and every answer validated against
 * the file), answering each `tools/call` with what the test says, by
 * default the catalog sample's result of the tool called. Every call is
 * recorded with its headers, so a test reads what the SDK sent.
 */
import type { IncomingHttpHeaders } from "node:http";
import { TOOL_SAMPLES, type ToolName } from "../../openapi/tool-samples.js";
import { type ContractServer, type JsonReply, startContractServer } from "../../platform/contract-server.js";

export const GATEWAY_TOKEN = "tool-token";

export interface GatewayCall {
  readonly id: string | number;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly callId: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

export type ToolAnswer = (call: GatewayCall) => JsonReply | Promise<JsonReply>;

export interface GatewayDouble {
  readonly url: string;
  readonly server: ContractServer;
  readonly calls: GatewayCall[];
  /** What the next calls are answered with (default: `sampleAnswer`). */
  answer: ToolAnswer;
  /** Resolves once `count` calls have arrived in all. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A successful CallToolResult carrying `data`, with a session id. */
export function toolSuccess(call: GatewayCall, data: unknown, session = "session-1"): JsonReply {
  return {
    status: 200,
    headers: { "Mcp-Session-Id": session },
    body: {
      jsonrpc: "2.0",
      id: call.id,
      result: { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data },
    },
  };
}

/** A tool that ran and failed. */
export function toolFailure(call: GatewayCall, text: string): JsonReply {
  return {
    status: 200,
    headers: { "Mcp-Session-Id": "session-1" },
    body: { jsonrpc: "2.0", id: call.id, result: { content: [{ type: "text", text }], isError: true } },
  };
}

/** A JSON-RPC error of the gateway. */
export function rpcError(call: GatewayCall, code: number, message: string, data?: Record<string, unknown>): JsonReply {
  return {
    status: 200,
    headers: { "Mcp-Session-Id": "session-1" },
    body: { jsonrpc: "2.0", id: call.id, error: { code, message, ...(data ? { data } : {}) } },
  };
}

/** The sample result of the catalogued tool (or the connector rule) `name`. */
export function sampleResult(name: string): unknown {
  const key = (name.startsWith("novaos.connector.") ? "novaos.connector.*" : name) as ToolName;
  return TOOL_SAMPLES[key]?.result ?? { echoed: name };
}

export const sampleAnswer: ToolAnswer = (call) => toolSuccess(call, sampleResult(call.name));

export async function startGateway(
  options: { tokens?: readonly string[]; answer?: ToolAnswer } = {},
): Promise<GatewayDouble> {
  const calls: GatewayCall[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const received = (count: number) =>
    calls.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }));
  const double = { answer: options.answer ?? sampleAnswer, received } as GatewayDouble;
  const server = await startContractServer({
    spec: "mcp-gateway.yaml",
    bearerToken: options.tokens ?? [GATEWAY_TOKEN],
    handlers: {
      toolsCall: (ctx) => {
        const body = ctx.body as {
          id: string | number;
          params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, string> };
        };
        const call: GatewayCall = {
          id: body.id,
          name: body.params.name,
          arguments: body.params.arguments ?? {},
          callId: body.params._meta?.["novaos/call_id"],
          headers: ctx.headers,
        };
        calls.push(call);
        for (const waiter of waiters.filter((w) => w.count <= calls.length)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
        return double.answer(call);
      },
    },
  });
  return Object.assign(double, { url: server.url, server, calls, close: () => server.close() });
}
