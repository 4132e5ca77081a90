/**
 * Who is calling, as the agent's authentication decided it. Every call gets
 * one before any method runs; tasks and push configs record its `principal`
 * as their owner, the task partition follows its `tenantId`, and skills read
 * it as `ctx.identity`.
 *
 * The credential the caller presented (an execution token) stays on the
 * identity for the agent's own outbound calls, but never prints:
 * `JSON.stringify`, `util.inspect` and the logger see the ids only.
 */

/** What an authenticator returns about a caller it accepted. */
export interface CallerIdentityInit {
  /**
   * Who the caller is, unique within the agent: what its tasks record as
   * their owner. Default: the tenant and the user together (`userId` is then
   * required).
   */
  readonly principal?: string;
  /** The NovaOS tenant (or your own tenancy): the caller's tasks live in this tenant's partition. */
  readonly tenantId?: string;
  readonly userId?: string;
  readonly runId?: string;
  readonly agentId?: string;
  readonly instanceId?: string;
  /** What the caller may do, as its credential says (token `scopes`, OAuth scopes). */
  readonly scopes?: readonly string[];
  /** The verified claims of a token, for authorization rules of your own. */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** The verified credential, for calls the agent makes on the caller's behalf. Never printed. */
  readonly token?: string;
}

/** The principal of a tenant's user: length-prefixed, so no (tenant, user) pair can spell another's. */
export function tenantUserPrincipal(tenantId: string, userId: string): string {
  return `${tenantId.length}:${tenantId}${userId}`;
}

const NO_SCOPES: readonly string[] = Object.freeze([]);
const NO_CLAIMS: Readonly<Record<string, unknown>> = Object.freeze({});

export class CallerIdentity {
  /** The auth mode that authenticated the caller (`executionToken`, `bearer`, …); "" when nothing was checked. */
  readonly mode: string;
  readonly principal: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly runId: string;
  readonly agentId: string;
  readonly instanceId: string;
  readonly scopes: readonly string[];
  readonly claims: Readonly<Record<string, unknown>>;
  readonly #token: string | undefined;

  /** Throws `TypeError` for an authenticated identity that names nobody (no principal and no user). */
  constructor(mode: string, init: CallerIdentityInit) {
    const principal = init.principal ?? (init.userId ? tenantUserPrincipal(init.tenantId ?? "", init.userId) : "");
    if (mode !== "" && principal === "") {
      throw new TypeError("An authenticated caller needs a principal or a userId: it would own every caller's tasks");
    }
    this.mode = mode;
    this.principal = principal;
    this.tenantId = init.tenantId ?? "";
    this.userId = init.userId ?? "";
    this.runId = init.runId ?? "";
    this.agentId = init.agentId ?? "";
    this.instanceId = init.instanceId ?? "";
    this.scopes = init.scopes ? Object.freeze([...init.scopes]) : NO_SCOPES;
    this.claims = init.claims ? Object.freeze({ ...init.claims }) : NO_CLAIMS;
    this.#token = init.token || undefined;
    Object.freeze(this);
  }

  /** True for a caller nobody vouched for and who names no user (an agent without authentication). */
  get anonymous(): boolean {
    return this.principal === "";
  }

  /** The credential that was verified (the execution token), for outbound calls. Not enumerable, never logged. */
  get token(): string | undefined {
    return this.#token;
  }

  /** What `JSON.stringify` and the logger show: everything but the token. */
  toJSON(): Record<string, unknown> {
    return {
      mode: this.mode,
      principal: this.principal,
      tenantId: this.tenantId,
      userId: this.userId,
      runId: this.runId,
      agentId: this.agentId,
      instanceId: this.instanceId,
      scopes: this.scopes,
    };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `CallerIdentity ${JSON.stringify(this.toJSON())}`;
  }
}

/** The one caller of an agent that authenticates nobody: every such call shares it. */
export const ANONYMOUS_CALLER: CallerIdentity = new CallerIdentity("", {});
