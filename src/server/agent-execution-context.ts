/**
 * What a skill receives besides its input text: who is calling and why (the
 * NovaOS platform context and the pod headers), the A2A request itself, its
 * task, cancellation, logging, secrets, the platform tools (`ctx.tools`) and
 * the extensions in force.
 *
 * Identity fields prefer the authenticated caller (`identity`: the verified
 * execution token's claims, or the pod headers the auth-proxy set) over the
 * platform context in the message metadata (set by the caller); `runId`
 * prefers the platform context, which is what the platform puts on the
 * request.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { Message, Task } from "../../gen/a2a_pb.js";
import type { ExtensionActivation } from "../a2a/extensions.js";
import type { HeadersLike } from "../a2a/headers.js";
import { headerValue } from "../a2a/headers.js";
import { SecretNotDeliveredError } from "../errors/novaos-errors.js";
import { customHeaders } from "../http/custom-headers.js";
import type { MemoryClientOptions } from "../memory/memory-client.js";
import { MemoryNamespace } from "../memory/memory-namespace.js";
import type { PlatformContext } from "../messages/platform-context.js";
import type { ToolEvent } from "../messages/tool-event.js";
import { EXECUTION_TOKEN_ENV, ExecutionContext } from "../runtime/execution-context.js";
import { getAgentLogger, type Logger } from "../runtime/logger.js";
import { processEnv } from "../runtime/process-env.js";
import { raceSignal } from "../runtime/race-signal.js";
import { type SchemaViolation, validateAgainstSchema } from "../runtime/schema-validation.js";
import type { ToolBindings } from "../tools/tool-bindings.js";
import type { CallerIdentity } from "./auth/caller-identity.js";
import type { SecretCallInfo, SecretSource } from "./secret-source.js";
import type { TaskUpdater } from "./task-updater.js";

/** One earlier turn of the conversation, as the platform sent it. */
export interface ConversationTurn {
  /** `user` or `assistant` in practice; verbatim. */
  readonly role: string;
  /** Plain text; empty for an attachment-only turn, never undefined. */
  readonly content: string;
}

/**
 * Options of the Memory Service clients `ctx.memory` makes (and of the
 * runtime's pre-fetch): where the service is, a fetch, the resilience policy.
 * The token, trace and skill context are the run's.
 */
export type SkillMemoryOptions = Omit<MemoryClientOptions, "auth" | "context" | "traceparent">;

/** Builds the tools a skill reaches through `ctx.tools`, once per execution, on first use. */
export type ToolsFactory<TTools> = (ctx: AgentExecutionContext<unknown>) => TTools;

/** Where a run's tool events go: the harness's execution of the run (not exported by any entry). */
export interface ToolEventChannel {
  emitToolEvent(event: ToolEvent): void;
  readonly bufferedToolEvents: readonly ToolEvent[];
}

/**
 * The harness's execution of the run, as its context sees it: the task
 * updater (made on first use), the preemption (`cancelled` is set once it is
 * preempted; `signal` is made on demand) and where tool events go.
 */
export interface ExecutionHandle extends ToolEventChannel {
  readonly updater: TaskUpdater;
  readonly signal: AbortSignal;
  readonly cancelled: Error | undefined;
}

/** @internal What the harness knows when it builds a context. */
export interface AgentExecutionContextInit<TTools> {
  readonly agentName: string;
  readonly message: Message;
  readonly task: Task;
  readonly requestMetadata: JsonObject | undefined;
  readonly headers: HeadersLike;
  readonly identity: CallerIdentity;
  readonly taskId: string;
  readonly contextId: string;
  readonly extensions: ExtensionActivation;
  readonly execution: ExecutionHandle;
  readonly platform: PlatformContext | undefined;
  readonly acceptedOutputModes: readonly string[];
  readonly referencedTasks: readonly Task[];
  readonly unresolvedReferenceTaskIds: readonly string[];
  readonly logger: Logger;
  readonly secrets: SecretSource | undefined;
  readonly tools: ToolsFactory<TTools>;
  readonly memory?: SkillMemoryOptions | undefined;
}

export class AgentExecutionContext<TTools = ToolBindings> {
  readonly #init: AgentExecutionContextInit<TTools>;
  #logger: Logger | undefined;
  #tools: { value: TTools } | undefined;
  #memory: MemoryNamespace | undefined;
  #customHeaders: Record<string, string> | undefined;
  #pod: ExecutionContext | undefined;

  /** @internal Built by the harness. */
  constructor(init: AgentExecutionContextInit<TTools>) {
    this.#init = init;
  }

  /** The A2A task this execution writes. Seeded from `runId` for a new task when the caller gave none. */
  get taskId(): string {
    return this.#init.taskId;
  }

  /** The A2A contextId grouping related tasks (the platform's `session_id`). */
  get contextId(): string {
    return this.#init.contextId;
  }

