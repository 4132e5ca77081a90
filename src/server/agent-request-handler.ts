/**
 * The agent's A2A service, independent of any binding: the task lifecycle
 * over a task store, skill dispatch through the execution harness, stream
 * fan-out, push-notification configs and the extended card. Every binding
 * (JSON-RPC, HTTP+JSON, gRPC) serves this one object, so behaviour is the
 * same on all of them (spec §5.1).
 *
 * Every call is authenticated first (`authenticate`, which every binding
 * calls before it reads the request); then every method checks, in this
 * order: the A2A version (-32009), then the extensions the agent requires
 * (-32008); then its own rules. A caller reaches its own tasks only, unless
 * the agent's `authorize` hook widens that (auth/authorize.ts).
 */
import { create, type JsonObject } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import {
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetExtendedAgentCardRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  ListTaskPushNotificationConfigsResponseSchema,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  MessageSchema,
  Role,
  type SendMessageRequest,
  type SendMessageResponse,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
  TaskPushNotificationConfigSchema,
  TaskState,
} from "../../gen/a2a_pb.js";
import type { A2AMethodName } from "../a2a/bindings.js";
import {
  ContentTypeNotSupportedError,
  ExtendedAgentCardNotConfiguredError,
  ExtensionSupportRequiredError,
  PermissionDeniedError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnauthenticatedError,
  UnsupportedOperationError,
} from "../a2a/errors.js";
import { ExtensionActivation, type ExtensionRegistry } from "../a2a/extensions.js";
import { A2A_EXTENSIONS_HEADER } from "../a2a/extensions-header.js";
import { headerValue } from "../a2a/headers.js";
import { partViolations } from "../a2a/parts.js";
import { invalidParams } from "../a2a/protojson.js";
import { isTerminalFrame } from "../a2a/stream-frame.js";
import { isTerminalState } from "../a2a/task-state.js";
import { messageText } from "../a2a/text.js";
import { checkRequestVersion } from "../a2a/version.js";
import { readPlatformContext } from "../messages/platform-context.js";
import type { Logger } from "../runtime/logger.js";
import { AgentExecutionContext, type SkillMemoryOptions, type ToolsFactory } from "./agent-execution-context.js";
import { type Authenticator, challengeOf } from "./auth/authenticator.js";
import type { AuthorizeHook } from "./auth/authorize.js";
import type { CallerIdentity } from "./auth/caller-identity.js";
import type { ServerCallContext } from "./call-context.js";
import { CancelledError } from "./cancellation.js";
import type { Subscription } from "./event-queue.js";
import { Execution, type OutputMasker } from "./execution.js";
import { type BatchedFrames, batchedFrames } from "./frame-batches.js";
import { listTasks } from "./list-tasks.js";
import { LiveTask, LiveTasks, snapshotTask } from "./live-task.js";
import { anyMediaTypeMatches } from "./media-types.js";
import { newTask, sendMessageResponse, streamResponse } from "./message-literals.js";
import { platformToolsFactory } from "./platform-tools.js";
import type { PushNotificationSender } from "./push/push-notification-sender.js";
import { checkWebhookUrl, readableConfig } from "./push/webhook-config.js";
import type { PushNotificationConfigStore } from "./push-config-store.js";
import { randomUuid } from "./random-uuid.js";
import type { A2ARequestHandler } from "./request-handler.js";
import { checkId, checkIds } from "./request-ids.js";
import type { SecretSource } from "./secret-source.js";
import { type RegisteredSkill, routeSkill, SKILL_ID_METADATA_KEY } from "./skills.js";
import { TaskVersionConflictError } from "./store-errors.js";
import type { TaskCoordinator } from "./task-coordinator.js";
import type { StoredTask, TaskStore } from "./task-store.js";
import { textPart } from "./task-updater.js";
import { checkHistoryLength, taskView } from "./task-view.js";
import { callerTraceContext } from "./trace-context.js";

/** Provides the extended agent card per call; undefined means "declared but not configured" (-32007). */
export type ExtendedAgentCardProvider = (
  context: ServerCallContext,
) => AgentCard | undefined | Promise<AgentCard | undefined>;

