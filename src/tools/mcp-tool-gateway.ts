/**
 * `McpToolGateway`: the connection to the MCP Gateway that every tool call
 * of a process shares (openapi/mcp-gateway.yaml, `POST /mcp/v1/tools/call`).
 * It holds what outlives one run: the fetch, and one `ResiliencePolicy` per
 * tool service (`novaos.knowledge`, `novaos.memory`, …), so the circuit
 * breaker of a failing service counts every run's calls and never blocks
 * another service. Everything about one run (its token, tenant, trace,
 * session) comes with each call.
 *
 * One exchange: the JSON-RPC request, the run's `Mcp-Session-Id` (renewed
 * once when the gateway says it expired, which it does before anything
 * runs), the answer read with a cap whatever its status, and a typed error
 * for anything but a JSON-RPC result: the gateway's JSON-RPC errors
 * (gateway-rpc-error.ts), its HTTP refusals (`{error, message?}`), and an
 * answer that is not JSON-RPC at all. openapi-fetch is not used here: it
 * reads an error body whole, and an answer must be capped whatever its
 * status.
 */
import type { components } from "../../gen/openapi/mcp-gateway.js";
import { NovaOSError, NovaOSServerError, NovaOSValidationError } from "../errors/novaos-errors.js";
import { checkBaseUrl } from "../http/base-url.js";
import { BodyTooLargeError, readErrorBody, readStreamBody } from "../http/capped-body.js";
import { isJsonMediaType } from "../http/json-media-type.js";
import { platformHttpError } from "../http/platform-http-error.js";
import { connectionError } from "../http/transport-failure.js";
import { type Clock, systemClock } from "../runtime/clock.js";
import { type ResilienceOptions, ResiliencePolicy } from "../runtime/resilience.js";
import { gatewayRpcError } from "./gateway-rpc-error.js";
import {
  forgetSession,
  isSessionExpiredAnswer,
  keepSession,
  MCP_SESSION_ID_HEADER,
  type McpSession,
} from "./mcp-session.js";
import { toolService } from "./tool-names.js";

export type CallToolResult = components["schemas"]["CallToolResult"];

export const TOOLS_CALL_PATH = "/mcp/v1/tools/call";
/**
 * The largest answer read: a 10 MiB file or HTTP body, base64-encoded, sent
 * twice (`structuredContent` and its text copy) is about 28 MiB.
 */
export const DEFAULT_MAX_REPLY_BYTES = 32 * 1024 * 1024;
/** The gateway refuses larger requests (413); the SDK refuses them first. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

/** The resilience settings a gateway applies to every service's policy. */
export type ToolResilienceOptions = Pick<
  ResilienceOptions,
  "maxAttempts" | "baseDelayMs" | "maxDelayMs" | "maxRetryAfterMs" | "breakerThreshold" | "breakerResetMs"
>;

export interface McpToolGatewayOptions {
  /** The gateway's base URL, e.g. `http://mcp-gateway:8080` (`MCP_GATEWAY_URL`). */
  url: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch | undefined;
  /** The clock retries, deadlines, the breaker and the pollers wait on. Default: the system clock. */
  clock?: Clock | undefined;
  /** The jitter source, in [0, 1). Default `Math.random`. */
  random?: (() => number) | undefined;
  /** Overrides of the platform's resilience defaults (3 attempts, 1 s backoff, breaker at 5 for 30 s). */
  resilience?: ToolResilienceOptions | undefined;
  /** Answers larger than this are refused. Default 32 MiB. */
  maxReplyBytes?: number | undefined;
}

/** One `tools/call`, ready to send. */
export interface GatewayToolCall {
  /** The tool's fully qualified name. */
  readonly name: string;
  /** The JSON-RPC request id (also in `body`). */
  readonly id: string;
  /** The JSON-RPC request, encoded. */
  readonly body: string;
  /** The run's headers: credentials, tenant, trace, the caller's custom headers. */
  readonly headers: Readonly<Record<string, string>>;
  readonly session: McpSession;
  /** Whether a transient failure may be retried. */
  readonly idempotent: boolean;
  /** Deadline of each attempt (ms). */
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

export interface GatewayToolAnswer {
  readonly result: CallToolResult;
  /** The answer's size in bytes. */
  readonly bytes: number;
}

export class McpToolGateway {
  /** The gateway's base URL, without a trailing slash. */
  readonly url: string;
  readonly clock: Clock;
  readonly #endpoint: string;
  readonly #fetch: typeof fetch;
  readonly #random: (() => number) | undefined;
  readonly #resilience: ToolResilienceOptions;
  readonly #maxReplyBytes: number;
  readonly #policies = new Map<string, ResiliencePolicy>();