  /** The NovaOS run this execution belongs to; "" when unknown. Do not dedupe on it (HITL continuations reuse it). */
  get runId(): string {
    return this.#init.platform?.runId || this.executionContext.runId || "";
  }

  /** Stable across retries of one logical execution: dedupe side effects on this. "" when none was sent. */
  get idempotencyKey(): string {
    return this.#init.platform?.idempotencyKey ?? "";
  }

  get tenantId(): string {
    return this.executionContext.tenantId || this.#init.platform?.tenantId || "";
  }

  get userId(): string {
    return this.executionContext.userId || this.#init.platform?.userId || "";
  }

  get agentId(): string {
    return this.executionContext.agentId || this.#init.platform?.agentId || "";
  }

  get instanceId(): string {
    return this.executionContext.instanceId || this.#init.platform?.instanceId || "";
  }

  get threadId(): string {
    return this.#init.platform?.threadId ?? "";
  }

  /** The full inbound W3C `traceparent`, or "". */
  get traceparent(): string {
    return headerValue(this.#init.headers, "traceparent")?.trim() || this.#init.platform?.traceparent || "";
  }

  /** The 32-hex trace id from `traceparent`, else the platform's `trace_id`, else "". */
  get traceId(): string {
    const fromHeader = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}/.exec(this.traceparent)?.[1];
    return fromHeader ?? this.#init.platform?.traceId ?? "";
  }

  /** Agent-level configuration from the caller. */
  get config(): JsonObject {
    return this.#init.platform?.config ?? {};
  }

  /** A JSON Schema the caller wants the output to follow, if any. */
  get outputSchema(): JsonObject | undefined {
    return this.#init.platform?.outputSchema;
  }

  /**
   * The ways `value` breaks `outputSchema` (`validateAgainstSchema`: never
   * throws, nothing fetched); empty when it conforms or no schema was asked for.
   */
  validateOutput(value: unknown): SchemaViolation[] {
    const schema = this.outputSchema;
    return schema === undefined ? [] : validateAgainstSchema(schema, value);
  }