export interface AgentRequestHandlerOptions {
  readonly agentName: string;
  /** Read on every request, so skills registered later are served. */
  readonly skills: ReadonlyMap<string, RegisteredSkill>;
  readonly extensions: ExtensionRegistry;
  readonly taskStore: TaskStore;
  /** Where push configs are recorded; only when push notifications are served (else the four methods are -32003). */
  readonly pushNotificationStore: PushNotificationConfigStore | undefined;
  /** Delivers every update of a task with push configs (none: the platform delivers them). */
  readonly pushNotificationSender: PushNotificationSender | undefined;
  readonly defaultOutputModes: readonly string[];
  readonly secrets: SecretSource | undefined;
  /** Builds `ctx.tools`; default: the platform tools of `MCP_GATEWAY_URL` (platform-tools.ts). */
  readonly tools: ToolsFactory<unknown> | undefined;
  /** Options of the Memory Service clients of `ctx.memory` and of the memory pre-fetch. */
  readonly memory?: SkillMemoryOptions | undefined;
  readonly logger: Logger;
  readonly masker: OutputMasker | undefined;
  readonly extendedAgentCard: ExtendedAgentCardProvider | undefined;
  /** Whether SendStreamingMessage and SubscribeToTask are served (else -32004, spec §3.3.4). */
  readonly streaming: boolean;
  /** Who is calling: every call is authenticated by it before anything else. */
  readonly authenticator: Authenticator;
  /** Widens who may act on a task (auth/authorize.ts); without it, callers reach their own tasks only. */
  readonly authorize: AuthorizeHook | undefined;
  /** Each task's history budget in estimated bytes (default 4 MiB, `live-task.ts`). */
  readonly maxHistoryBytes?: number | undefined;
  /** Estimated bytes one stream may fall behind its task before it is ended. Default `STREAM_BACKLOG_BYTES`. */
  readonly streamBacklogBytes?: number;
  /** What the replicas of a fleet share about running tasks (task-coordinator.ts); none in one process. */
  readonly coordinator?: TaskCoordinator | undefined;
}

/** How often CancelTask reads a task again after another replica wrote it meanwhile, before it gives up. */
const CANCEL_ATTEMPTS = 5;

/** The default and maximum page size of ListTaskPushNotificationConfigs. */
export const DEFAULT_PUSH_CONFIG_PAGE_SIZE = 100;

type Accepted =
  | { readonly kind: "answered"; readonly task: Task }
  | { readonly kind: "started"; readonly execution: Execution; readonly snapshot: Task | undefined };

const NO_REFERENCES: { resolved: Task[]; unresolved: string[] } = Object.freeze({
  resolved: Object.freeze([]) as unknown as Task[],
  unresolved: Object.freeze([]) as unknown as string[],
});

/**
 * Waits until what a blocking SendMessage answers is stored; a store failure
 * fails the call. A conflict means another replica wrote the task (a cancel,
 * a supersede, an expired lease): the coordinator settles that, and the
 * answer is the task as this run left it.
 */
async function storedForAnswer(live: LiveTask): Promise<void> {
  try {
    await live.stored();
  } catch (error) {
    if (!(error instanceof TaskVersionConflictError)) throw error;
  }
}

function taskNotFound(taskId: string): TaskNotFoundError {
  return new TaskNotFoundError(`Task ${taskId} not found`, { metadata: { taskId } });
}

function stateName(state: TaskState | undefined): string {
  return `TASK_STATE_${TaskState[state ?? TaskState.UNSPECIFIED]}`;
}

export class AgentRequestHandler implements A2ARequestHandler {
  /** The tasks with something happening to them right now. */
  readonly liveTasks: LiveTasks;
  readonly #options: AgentRequestHandlerOptions;
  readonly #tools: ToolsFactory<unknown>;
  #noExtensions: ExtensionActivation | undefined;

  constructor(options: AgentRequestHandlerOptions) {
    this.#options = options;
    const { pushNotificationSender: sender, pushNotificationStore: store } = options;
    this.liveTasks = new LiveTasks(
      { maxHistoryBytes: options.maxHistoryBytes, maxBacklogBytes: options.streamBacklogBytes },
      // Every update of a live task goes to the sender, which delivers it to the task's webhooks, if any.
      sender && store ? (live, frame) => sender.enqueue(store, live.scope, live.task.id, frame) : undefined,
      options.coordinator,
    );
    this.#tools = options.tools ?? platformToolsFactory();
  }

  /**
   * Resolves once every running skill has finished and its outcome is stored,
   * e.g. for a graceful shutdown after the server stopped accepting requests.
   */
  whenIdle(): Promise<void> {
    return this.liveTasks.whenIdle();
  }

  // ------------------------------------------------------------ callers