  /** A URL that is not http(s) is NovaOSValidationError. */
  constructor(options: McpToolGatewayOptions) {
    this.url = checkBaseUrl(options.url, "MCP Gateway").replace(/\/+$/, "");
    this.#endpoint = `${this.url}${TOOLS_CALL_PATH}`;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.clock = options.clock ?? systemClock;
    this.#random = options.random;
    this.#resilience = options.resilience ?? {};
    this.#maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  }

  /** The resilience policy of the service `toolName` belongs to (one breaker per service). */
  policyFor(toolName: string): ResiliencePolicy {
    const service = toolService(toolName);
    let policy = this.#policies.get(service);
    if (!policy) {
      policy = new ResiliencePolicy({
        ...this.#resilience,
        name: `MCP Gateway (${service})`,
        clock: this.clock,
        random: this.#random,
      });
      this.#policies.set(service, policy);
    }
    return policy;
  }

  /** Sends `call` under its service's policy; answers the tool's result, whether it succeeded or not. */
  call(call: GatewayToolCall): Promise<GatewayToolAnswer> {
    return this.policyFor(call.name).execute((signal) => this.#exchange(call, signal), {
      signal: call.signal,
      idempotent: call.idempotent,
      timeoutMs: call.timeoutMs,
      operation: `tools/call ${call.name}`,
    });
  }

  async #exchange(call: GatewayToolCall, signal: AbortSignal): Promise<GatewayToolAnswer> {
    const sent = call.session.id;
    let response = await this.#post(call, signal, sent);
    if (response.status === 404 && sent !== undefined) {
      const body = await readErrorBody(response);
      if (!isSessionExpiredAnswer(response.status, body)) throw this.#httpError(response, body, call);
      // Nothing ran: the same request once more, in a new session.
      forgetSession(call.session, sent);
      response = await this.#post(call, signal, undefined);
    }
    return this.#answer(response, call, signal);
  }

  async #post(call: GatewayToolCall, signal: AbortSignal, sessionId: string | undefined): Promise<Response> {
    const headers: Record<string, string> = {
      ...call.headers,
      "content-type": "application/json",
      accept: "application/json",
    };
    if (sessionId !== undefined) headers[MCP_SESSION_ID_HEADER] = sessionId;
    try {
      return await this.#fetch(this.#endpoint, { method: "POST", headers, body: call.body, signal });
    } catch (error) {
      throw this.#lost(error, signal, call);
    }
  }

  async #answer(response: Response, call: GatewayToolCall, signal: AbortSignal): Promise<GatewayToolAnswer> {
    if (response.status !== 200) {
      const body = await readErrorBody(response);
      const rpcError = (body as { error?: unknown } | null)?.error;
      if (response.status === 400 && typeof rpcError === "object" && rpcError !== null) {
        throw gatewayRpcError(rpcError, call.name);
      }
      throw this.#httpError(response, body, call);
    }
    const contentType = response.headers.get("content-type") ?? "";
    if (!isJsonMediaType(contentType)) {
      await response.body?.cancel().catch(() => undefined);
      throw this.#protocolError(call, `answered ${contentType || "no content type"}, not JSON`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readStreamBody(response.body, { maxBytes: this.#maxReplyBytes });
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        throw this.#protocolError(call, `answered more than ${this.#maxReplyBytes} bytes`);
      }
      throw this.#lost(error, signal, call);
    }
    keepSession(call.session, response);
    return { result: this.#decode(new TextDecoder().decode(bytes), call), bytes: bytes.byteLength };
  }

  /** The `result` of a JSON-RPC answer to `call`, or the typed error it stands for. */
  #decode(text: string, call: GatewayToolCall): CallToolResult {
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch {
      throw this.#protocolError(call, "answered a body that is not JSON");
    }
    if (typeof reply !== "object" || reply === null || (reply as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
      throw this.#protocolError(call, "answered JSON that is not a JSON-RPC response");
    }
    const { id, error, result } = reply as { id?: unknown; error?: unknown; result?: unknown };
    if (error !== undefined) throw gatewayRpcError(error, call.name);
    if (id !== call.id) throw this.#protocolError(call, `answered request ${JSON.stringify(id)}, not ${call.id}`);
    if (typeof result !== "object" || result === null || !Array.isArray((result as { content?: unknown }).content)) {
      throw this.#protocolError(call, "answered a result that is not an MCP CallToolResult");
    }
    return result as CallToolResult;
  }

  #protocolError(call: GatewayToolCall, what: string): NovaOSServerError {
    return new NovaOSServerError(`The MCP Gateway ${what} (tools/call ${call.name})`, {
      details: { toolName: call.name },
    });
  }

  #httpError(response: Response, body: unknown, call: GatewayToolCall): NovaOSError {
    return platformHttpError(response, body, {
      operation: `MCP Gateway tools/call ${call.name}`,
      notFound: (message, options) => new NovaOSValidationError(message, { ...options, reason: "not_found" }),
    });
  }

  /** The error of an exchange that got no (whole) answer: the attempt's own abort reason, else a lost connection. */
  #lost(error: unknown, signal: AbortSignal, call: GatewayToolCall): unknown {
    if (signal.aborted) return signal.reason;
    if (error instanceof NovaOSError) return error;
    return connectionError(error, `${this.url} (tools/call ${call.name})`);
  }
}