  /** Earlier turns, oldest first; empty means none were supplied, not that this is the first turn. */
  get history(): readonly ConversationTurn[] {
    return (this.#init.platform?.history ?? []).map((t) => ({ role: t.role, content: t.content }));
  }

  /**
   * Whether the platform gates this run's MCP writes behind
   * write-confirmation pauses (its token carries a write-capable `mcp:*`
   * scope). A run-level hint set when the token was minted, not a per-tool
   * answer; false when the platform said nothing.
   */
  get mcpWriteHitlActive(): boolean {
    return this.#init.platform?.mcpWriteHitlActive ?? false;
  }

  /**
   * The memory budgets (by kind, e.g. tokens) the platform attached for a
   * memory pre-fetch, or undefined when it attached none: the agent does not
   * declare the memory capability. An empty map counts as none.
   */
  get memoryBudget(): Readonly<Record<string, number>> | undefined {
    const budget = this.#init.platform?.memoryBudget;
    return budget && Object.keys(budget).length > 0 ? { ...budget } : undefined;
  }

  /** The raw platform context, when the request carried one. */
  get platformContext(): PlatformContext | undefined {
    return this.#init.platform;
  }

  /**
   * Who is calling, as the agent's authentication decided (see
   * `AgentBuilder({ auth })`): the principal its tasks belong to, its tenant
   * and user, and the credential that was verified.
   */
  get identity(): CallerIdentity {
    return this.#init.identity;
  }

  /**
   * The caller as the pod context the platform clients and tools take: the
   * ids of `identity`, and its verified execution token for calls made on
   * the caller's behalf (`NOVAOS_EXECUTION_TOKEN` when the caller presented
   * none, as in local development).
   */
  get executionContext(): ExecutionContext {
    if (!this.#pod) {
      const caller = this.#init.identity;
      this.#pod = new ExecutionContext({
        userId: caller.userId || undefined,
        tenantId: caller.tenantId || undefined,
        runId: caller.runId || undefined,
        agentId: caller.agentId || undefined,
        instanceId: caller.instanceId || undefined,
        executionToken: caller.token ?? (processEnv()[EXECUTION_TOKEN_ENV] || undefined),
      });
    }
    return this.#pod;
  }

  /** The inbound A2A message (all its parts, not only the text). */
  get message(): Message {
    return this.#init.message;
  }

  /**
   * The task as it stood when this execution started: a follow-up on a paused
   * task reads the earlier turns here (its history ends with this message).
   */
  get task(): Task {
    return this.#init.task;
  }

  /** The request's `metadata` map. */
  get requestMetadata(): JsonObject | undefined {
    return this.#init.requestMetadata;
  }

  /** Media types the caller accepts for the output (empty: no preference). */
  get acceptedOutputModes(): readonly string[] {
    return this.#init.acceptedOutputModes;
  }

  /** The message's `referenceTaskIds` that resolved to tasks of the same context. */
  get referencedTasks(): readonly Task[] {
    return this.#init.referencedTasks;
  }

  /** The `referenceTaskIds` that did not resolve (unknown, evicted, or another context). */
  get unresolvedReferenceTaskIds(): readonly string[] {
    return this.#init.unresolvedReferenceTaskIds;
  }

  /** The A2A extensions in force for this request. */
  get extensions(): ExtensionActivation {
    return this.#init.extensions;
  }

  /** The caller's custom headers, lower-cased, platform-owned ones removed. May carry credentials: do not log. */
  get customHeaders(): Record<string, string> {
    this.#customHeaders ??= customHeaders(this.#init.headers);
    return { ...this.#customHeaders };
  }

  /** Report progress, publish artifacts, pause, or close the task. */
  get taskUpdater(): TaskUpdater {
    return this.#init.execution.updater;
  }

  /** Aborts (with a `CancelledError`) when CancelTask or a newer message preempts this execution. */
  get signal(): AbortSignal {
    return this.#init.execution.signal;
  }

  get isCancelled(): boolean {
    return this.#init.execution.cancelled !== undefined;
  }

  /** Throws the `CancelledError` once preempted: poll it in loops that do not await. */
  throwIfCancelled(): void {
    const cancelled = this.#init.execution.cancelled;
    if (cancelled) throw cancelled;
  }

  /** JSON lines bound to this execution's `run_id`, `agent_id`, `tenant_id` and task. */
  get logger(): Logger {
    this.#logger ??= getAgentLogger(
      {
        runId: this.runId,
        agentId: this.agentId || this.#init.agentName,
        tenantId: this.tenantId,
        taskId: this.taskId,
        contextId: this.contextId,
      },
      this.#init.logger,
    );
    return this.#logger;
  }

  /**
   * The Memory Service for this run: `context`, the bundle the runtime
   * pre-fetched before the skill ran (when `memoryBudget` is set), and
   * `client()`, a `MemoryClient` bound to the run's token, trace and context.
   * The same namespace on every read.
   */
  get memory(): MemoryNamespace {
    // The run's token is the execution context's: the caller's verified token, else NOVAOS_EXECUTION_TOKEN.
    this.#memory ??= new MemoryNamespace(this.executionContext, {
      ...this.#init.memory,
      context: this,
      traceparent: () => this.traceparent,
    });
    return this.#memory;
  }

  /**
   * The platform tools of this run, built on first use: by default
   * `ToolBindings` over `MCP_GATEWAY_URL` with this run's token, tenant,
   * trace and custom headers (calls throw `ToolsNotConfiguredError` naming
   * the variable when it is unset); else what the AgentBuilder's `tools`
   * factory builds.
   */
  get tools(): TTools {
    this.#tools ??= { value: this.#init.tools(this as AgentExecutionContext<unknown>) };
    return this.#tools.value;
  }

  /**
   * Puts a tool event on this run's way to the caller: live on the stream of
   * a SendStreamingMessage, else into the final message (`bufferedEvents`).
   * The platform tools emit theirs; a tool of your own may too.
   */
  emitToolEvent(event: ToolEvent): void {
    this.#init.execution.emitToolEvent(event);
  }

  /** The tool events kept for the final message of a non-streaming request; always empty on a streaming one. */
  get bufferedEvents(): readonly ToolEvent[] {
    return [...this.#init.execution.bufferedToolEvents];
  }

  /**
   * A secret delivered with this request, opened on every call (nothing is
   * cached). The default covers a secret that was not delivered, never one
   * that failed to open: that always throws. Without a default a missing
   * secret throws `SecretNotDeliveredError` listing the names that were
   * delivered.
   */
  /**
   * The name of every secret delivered with this request, sorted; empty when
   * none were. Safe to log (names travel in the clear): it tells "this
   * instance declares no such secret" from "delivery is not working".
   */
  get secretNames(): readonly string[] {
    const source = this.#init.secrets;
    return source ? [...source.deliveredNames(this.#secretCall())].sort() : [];
  }

  getSecret(name: string): Promise<string>;
  getSecret<D>(name: string, options: { default: D }): Promise<string | D>;
  async getSecret<D>(name: string, options?: { default: D }): Promise<string | D> {
    this.throwIfCancelled();
    const source = this.#init.secrets;
    const call = this.#secretCall();
    const value = source ? await raceSignal(source.getSecret(name, call), this.signal) : undefined;
    if (value !== undefined) return value;
    if (options && Object.hasOwn(options, "default")) return options.default;
    const delivered = this.secretNames;
    throw new SecretNotDeliveredError(
      `Secret '${name}' was not delivered with this request` +
        (delivered.length > 0 ? ` (delivered: ${delivered.join(", ")})` : " (no secrets were delivered)"),
      { details: { name, delivered } },
    );
  }

  #secretCall(): SecretCallInfo {
    return {
      activation: this.#init.extensions,
      tenantId: this.tenantId,
      instanceId: this.instanceId,
      runId: this.runId,
    };
  }
}