  /**
   * The caller of a call, decided before its request is read: every binding
   * calls this first (serve-rpc.ts), and a method called in process without
   * an identity on its context calls it itself. A refusal is logged (spec
   * §13.2) and a 401 carries its `WWW-Authenticate` challenge.
   */
  authenticate(context: ServerCallContext): CallerIdentity | Promise<CallerIdentity> {
    try {
      const caller = this.#options.authenticator.authenticate(context);
      return caller instanceof Promise ? caller.catch((error: unknown) => this.#refused(error, context)) : caller;
    } catch (error) {
      return this.#refused(error, context);
    }
  }

  #refused(error: unknown, context: ServerCallContext): never {
    if (error instanceof UnauthenticatedError || error instanceof PermissionDeniedError) {
      const challenge = challengeOf(error) ?? this.#options.authenticator.challenge;
      if (error instanceof UnauthenticatedError && challenge)
        context.responseHeaders.set("www-authenticate", challenge);
      this.#options.logger.warn({ binding: context.binding, reason: error.message }, "call refused");
    }
    throw error;
  }

  /**
   * Whether the `authorize` hook lets `caller` act on another owner's task
   * (or, without a task, list them all). Asked only after the owner check
   * says no, so a caller's own task costs no await.
   */
  async #widened(caller: CallerIdentity, action: A2AMethodName, task: StoredTask | undefined): Promise<boolean> {
    const authorize = this.#options.authorize;
    return authorize !== undefined && (await authorize(caller, action, task)) === true;
  }

  /**
   * For a shutdown whose drain ran out: fails every task a skill is still
   * running on. FAILED is written first ("The agent shut down before the
   * skill finished"), then the skill is preempted with that reason, as
   * CancelTask does (harness rule 1), so nothing the skill does afterwards
   * changes the task. Blocking calls answer the FAILED task and streams end
   * on it. Resolves once the writes are stored.
   */
  async stopRunning(): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const live of [...this.liveTasks.executing()]) {
      const note = create(MessageSchema, {
        messageId: randomUuid(),
        role: Role.AGENT,
        taskId: live.task.id,
        contextId: live.task.contextId,
        parts: [textPart(new CancelledError("shutdown").message)],
      });
      const written = live.writeStatus(TaskState.FAILED, note);
      live.execution?.preempt("shutdown");
      const taskId = live.task.id;
      writes.push(
        (written ?? Promise.resolve()).catch((error: unknown) =>
          this.#options.logger.error({ err: error, task_id: taskId }, "task store save failed"),
        ),
      );
    }
    await Promise.all(writes);
  }

  // ---------------------------------------------------------------- messages

  async sendMessage(request: SendMessageRequest, context: ServerCallContext): Promise<SendMessageResponse> {
    const accepted = await this.#accept(request, context);
    const historyLength = request.configuration?.historyLength;
    if (accepted.kind === "started") {
      const { execution } = accepted;
      // A caller that hangs up meanwhile changes nothing: the wait ends with the run at the latest.
      if (!request.configuration?.returnImmediately) {
        await execution.settled;
        // A store that saves asynchronously (fleet mode): the answer waits until the state it reports is stored.
        if (!this.#options.taskStore.savesSynchronously) await storedForAnswer(execution.live);
      }
    }
    const reply = accepted.kind === "started" ? accepted.execution.directReply : undefined;
    if (reply) return sendMessageResponse({ case: "message", value: reply });
    const task = accepted.kind === "started" ? accepted.execution.live.snapshot() : accepted.task;
    return sendMessageResponse({ case: "task", value: taskView(task, { historyLength }) });
  }

  sendStreamingMessage(request: SendMessageRequest, context: ServerCallContext): BatchedFrames<StreamResponse> {
    return batchedFrames(() => this.#sendStreaming(request, context));
  }

  async *#sendStreaming(request: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse[]> {
    const accepted = await this.#accept(request, context, "SendStreamingMessage");
    if (accepted.kind === "answered") {
      yield [streamResponse({ case: "task", value: accepted.task })];
      return;
    }
    const { execution } = accepted;
    const events = execution.requestEvents as Subscription<StreamResponse>;
    // A deferred task: the first frame waits until the task is made, or is the direct Message that replaces it.
    const committed = execution.live.committed;
    if (committed) await Promise.race([committed, execution.settled]);
    if (execution.directReply) {
      events.cancel();
      yield [streamResponse({ case: "message", value: execution.directReply })];
      return;
    }
    const snapshot = committed ? await committed : (accepted.snapshot as Task);
    const historyLength = request.configuration?.historyLength;
    yield* taskBatches(taskView(snapshot, { historyLength }), events, context.signal);
  }

  /**
   * Validates a SendMessage, resolves or creates its task, supersedes a live
   * execution on it, and either answers at once (an unroutable skill: a
   * REJECTED task) or starts the skill. Every check that can fail runs
   * before anything is written.
   */
  async #accept(
    request: SendMessageRequest,
    context: ServerCallContext,
    action: "SendMessage" | "SendStreamingMessage" = "SendMessage",
  ): Promise<Accepted> {
    const caller = context.identity ?? (await this.authenticate(context));
    const message = request.message;
    if (!message) throw invalidParams([{ field: "message", description: "message is required" }]);
    const activation = this.#negotiate(context, request.metadata, message.metadata);
    const streaming = action === "SendStreamingMessage";
    if (streaming) this.#checkStreaming();
    const emptyParts = partViolations(message.parts, "message.parts");
    if (emptyParts.length > 0) throw invalidParams(emptyParts);
    checkHistoryLength(request.configuration?.historyLength, "configuration.historyLength");
    checkId(message.taskId, "message.taskId");
    checkId(message.contextId, "message.contextId");
    checkIds(message.referenceTaskIds, "message.referenceTaskIds");
    const { taskStore, pushNotificationStore } = this.#options;
    const scope = scopeOf(request.tenant, caller);
    const owner = caller.principal;
    const platform = readPlatformContext(message.metadata, request.metadata);

    const named = message.taskId || platform?.runId || caller.runId;
    const taskId = named || randomUuid();
    // A fresh id names no task: only a given or run-seeded id is looked up.
    const existing = named ? await this.#find(taskId, scope) : undefined;
    // A task the caller may not reach is not its to continue, and its id is taken: not found, as an unknown id.
    const foreign = existing !== undefined && existing.owner !== owner;
    if ((message.taskId && !existing) || (foreign && !(await this.#widened(caller, action, existing)))) {
      throw taskNotFound(taskId);
    }
    if (existing) checkAcceptsMessages(existing.task, message);
    const contextId = existing?.task.contextId || message.contextId || randomUuid();

    const pushConfig = request.configuration?.taskPushNotificationConfig;
    if (pushConfig && !pushNotificationStore) throw pushNotSupported();
    if (pushConfig) {
      checkWebhookUrl(pushConfig.url, "configuration.taskPushNotificationConfig.url");
      checkId(pushConfig.id, "configuration.taskPushNotificationConfig.id");
    }

    const route = routeSkill(this.#options.skills, message, platform, existing?.task);
    if ("skill" in route)
      this.#checkContentTypes(route.skill, message, request.configuration?.acceptedOutputModes ?? []);
    const references =
      message.referenceTaskIds.length === 0
        ? NO_REFERENCES
        : await this.#resolveReferences(message.referenceTaskIds, contextId, scope, caller, action);

    if (pushConfig && pushNotificationStore) {
      await pushNotificationStore.save(
        create(TaskPushNotificationConfigSchema, { ...pushConfig, taskId, id: pushConfig.id || randomUuid() }),
        scope,
        owner,
      );
    }

    // From here on nothing awaits until the execution is registered: no other request can interleave.
    const current = this.liveTasks.get(taskId, scope);
    // A task that went live meanwhile is reachable only as the task already reached (or the caller's own).
    if (current && current.owner !== owner && current.owner !== existing?.owner) throw taskNotFound(taskId);
    if (current) checkAcceptsMessages(current.task, message);
    const inbound: Message = { ...message, taskId, contextId };
    // A new task records the skill that owns it: follow-ups go to that skill (skills.ts).
    const owned = "skill" in route ? { [SKILL_ID_METADATA_KEY]: route.skill.card.id } : undefined;
    const live = this.liveTasks.open(existing?.task ?? newTask(taskId, contextId, owned), scope, taskStore, {
      owner: existing?.owner ?? owner,
      version: existing?.version ?? 0,
      bytes: existing?.bytes,
    });
    live.execution?.preempt("superseded");
    // A skill that may answer with a direct Message starts without a task, unless the caller needs one now.
    const needsTask = existing || current || pushConfig || request.configuration?.returnImmediately;
    if (!needsTask && "skill" in route && route.skill.directReplies) live.defer();
    live.appendHistory(inbound);

    if ("rejection" in route) {
      const reply = create(MessageSchema, {
        messageId: randomUuid(),
        role: Role.AGENT,
        taskId,
        contextId,
        parts: [textPart(route.rejection)],
      });
      await live.writeStatus(TaskState.REJECTED, reply);
      if (!live.execution) this.liveTasks.release(live);
      return { kind: "answered", task: live.snapshot() };
    }

    // A resumed task is WORKING again before its snapshot, so no reader takes the old pause for the end.
    if (existing) this.#logFailure(live.writeStatus(TaskState.WORKING), taskId);
    const execution = new Execution({
      live,
      liveTasks: this.liveTasks,
      skillId: route.skill.card.id,
      directReplies: route.skill.directReplies,
      logger: this.#options.logger,
      masker: this.#options.masker,
      stream: streaming,
      traceContext: callerTraceContext(context.headers, platform?.traceparent),
    });
    const snapshot = streaming ? live.snapshot() : undefined;
    const ctx = new AgentExecutionContext<unknown>({
      agentName: this.#options.agentName,
      message: inbound,
      task: live.snapshot(),
      requestMetadata: request.metadata,
      headers: context.headers,
      identity: caller,
      taskId,
      contextId,
      extensions: activation,
      execution,
      platform,
      acceptedOutputModes: request.configuration?.acceptedOutputModes ?? [],
      referencedTasks: references.resolved,
      unresolvedReferenceTaskIds: references.unresolved,
      logger: this.#options.logger,
      secrets: this.#options.secrets,
      tools: this.#tools,
      memory: this.#options.memory,
    });
    // Starting writes WORKING, which stores the task (unless it is deferred).
    execution.start(route.skill.handler, ctx, messageText(message));
    return { kind: "started", execution, snapshot };
  }

  /** A store failure on a write nobody awaits is logged, not left unhandled. */
  #logFailure(write: Promise<void> | undefined, taskId: string): void {
    write?.catch((error: unknown) =>
      this.#options.logger.error({ err: error, task_id: taskId }, "task store save failed"),
    );
  }

  /** -32005 when the caller accepts none of the skill's output modes, or sends a part it does not take. */
  #checkContentTypes(skill: RegisteredSkill, message: Message, acceptedOutputModes: readonly string[]): void {
    const produced = skill.card.outputModes.length > 0 ? skill.card.outputModes : this.#options.defaultOutputModes;
    if (acceptedOutputModes.length > 0 && !anyMediaTypeMatches(acceptedOutputModes, produced)) {
      throw new ContentTypeNotSupportedError(
        `Skill '${skill.card.id}' produces ${produced.join(", ")}; none of the accepted output modes (${acceptedOutputModes.join(", ")}) match`,
      );
    }
    const accepted = skill.card.inputModes;
    if (accepted.length === 0) return;
    for (const part of message.parts) {
      if (part.mediaType && !anyMediaTypeMatches([part.mediaType], accepted)) {
        throw new ContentTypeNotSupportedError(
          `Skill '${skill.card.id}' accepts ${accepted.join(", ")}; a part has media type ${part.mediaType}`,
        );
      }
    }
  }

  /** `referenceTaskIds` resolved within this scope, to tasks the caller reaches, of this context only. */
  async #resolveReferences(
    ids: readonly string[],
    contextId: string,
    scope: string,
    caller: CallerIdentity,
    action: A2AMethodName,
  ): Promise<{ resolved: Task[]; unresolved: string[] }> {
    const resolved: Task[] = [];
    const unresolved: string[] = [];
    for (const id of ids) {
      const found = await this.#find(id, scope);
      const reached = found && (found.owner === caller.principal || (await this.#widened(caller, action, found)));
      if (reached && found.task.contextId === contextId) {
        resolved.push(snapshotTask(found.task));
      } else {
        unresolved.push(id);
      }
    }
    return { resolved, unresolved };
  }

  // ------------------------------------------------------------------ tasks

  async getTask(request: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    const caller = context.identity ?? (await this.authenticate(context));
    this.#negotiate(context);
    checkHistoryLength(request.historyLength);
    checkId(request.id, "id");
    const { task } = await this.#findTask(request.id, scopeOf(request.tenant, caller), caller, "GetTask");
    return taskView(snapshotTask(task), { historyLength: request.historyLength });
  }

  /** The caller's own tasks, or every owner's of its partition when the `authorize` hook says so. */
  async listTasks(request: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const caller = context.identity ?? (await this.authenticate(context));
    this.#negotiate(context);
    checkId(request.contextId, "contextId");
    const everyOwner = this.#options.authorize !== undefined && (await this.#widened(caller, "ListTasks", undefined));
    const owner = everyOwner ? undefined : caller.principal;
    return listTasks(this.#options.taskStore, this.liveTasks, scopeOf(request.tenant, caller), owner, request);
  }

  /**
   * Writes CANCELED first, then preempts the running skill, so nothing the
   * skill does afterwards can overwrite it. Canceling a canceled task answers
   * its snapshot again (idempotent, spec §3.3.1); any other terminal state is
   * -32002.
   */
  async cancelTask(request: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const caller = context.identity ?? (await this.authenticate(context));
    this.#negotiate(context, request.metadata);
    checkId(request.id, "id");
    const scope = scopeOf(request.tenant, caller);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#cancel(request, scope, caller);
      } catch (error) {
        // Another replica wrote the task since it was read (fleet mode): read it again and decide again.
        if (!(error instanceof TaskVersionConflictError) || attempt === CANCEL_ATTEMPTS) throw error;
      }
    }
  }

  async #cancel(request: CancelTaskRequest, scope: string, caller: CallerIdentity): Promise<Task> {
    const running = this.liveTasks.get(request.id, scope);
    if (running && running.owner !== caller.principal && !(await this.#widened(caller, "CancelTask", running))) {
      throw taskNotFound(request.id);
    }
    const stored = running ? undefined : await this.#findTask(request.id, scope, caller, "CancelTask");
    const live =
      this.liveTasks.get(request.id, scope) ??
      this.liveTasks.open((stored as StoredTask).task, scope, this.#options.taskStore, {
        owner: (stored as StoredTask).owner,
        version: (stored as StoredTask).version,
        bytes: (stored as StoredTask).bytes,
      });
    const state = live.task.status?.state;
    if (state === TaskState.CANCELED) return live.snapshot();
    if (live.terminal) {
      throw new TaskNotCancelableError(`Task ${request.id} is ${stateName(state)} and cannot be canceled`, {
        metadata: { taskId: request.id, state: stateName(state) },
      });
    }
    const note = create(MessageSchema, {
      messageId: randomUuid(),
      role: Role.AGENT,
      taskId: live.task.id,
      contextId: live.task.contextId,
      parts: [textPart("Canceled at the caller's request")],
    });
    const written = live.writeStatus(TaskState.CANCELED, note);
    live.execution?.preempt("cancel-task");
    try {
      await written;
    } finally {
      // A copy opened for this cancel goes, stored or not: a conflict reads the task again.
      if (!live.execution) this.liveTasks.release(live);
    }
    return live.snapshot();
  }

  subscribeToTask(request: SubscribeToTaskRequest, context: ServerCallContext): BatchedFrames<StreamResponse> {
    return batchedFrames(() => this.#subscribe(request, context));
  }

  /**
   * The task's snapshot, then its events until it reaches a terminal state
   * (spec §3.1.6), whether a run executes on it now or not: a task paused for
   * input, or left WORKING by a skill that returned RUNNING, is held live
   * while watched, and the run a follow-up starts streams to every
   * subscription. Leaving lets the task go once nothing else holds it.
   */
  async *#subscribe(request: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse[]> {
    const caller = context.identity ?? (await this.authenticate(context));
    this.#negotiate(context);
    this.#checkStreaming();
    checkId(request.id, "id");
    const scope = scopeOf(request.tenant, caller);
    const found = await this.#findTask(request.id, scope, caller, "SubscribeToTask");
    const state = found.task.status?.state;
    if (isTerminalState(state ?? TaskState.UNSPECIFIED)) {
      throw new UnsupportedOperationError(
        `Task ${request.id} is ${stateName(state)}; a terminal task has no updates to subscribe to`,
        { metadata: { taskId: request.id } },
      );
    }
    // Fleet mode: the task may run on any replica; its stored events are the stream (a task not stored yet
    // is made here and followed here).
    const coordinator = this.#options.coordinator;
    if (coordinator && !(found instanceof LiveTask && found.pending)) {
      yield* coordinator.subscribe(request.id, scope, context.signal);
      return;
    }
    // Nothing awaits from here on: the live task, the subscription and the snapshot are one step.
    const live = this.liveTasks.open(found.task, scope, this.#options.taskStore, {
      owner: found.owner,
      version: found.version,
    });
    const events = live.events.subscribe();
    try {
      yield* taskBatches(live.snapshot(), events, context.signal);
    } finally {
      this.liveTasks.release(live);
    }
  }

  #checkStreaming(): void {
    if (!this.#options.streaming) throw new UnsupportedOperationError("This agent does not serve streaming methods");
  }

  /** The task live on this replica or else stored, whoever owns it. */
  async #find(taskId: string, scope: string): Promise<StoredTask | undefined> {
    return this.liveTasks.get(taskId, scope) ?? (await this.#options.taskStore.get(taskId, scope));
  }

  /** A task the caller reaches: -32001 for an unknown and an unreachable task alike, so ids cannot be probed. */
  async #findTask(taskId: string, scope: string, caller: CallerIdentity, action: A2AMethodName): Promise<StoredTask> {
    const found = await this.#find(taskId, scope);
    if (found && (found.owner === caller.principal || (await this.#widened(caller, action, found)))) return found;
    throw taskNotFound(taskId);
  }

  // ----------------------------------------------------- push notifications

  async createTaskPushNotificationConfig(
    request: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const caller = context.identity ?? (await this.authenticate(context));
    const store = this.#pushStore(context);
    if (!request.taskId) throw invalidParams([{ field: "taskId", description: "taskId is required" }]);
    checkId(request.taskId, "taskId");
    checkId(request.id, "id");
    checkWebhookUrl(request.url, "url");
    const scope = scopeOf(request.tenant, caller);
    await this.#findTask(request.taskId, scope, caller, "CreateTaskPushNotificationConfig");
    const config = create(TaskPushNotificationConfigSchema, { ...request, id: request.id || randomUuid() });
    await store.save(config, scope, caller.principal);
    return readableConfig(config);
  }

  async getTaskPushNotificationConfig(
    request: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const caller = context.identity ?? (await this.authenticate(context));
    const store = this.#pushStore(context);
    checkId(request.taskId, "taskId");
    checkId(request.id, "id");
    const scope = scopeOf(request.tenant, caller);
    await this.#findTask(request.taskId, scope, caller, "GetTaskPushNotificationConfig");
    const config = (await store.get(request.taskId, request.id, scope))?.config;
    if (!config) {
      throw new TaskNotFoundError(`Push notification config ${request.id} of task ${request.taskId} not found`, {
        metadata: { taskId: request.taskId, configId: request.id },
      });
    }
    return readableConfig(config);
  }

  /** Pages in config-id order; the token is the last id of the page. */
  async listTaskPushNotificationConfigs(
    request: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const caller = context.identity ?? (await this.authenticate(context));
    const store = this.#pushStore(context);
    if (!request.taskId) throw invalidParams([{ field: "taskId", description: "taskId is required" }]);
    checkId(request.taskId, "taskId");
    if (request.pageSize < 0)
      throw invalidParams([{ field: "pageSize", description: "pageSize must not be negative" }]);
    const pageSize = Math.min(request.pageSize || DEFAULT_PUSH_CONFIG_PAGE_SIZE, DEFAULT_PUSH_CONFIG_PAGE_SIZE);
    const scope = scopeOf(request.tenant, caller);
    await this.#findTask(request.taskId, scope, caller, "ListTaskPushNotificationConfigs");
    const after = request.pageToken ? decodeConfigToken(request.pageToken) : undefined;
    const page = await store.list(request.taskId, scope, { after, pageSize });
    const last = page.configs[page.configs.length - 1];
    return create(ListTaskPushNotificationConfigsResponseSchema, {
      configs: page.configs.map((stored) => readableConfig(stored.config)),
      nextPageToken: page.more && last ? encodeConfigToken(last.config.id) : "",
    });
  }

  async deleteTaskPushNotificationConfig(
    request: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<Empty> {
    const caller = context.identity ?? (await this.authenticate(context));
    const store = this.#pushStore(context);
    checkId(request.taskId, "taskId");
    checkId(request.id, "id");
    const scope = scopeOf(request.tenant, caller);
    await this.#findTask(request.taskId, scope, caller, "DeleteTaskPushNotificationConfig");
    await store.delete(request.taskId, request.id, scope);
    return create(EmptySchema);
  }

  #pushStore(context: ServerCallContext): PushNotificationConfigStore {
    this.#negotiate(context);
    const store = this.#options.pushNotificationStore;
    if (!store) throw pushNotSupported();
    return store;
  }

  // ------------------------------------------------------------------- card

  /** Behind the same authentication as every method (spec §3.1.11); the provider sees the caller on `context`. */
  async getExtendedAgentCard(_request: GetExtendedAgentCardRequest, context: ServerCallContext): Promise<AgentCard> {
    if (!context.identity) await this.authenticate(context);
    this.#negotiate(context);
    const provider = this.#options.extendedAgentCard;
    if (!provider) throw new UnsupportedOperationError("This agent does not offer an extended agent card");
    const card = await provider(context);
    if (!card) throw new ExtendedAgentCardNotConfiguredError();
    return card;
  }

  // ----------------------------------------------------------- negotiation

  /** Version first (-32009), then required extensions (-32008); names the active extensions in the reply. */
  #negotiate(context: ServerCallContext, ...metadata: (JsonObject | undefined)[]): ExtensionActivation {
    const versionError = checkRequestVersion(context.headers);
    if (versionError) throw versionError;
    const { extensions } = this.#options;
    // Nothing asked for and nothing required: every request of such an agent negotiates to the same empty result.
    if (headerValue(context.headers, A2A_EXTENSIONS_HEADER) === undefined && extensions.requiredUris.length === 0) {
      this.#noExtensions ??= new ExtensionActivation({ registry: extensions });
      return this.#noExtensions;
    }
    const activation = extensions.activate(context.headers, ...metadata);
    const unmet = activation.unmetRequirementReason();
    if (unmet) {
      throw new ExtensionSupportRequiredError(unmet, { metadata: { extensions: activation.unmetRequired.join(",") } });
    }
    const header = activation.headerValue();
    if (header !== undefined) context.responseHeaders.set(A2A_EXTENSIONS_HEADER, header);
    return activation;
  }
}

