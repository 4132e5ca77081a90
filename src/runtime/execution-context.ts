/**
 * The execution context the novaos-auth-proxy sidecar injects into every
 * request that reaches an agent pod, after validating the RS256 execution
 * token: who is calling (`X-NovaOS-*` headers) and the token itself, for
 * the pod's own outbound calls. Outside the proxy (local development, tests)
 * the token falls back to `NOVAOS_EXECUTION_TOKEN`.
 */
import { type HeadersLike, headerValue } from "../a2a/headers.js";
import { MissingExecutionTokenError } from "../errors/novaos-errors.js";
import { type Env, processEnv } from "./process-env.js";

/** The pod-ingress headers, by field. */
export const NOVAOS_CONTEXT_HEADERS = {
  userId: "X-NovaOS-User-Id",
  tenantId: "X-NovaOS-Tenant-Id",
  runId: "X-NovaOS-Run-Id",
  agentId: "X-NovaOS-Agent-Id",
  instanceId: "X-NovaOS-Instance-Id",
  executionToken: "X-NovaOS-Execution-Token",
} as const;

export const EXECUTION_TOKEN_ENV = "NOVAOS_EXECUTION_TOKEN";

export type ExecutionContextFields = { -readonly [K in keyof typeof NOVAOS_CONTEXT_HEADERS]?: string | undefined };

export class ExecutionContext {
  readonly userId: string | undefined;
  readonly tenantId: string | undefined;
  readonly runId: string | undefined;
  readonly agentId: string | undefined;
  readonly instanceId: string | undefined;
  readonly #executionToken: string | undefined;

  constructor(fields: ExecutionContextFields = {}) {
    this.userId = fields.userId;
    this.tenantId = fields.tenantId;
    this.runId = fields.runId;
    this.agentId = fields.agentId;
    this.instanceId = fields.instanceId;
    this.#executionToken = fields.executionToken;
  }

  /** Reads the six headers (case-insensitively); the token falls back to the environment. */
  static fromHeaders(headers: HeadersLike | null | undefined, env: Env = processEnv()): ExecutionContext {
    const read = (name: string) => headerValue(headers, name)?.trim() || undefined;
    return new ExecutionContext({
      userId: read(NOVAOS_CONTEXT_HEADERS.userId),
      tenantId: read(NOVAOS_CONTEXT_HEADERS.tenantId),
      runId: read(NOVAOS_CONTEXT_HEADERS.runId),
      agentId: read(NOVAOS_CONTEXT_HEADERS.agentId),
      instanceId: read(NOVAOS_CONTEXT_HEADERS.instanceId),
      executionToken: read(NOVAOS_CONTEXT_HEADERS.executionToken) ?? (env[EXECUTION_TOKEN_ENV] || undefined),
    });
  }

  /** The original bearer token, for authenticated outbound calls. Not enumerable, never logged. */
  get executionToken(): string | undefined {
    return this.#executionToken;
  }

  /** The token, or `MissingExecutionTokenError` naming how to provide one. */
  requireToken(): string {
    if (!this.#executionToken) throw new MissingExecutionTokenError();
    return this.#executionToken;
  }

  /** `{ Authorization: "Bearer <token>" }`, or `{}` without a token. */
  toAuthHeaders(): Record<string, string> {
    return this.#executionToken ? { Authorization: `Bearer ${this.#executionToken}` } : {};
  }

  /** Every `X-NovaOS-*` header with a value (the token included), to forward the context downstream. */
  toContextHeaders(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, header] of Object.entries(NOVAOS_CONTEXT_HEADERS) as [keyof ExecutionContextFields, string][]) {
      const value = field === "executionToken" ? this.#executionToken : this[field];
      if (value) out[header] = value;
    }
    return out;
  }

  /** What `JSON.stringify` and `util.inspect` show: the ids, never the token. */
  toJSON(): Record<string, string | undefined> {
    return {
      userId: this.userId,
      tenantId: this.tenantId,
      runId: this.runId,
      agentId: this.agentId,
      instanceId: this.instanceId,
    };
  }
}