/** A terminal task takes no more messages (-32004); a message naming another context is refused (-32602). */
function checkAcceptsMessages(task: Task, message: Message): void {
  const state = task.status?.state;
  if (isTerminalState(state ?? TaskState.UNSPECIFIED)) {
    throw new UnsupportedOperationError(`Task ${task.id} is ${stateName(state)}; it accepts no further messages`, {
      metadata: { taskId: task.id },
    });
  }
  if (message.contextId && message.contextId !== task.contextId) {
    throw invalidParams([
      { field: "message.contextId", description: `Task ${task.id} belongs to context ${task.contextId}` },
    ]);
  }
}

/**
 * The partition a request's tasks live in: the A2A `tenant` of the request
 * and the tenant of the authenticated caller. Opaque to stores. A request
 * tenant no store can hold is refused here, for every method (request-ids.ts).
 */
export function scopeOf(tenant: string, caller: CallerIdentity): string {
  checkId(tenant, "tenant");
  const last = lastScope;
  if (tenant === last.tenant && caller.tenantId === last.callerTenant) return last.scope;
  const scope = `${tenant.length}:${tenant}${caller.tenantId}`;
  lastScope = { tenant, callerTenant: caller.tenantId, scope };
  return scope;
}

/**
 * The scope `scopeOf` made last: calls from one tenant get the very same
 * string, whose hash V8 keeps, instead of a new one to flatten and hash at
 * every map lookup of the live tasks and the store.
 */
let lastScope = { tenant: "", callerTenant: "", scope: "0:" };

function pushNotSupported(): PushNotificationNotSupportedError {
  return new PushNotificationNotSupportedError("This agent does not support push notifications");
}

function encodeConfigToken(id: string): string {
  return `c1.${Buffer.from(id, "utf8").toString("base64url")}`;
}

function decodeConfigToken(token: string): string {
  if (!token.startsWith("c1.")) {
    throw invalidParams([{ field: "pageToken", description: "pageToken is not a token this agent issued" }]);
  }
  return Buffer.from(token.slice(3), "base64url").toString("utf8");
}

/**
 * A task stream, in batches: the snapshot, then the task's events until a
 * terminal frame or until the subscription ends (the execution finished, was
 * superseded, or the task has nothing live any more). The caller leaving
 * (`signal`) lets go of the task at once, even while no event comes; it never
 * cancels the task.
 */
async function* taskBatches(
  snapshot: Task,
  events: Subscription<StreamResponse>,
  signal: AbortSignal,
): AsyncGenerator<StreamResponse[]> {
  const leave = () => events.cancel();
  signal.addEventListener("abort", leave, { once: true });
  try {
    if (signal.aborted) return;
    yield [streamResponse({ case: "task", value: snapshot })];
    for (let batch = await events.nextBatch(); batch; batch = await events.nextBatch()) {
      const last = batch.findIndex(isTerminalFrame);
      if (last >= 0) {
        yield batch.slice(0, last + 1);
        return;
      }
      yield batch;
    }
  } finally {
    signal.removeEventListener("abort", leave);
    events.cancel();
  }
}
