/**
 * `Client`: calls one A2A v1.0.1 agent over JSON-RPC, HTTP+JSON or gRPC.
 * The methods build the generated request messages; every call then takes
 * the same path whatever the binding — headers (service parameters, client
 * headers, credentials, call headers), `before` interceptors, the transport,
 * `after` interceptors — under one scope that owns the call's cancellation
 * and deadline. Streams end on their last frame (`isLastFrame`); a stream
 * that stops before one is a NovaOSConnectionError, never a success. A
 * subscription reads on through a pause to the terminal state (spec §3.1.6),
 * and ends cleanly where an agent closes it at the pause.
 */
import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { readTaskState, taskStateValues } from "../../gen/a2a_json_codecs.js";
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageConfiguration,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigSchema,
  TaskState,
} from "../../gen/a2a_pb.js";
import type { HitlResponse } from "../../gen/novaos/v1/hitl_pb.js";
import {
  PROTOCOL_BINDING_GRPC,
  PROTOCOL_BINDING_HTTP_JSON,
  PROTOCOL_BINDING_JSONRPC,
  type ProtocolBinding,
} from "../a2a/constants.js";
import { InvalidAgentResponseError } from "../a2a/errors.js";
import type { ExtensionRegistry } from "../a2a/extensions.js";
import { grpcDialUrl, isGrpcOnlyUrl } from "../a2a/grpc-url.js";
import { DEFAULT_MAX_BODY_BYTES } from "../a2a/jsonrpc.js";
import { isLastFrame, isTerminalFrame } from "../a2a/stream-frame.js";
import { parseTimestamp } from "../a2a/timestamps.js";
import { A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER } from "../a2a/version.js";
import {
  NovaOSAgentNotFoundError,
  NovaOSConnectionError,
  NovaOSError,
  NovaOSValidationError,
} from "../errors/novaos-errors.js";
import type { AuthProvider } from "../http/auth.js";
import { CallScope } from "../http/call-scope.js";
import { injectTraceContext } from "../http/trace-headers.js";
import { validateHostAllowed } from "../runtime/config.js";
import type { CallOptions, HeadersInput } from "./call-options.js";
import { type ClientConfig, type ResolvedClientConfig, resolveClientConfig } from "./client-config.js";
import { loadReflective } from "./codecs.js";
import { HttpJsonTransport } from "./http-json-transport.js";
import { type CallResult, type ClientCallInterceptor, createCallContext, runAfter, runBefore } from "./interceptors.js";
import { interfaceAt, selectInterface, tenantFromCard } from "./interface-selection.js";
import { JsonRpcTransport } from "./jsonrpc-transport.js";
import { addressMessage, plainMessage } from "./message-copy.js";
import type { MessageAddressing, MessageInput } from "./message-input.js";
import type {
  ClientTransport,
  ClientTransportFactory,
  MethodInput,
  MethodOutput,
  StreamingMethod,
  UnaryMethod,
} from "./transport.js";

/** The default deadline of a unary call. Streams have none unless a call sets one. */
export const DEFAULT_TIMEOUT_MS = 300_000;

export interface ClientOptions {
  /**
   * The interface URL: where the agent serves `binding`. For gRPC also
   * `grpc://host:port` or a bare `host:port` (cleartext) and `grpcs://` (TLS).
   */
  baseUrl: string;
  /** The binding spoken at `baseUrl`. Default: the card's interface at that URL, else gRPC for a gRPC-only URL, else JSON-RPC. */
  binding?: ProtocolBinding;
  /** Sent on every request. Default: the tenant the card declares for this interface. */
  tenant?: string;
  /** The agent's card: streaming capability, security requirements, tenant. */
  agentCard?: AgentCard;
  /** Credentials, read afresh on every call. */
  auth?: AuthProvider;
  interceptors?: readonly ClientCallInterceptor[];
  /** Extensions activated on every call (`A2A-Extensions`, and their data in request metadata). */
  extensions?: ExtensionRegistry;
  /** Headers sent on every call; call headers and credentials win over them. */
  headers?: HeadersInput;
  config?: ClientConfig;
  /** Deadline of a unary call in ms; `0` for none. Default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * The fetch used by JSON-RPC and HTTP+JSON. Default: the runtime's
   * `fetch`. On Node, `createNodeFetch()` from `@novaos/client-sdk/node` gives
   * the client connections of its own (closed with it, no idle timeouts).
   */
  fetch?: typeof fetch;
  /**
   * Transports beyond the built-in JSON-RPC and HTTP+JSON ones, e.g.
   * `grpcTransport()` from `@novaos/client-sdk/grpc`; one for a built-in
   * binding replaces it. Card-based selection only picks bindings it has a
   * transport for.
   */
  transports?: readonly ClientTransportFactory[];
  /** Cap on one reply body or gRPC message. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Cap on one SSE event. Default 10 MiB. */
  maxSseEventBytes?: number;
  /** Outbound-host allowlist for `baseUrl`. Default: `NOVAOS_ALLOWED_HOSTS`, if set. */
  allowedHosts?: readonly string[];
  /** Called once when the client closes: releases what the caller built for it (e.g. the dispatcher behind `fetch`). */
  onClose?: () => void | Promise<void>;
}

/** `Client.fromAgentCard` options: the card decides the URL, the binding and the default tenant. */
export type FromAgentCardOptions = Omit<ClientOptions, "baseUrl" | "binding" | "agentCard">;

export interface SendMessageOptions extends CallOptions, MessageAddressing {
  /** Request-level metadata (`params.metadata`), beside the message's own. */
  metadata?: JsonObject;
  /** Answer as soon as the task exists instead of when it is terminal or interrupted. */
  returnImmediately?: boolean;
  /** How many history messages the returned task should carry (a hint). */
  historyLength?: number;
  /** Media types this caller accepts; a non-empty list replaces the config's. */
  acceptedOutputModes?: readonly string[];
  /** A webhook for this task's updates. */
  taskPushNotificationConfig?: MessageInitShape<typeof TaskPushNotificationConfigSchema>;
}

export type SendStreamingMessageOptions = Omit<SendMessageOptions, "returnImmediately">;

export interface SendMessageSafeOptions extends SendMessageOptions {
  /** Returned when the agent is unreachable (connection failure, HTTP 404). */
  default?: Task | Message;
}

export interface SendHitlResponseOptions extends SendMessageOptions {
  /** The value typed, for input requests. */
  inputValue?: string;
  /** The visible text of the reply. Default: the input value, else the action id. */
  content?: string;
  /** Metadata of the HITL response payload (request metadata is `metadata`). */
  responseMetadata?: JsonObject;
}

export interface GetTaskOptions extends CallOptions {
  historyLength?: number;
}

export interface CancelTaskOptions extends CallOptions {
  metadata?: JsonObject;
}

export interface ListTasksFilter {
  contextId?: string;
  /** A TaskState or its wire name (`"TASK_STATE_WORKING"`). */
  status?: TaskState | string;
  pageSize?: number;
  pageToken?: string;
  historyLength?: number;
  /** Only tasks whose status changed after this instant (RFC 3339 text, Date or Timestamp). */
  statusTimestampAfter?: string | Date | Timestamp;
  includeArtifacts?: boolean;
}

export type ListTasksOptions = ListTasksFilter & CallOptions;

export interface ListPushConfigsOptions extends CallOptions {
  pageSize?: number;
  pageToken?: string;
}

const BINDINGS: readonly string[] = [PROTOCOL_BINDING_JSONRPC, PROTOCOL_BINDING_HTTP_JSON, PROTOCOL_BINDING_GRPC];

/** The transports every client has: the two HTTP bindings, over Fetch. */
const BUILT_IN_TRANSPORTS: readonly ClientTransportFactory[] = [
  { binding: PROTOCOL_BINDING_JSONRPC, create: (target) => new JsonRpcTransport(target) },
  { binding: PROTOCOL_BINDING_HTTP_JSON, create: (target) => new HttpJsonTransport(target) },
];

/** What to import for a binding the universal entry does not carry. */
const TRANSPORT_HINTS: Readonly<Record<string, string>> = {
  [PROTOCOL_BINDING_GRPC]:
    'import { grpcTransport } from "@novaos/client-sdk/grpc" and pass { transports: [grpcTransport()] }',
};

/** The transport factory of each binding a client with `extra` transports can speak. */
function transportsOf(extra: readonly ClientTransportFactory[] = []): Map<string, ClientTransportFactory> {
  return new Map([...BUILT_IN_TRANSPORTS, ...extra].map((t) => [t.binding, t]));
}

/** The error for a binding the client has no transport for, saying what to import when we know. */
function missingTransport(binding: string, problem: string): NovaOSValidationError {
  const hint = TRANSPORT_HINTS[binding];
  return new NovaOSValidationError(`${problem}${hint ? `; for ${binding}, ${hint}` : ""}`, { field: "transports" });
}

function requireId(field: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new NovaOSValidationError(`${field} must be a non-empty string`, { field });
  }
  return value;
}

function optionalInt(field: string, value: number | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min || value > 2 ** 31 - 1) {
    throw new NovaOSValidationError(`${field} must be an integer ≥ ${min}`, { field });
  }
  return value;
}

function taskStateOf(value: TaskState | string): TaskState {
  try {
    // A declared TaskState: its number, or its proto name.
    return readTaskState(value, true);
  } catch {
    throw new NovaOSValidationError(`status ${JSON.stringify(value)} is not a TaskState`, { field: "status" });
  }
}

function timestampOf(value: string | Date | Timestamp): Timestamp {
  if (value instanceof Date) {
    const ts = parseTimestamp(value.toISOString());
    if (ts) return ts;
  } else if (typeof value === "string") {
    const ts = parseTimestamp(value);
    if (ts) return ts;
  } else {
    return value;
  }
  throw new NovaOSValidationError("statusTimestampAfter is not an RFC 3339 timestamp", {
    field: "statusTimestampAfter",
  });
}

function frameOf(result: Task | Message): StreamResponse {
  return {
    $typeName: "lf.a2a.v1.StreamResponse",
    payload:
      result.$typeName === "lf.a2a.v1.Message" ? { case: "message", value: result } : { case: "task", value: result },
  };
}

/** `{ [key]: value }`, or `{}` when value is undefined: a field `create` would leave unset. */
function ifSet<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Whether `value` is a generated message of `typeName` (protobuf-es's `isMessage`, without the descriptor). */
function isMessageOf<T extends { $typeName: string }>(value: unknown, typeName: T["$typeName"]): value is T {
  return typeof value === "object" && value !== null && (value as { $typeName?: unknown }).$typeName === typeName;
}

export class Client implements AsyncDisposable {
  readonly baseUrl: string;
  readonly binding: ProtocolBinding;
  readonly tenant: string | undefined;
  readonly agentCard: AgentCard | undefined;
  readonly extensions: ExtensionRegistry | undefined;
  readonly config: Readonly<ResolvedClientConfig>;
  readonly #auth: AuthProvider | undefined;
  readonly #interceptors: readonly ClientCallInterceptor[];
  readonly #headers: Headers;
  readonly #timeoutMs: number;
  readonly #transport: ClientTransport;
  readonly #onClose: (() => void | Promise<void>) | undefined;
  /** Aborted by `close()`: ends the calls in flight whatever fetch carries them. */
  readonly #closing = new AbortController();
  #closed = false;

  /** A client for the interface the card offers that this client prefers (see `ClientConfig.preferredBindings`). */
  static fromAgentCard(card: AgentCard, options: FromAgentCardOptions = {}): Client {
    const config = resolveClientConfig(options.config);
    const available = transportsOf(options.transports);
    const chosen = selectInterface(
      card.supportedInterfaces,
      config.preferredBindings.filter((b) => available.has(b)),
      { useClientPreference: config.useClientPreference },
    );
    if (!chosen) {
      const wanted = selectInterface(card.supportedInterfaces, config.preferredBindings, {
        useClientPreference: config.useClientPreference,
      });
      if (wanted) {
        throw missingTransport(
          wanted.protocolBinding,
          `Agent card "${card.name}" offers ${wanted.protocolBinding}, and no other binding this client has a transport for`,
        );
      }
      const offered = card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`.trim());
      throw new NovaOSValidationError(
        `Agent card "${card.name}" offers no interface this client can use (offered: ${offered.join(", ") || "none"}; ` +
          `accepted: ${config.preferredBindings.join(", ")} at A2A ${A2A_PROTOCOL_VERSION})`,
        { field: "supportedInterfaces" },
      );
    }
    return new Client({
      ...options,
      baseUrl: chosen.url,
      binding: chosen.protocolBinding as ProtocolBinding,
      agentCard: card,
      tenant: options.tenant ?? (chosen.tenant || undefined),
    });
  }

  constructor(options: ClientOptions) {
    const card = options.agentCard;
    const binding =
      options.binding ??
      (card && interfaceAt(card, options.baseUrl)?.protocolBinding) ??
      (isGrpcOnlyUrl(options.baseUrl) ? PROTOCOL_BINDING_GRPC : PROTOCOL_BINDING_JSONRPC);
    if (!BINDINGS.includes(binding)) {
      throw new RangeError(`binding must be one of ${BINDINGS.join(", ")}, got ${JSON.stringify(binding)}`);
    }
    const dialUrl = binding === PROTOCOL_BINDING_GRPC ? grpcDialUrl(options.baseUrl) : options.baseUrl;
    let url: URL;
    try {
      url = new URL(dialUrl);
    } catch {
      throw new RangeError(`baseUrl ${JSON.stringify(options.baseUrl)} is not a valid URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new RangeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(options.baseUrl)}`);
    }
    validateHostAllowed(url, options.allowedHosts);
    const factory = transportsOf(options.transports).get(binding);
    if (!factory) {
      throw missingTransport(
        binding,
        `${options.baseUrl} is a ${binding} interface, and this client has no ${binding} transport`,
      );
    }
    this.baseUrl = options.baseUrl;
    this.binding = binding as ProtocolBinding;
    this.agentCard = card;
    this.tenant = options.tenant ?? (card ? tenantFromCard(card, options.baseUrl, binding) : undefined);
    this.extensions = options.extensions;
    this.config = resolveClientConfig(options.config);
    this.#auth = options.auth;
    this.#interceptors = [...(options.interceptors ?? [])];
    this.#headers = new Headers(options.headers);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#onClose = options.onClose;
    this.#transport = factory.create({
      baseUrl: dialUrl,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_BODY_BYTES,
      maxSseEventBytes: options.maxSseEventBytes,
    });
  }

  /** The interceptors run around every call, in order (a copy). */
  get interceptors(): ClientCallInterceptor[] {
    return [...this.#interceptors];
  }

  /** Whether `close()` has been called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * A2A SendMessage. Resolves with the Task the agent created — by default
   * once it is terminal or interrupted — or with a bare Message when the
   * agent answered without creating a task.
   */
  async sendMessage(message: MessageInput, options: SendMessageOptions = {}): Promise<Task | Message> {
    const reply = await this.#unary("SendMessage", await this.#sendRequest(message, options, false), options);
    return reply.payload.value as Task | Message;
  }

  /**
   * `sendMessage`, but an unreachable agent (connection failure, timeout,
   * HTTP 404) yields `options.default` instead of an error. Every other
   * error, protocol errors included, is thrown: that agent was reached.
   */
  async sendMessageSafe(
    message: MessageInput,
    options: SendMessageSafeOptions = {},
  ): Promise<Task | Message | undefined> {
    try {
      return await this.sendMessage(message, options);
    } catch (error) {
      if (error instanceof NovaOSConnectionError || error instanceof NovaOSAgentNotFoundError) return options.default;
      throw error;
    }
  }

  /**
   * A2A SendStreamingMessage: the frames in order, up to and including the
   * last one (`isLastFrame`), after which the stream is closed. When
   * streaming is off (`config.streaming`) or the card does not declare it,
   * one `sendMessage` is made and its result is the only frame.
   */
  sendStreamingMessage(
    message: MessageInput,
    options: SendStreamingMessageOptions = {},
  ): AsyncGenerator<StreamResponse, void, undefined> {
    if (!this.config.streaming || (this.agentCard && this.agentCard.capabilities?.streaming !== true)) {
      return this.#streamFallback(message, options);
    }
    return this.#stream("SendStreamingMessage", () => this.#sendRequest(message, options, true), options);
  }

  async *#streamFallback(
    message: MessageInput,
    options: SendStreamingMessageOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    yield frameOf(await this.sendMessage(message, { ...options, returnImmediately: false }));
  }

  /**
   * Answers a HITL request: a ROLE_USER message carrying the NovaOS HITL
   * response (`actionId`, `sessionId` as the contextId). Pass the waiting
   * task's id as `taskId` so the agent resumes that task.
   */
  async sendHitlResponse(
    actionId: string,
    sessionId: string,
    options: SendHitlResponseOptions = {},
  ): Promise<Task | Message> {
    const { inputValue, content, responseMetadata, ...send } = options;
    // The HITL payload is written by the reflective message builder, loaded on first use.
    const { createMessageWithHitlResponse } = await loadReflective();
    const message = createMessageWithHitlResponse(
      content ?? inputValue ?? requireId("actionId", actionId),
      actionId,
      sessionId,
      { inputValue, metadata: responseMetadata },
    );
    return this.sendMessage(message, { ...send, contextId: send.contextId ?? (sessionId || undefined) });
  }

  /** `sendHitlResponse` from a built `HitlResponse`. */
  async continueWithHitlResponse(
    response: HitlResponse,
    options: SendHitlResponseOptions = {},
  ): Promise<Task | Message> {
    return this.sendHitlResponse(response.actionId, response.sessionId, {
      inputValue: response.inputValue,
      responseMetadata: response.metadata,
      ...options,
    });
  }

  /** A2A GetTask: the task as the agent holds it now. */
  async getTask(taskId: string, options: GetTaskOptions = {}): Promise<Task> {
    const request: GetTaskRequest = {
      $typeName: "lf.a2a.v1.GetTaskRequest",
      tenant: this.tenant ?? "",
      id: requireId("taskId", taskId),
      ...ifSet("historyLength", optionalInt("historyLength", options.historyLength, 0)),
    };
    return this.#unary("GetTask", request, options);
  }

  /** A2A ListTasks: one page. A non-empty `nextPageToken` means there is more. */
  async listTasks(options: ListTasksOptions = {}): Promise<ListTasksResponse> {
    const request: ListTasksRequest = {
      $typeName: "lf.a2a.v1.ListTasksRequest",
      tenant: this.tenant ?? "",
      contextId: options.contextId ?? "",
      status: options.status === undefined ? taskStateValues.UNSPECIFIED : taskStateOf(options.status),
      ...ifSet("pageSize", optionalInt("pageSize", options.pageSize, 1)),
      pageToken: options.pageToken ?? "",
      ...ifSet("historyLength", optionalInt("historyLength", options.historyLength, 0)),
      ...ifSet(
        "statusTimestampAfter",
        options.statusTimestampAfter === undefined ? undefined : timestampOf(options.statusTimestampAfter),
      ),
      ...ifSet("includeArtifacts", options.includeArtifacts),
    };
    return this.#unary("ListTasks", request, options);
  }

  /**
   * Every page of ListTasks, following `nextPageToken` from `pageToken` (or
   * the start) to the end. An agent that hands back a token it already gave
   * is refused (InvalidAgentResponseError) rather than looped on.
   */
  async *listTasksPages(options: ListTasksOptions = {}): AsyncGenerator<ListTasksResponse, void, undefined> {
    const seen = new Set<string>();
    let pageToken = options.pageToken;
    while (true) {
      const page = await this.listTasks({ ...options, pageToken });
      yield page;
      if (page.nextPageToken === "") return;
      if (seen.has(page.nextPageToken)) {
        throw new InvalidAgentResponseError(`ListTasks returned the page token ${page.nextPageToken} twice`);
      }
      seen.add(page.nextPageToken);
      pageToken = page.nextPageToken;
    }
  }

  /**
   * A2A CancelTask. Cancellation is a request: read the returned task's
   * state. A task already terminal is a TaskNotCancelableError (-32002).
   */
  async cancelTask(taskId: string, options: CancelTaskOptions = {}): Promise<Task> {
    const metadata = this.#requestMetadata(options.metadata);
    const request: CancelTaskRequest = {
      $typeName: "lf.a2a.v1.CancelTaskRequest",
      tenant: this.tenant ?? "",
      id: requireId("taskId", taskId),
      ...ifSet("metadata", metadata),
    };
    return this.#unary("CancelTask", request, options);
  }

  /**
   * A2A SubscribeToTask: reattaches to a task's stream. The first frame is
   * the task's current state; what happened while detached is not replayed.
   * It runs to the task's terminal state, through any pause (INPUT_REQUIRED,
   * AUTH_REQUIRED) a follow-up resumes (spec §3.1.6); an agent that closes
   * the stream right after an interrupted state ends it cleanly there.
   */
  subscribeToTask(taskId: string, options: CallOptions = {}): AsyncGenerator<StreamResponse, void, undefined> {
    const request = (): SubscribeToTaskRequest => ({
      $typeName: "lf.a2a.v1.SubscribeToTaskRequest",
      tenant: this.tenant ?? "",
      id: requireId("taskId", taskId),
    });
    return this.#stream("SubscribeToTask", request, options, true);
  }

  /** A2A CreateTaskPushNotificationConfig. `config.tenant`, when set, wins over the client's. */
  async createTaskPushNotificationConfig(
    config: TaskPushNotificationConfig | MessageInitShape<typeof TaskPushNotificationConfigSchema>,
    options: CallOptions = {},
  ): Promise<TaskPushNotificationConfig> {
    // A generated config is copied as `create` would (its own object); its fields alone need the reflective builder.
    const request = isMessageOf<TaskPushNotificationConfig>(config, "lf.a2a.v1.TaskPushNotificationConfig")
      ? { ...config }
      : (await loadReflective()).pushConfig({ ...config });
    requireId("taskId", request.taskId);
    requireId("url", request.url);
    if (request.tenant === "") request.tenant = this.tenant ?? "";
    return this.#unary("CreateTaskPushNotificationConfig", request, options);
  }

  /** A2A GetTaskPushNotificationConfig. */
  async getTaskPushNotificationConfig(
    taskId: string,
    configId: string,
    options: CallOptions = {},
  ): Promise<TaskPushNotificationConfig> {
    const request: GetTaskPushNotificationConfigRequest = {
      $typeName: "lf.a2a.v1.GetTaskPushNotificationConfigRequest",
      tenant: this.tenant ?? "",
      taskId: requireId("taskId", taskId),
      id: requireId("configId", configId),
    };
    return this.#unary("GetTaskPushNotificationConfig", request, options);
  }

  /** A2A ListTaskPushNotificationConfigs: one page of a task's webhooks. */
  async listTaskPushNotificationConfigs(
    taskId: string,
    options: ListPushConfigsOptions = {},
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const request: ListTaskPushNotificationConfigsRequest = {
      $typeName: "lf.a2a.v1.ListTaskPushNotificationConfigsRequest",
      tenant: this.tenant ?? "",
      taskId: requireId("taskId", taskId),
      pageSize: optionalInt("pageSize", options.pageSize, 0) ?? 0,
      pageToken: options.pageToken ?? "",
    };
    return this.#unary("ListTaskPushNotificationConfigs", request, options);
  }

  /** A2A DeleteTaskPushNotificationConfig. */
  async deleteTaskPushNotificationConfig(taskId: string, configId: string, options: CallOptions = {}): Promise<void> {
    const request: DeleteTaskPushNotificationConfigRequest = {
      $typeName: "lf.a2a.v1.DeleteTaskPushNotificationConfigRequest",
      tenant: this.tenant ?? "",
      taskId: requireId("taskId", taskId),
      id: requireId("configId", configId),
    };
    await this.#unary("DeleteTaskPushNotificationConfig", request, options);
  }

  /** A2A GetExtendedAgentCard: the card an authenticated caller may see. */
  async getExtendedAgentCard(options: CallOptions = {}): Promise<AgentCard> {
    const request: GetExtendedAgentCardRequest = {
      $typeName: "lf.a2a.v1.GetExtendedAgentCardRequest",
      tenant: this.tenant ?? "",
    };
    return this.#unary("GetExtendedAgentCard", request, options);
  }

  /**
   * Ends the calls in flight (they fail with a NovaOSConnectionError) and
   * closes the connections the client's transports own. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#closing.abort(new NovaOSConnectionError("The client was closed while the call was in flight"));
    try {
      await this.#transport.close();
    } finally {
      await this.#onClose?.();
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #requestMetadata(own: JsonObject | undefined): JsonObject | undefined {
    const metadata = { ...this.extensions?.requestMetadata(), ...own };
    return Object.keys(metadata).length > 0 ? metadata : undefined;
  }

  async #sendRequest(
    message: MessageInput,
    options: SendMessageOptions,
    streaming: boolean,
  ): Promise<MethodInput<"SendMessage">> {
    const modes = options.acceptedOutputModes?.length ? options.acceptedOutputModes : this.config.acceptedOutputModes;
    const push = options.taskPushNotificationConfig ?? this.config.pushNotificationConfig;
    const historyLength = optionalInt("historyLength", options.historyLength, 0);
    const returnImmediately = !streaming && (options.returnImmediately ?? this.config.polling);
    const configured = modes.length > 0 || push !== undefined || historyLength !== undefined || returnImmediately;
    const metadata = this.#requestMetadata(options.metadata);
    // Built as the plain objects `create` makes; only fields given as such (not generated messages) need the reflection.
    const copy = plainMessage(message);
    const sent = copy ? addressMessage(copy, options) : (await loadReflective()).toMessage(message, options);
    const configuration: SendMessageConfiguration | undefined = configured
      ? {
          $typeName: "lf.a2a.v1.SendMessageConfiguration",
          acceptedOutputModes: [...modes],
          ...ifSet("historyLength", historyLength),
          returnImmediately,
          ...ifSet(
            "taskPushNotificationConfig",
            push === undefined || isMessageOf<TaskPushNotificationConfig>(push, "lf.a2a.v1.TaskPushNotificationConfig")
              ? push
              : (await loadReflective()).pushConfig(push),
          ),
        }
      : undefined;
    const request: SendMessageRequest = {
      $typeName: "lf.a2a.v1.SendMessageRequest",
      tenant: this.tenant ?? "",
      message: sent,
      ...ifSet("configuration", configuration),
      ...ifSet("metadata", metadata),
    };
    return request;
  }

  /**
   * Service parameters, then client headers, then credentials, then the call's own headers; then the current
   * trace context unless one of those set a `traceparent`. Every transport sends these headers (gRPC as metadata).
   */
  async #callHeaders(own: HeadersInput | undefined): Promise<Headers> {
    const headers = new Headers({ [A2A_VERSION_HEADER]: A2A_PROTOCOL_VERSION, ...this.extensions?.requestHeaders() });
    for (const [name, value] of this.#headers) headers.set(name, value);
    for (const [name, value] of Object.entries((await this.#auth?.headers()) ?? {})) headers.set(name, value);
    for (const [name, value] of new Headers(own)) headers.set(name, value);
    injectTraceContext(headers);
    return headers;
  }

  #open(): void {
    if (this.#closed) throw new NovaOSError("The client is closed");
  }

  async #unary<M extends UnaryMethod>(
    method: M,
    request: MethodInput<M>,
    options: CallOptions,
  ): Promise<MethodOutput<M>> {
    this.#open();
    const scope = new CallScope(options.signal, options.timeoutMs ?? this.#timeoutMs, this.#closing.signal);
    const context = options.context ?? createCallContext();
    const common = { method, binding: this.binding, request, agentCard: this.agentCard, context };
    const ran: ClientCallInterceptor[] = [];
    let result: MethodOutput<M> | undefined;
    let error: unknown;
    let failed = false;
    try {
      const headers = await this.#callHeaders(options.headers);
      const early = await runBefore<M>(this.#interceptors, { ...common, headers, signal: scope.signal }, ran);
      result = early
        ? (early.value as MethodOutput<M>)
        : await this.#transport.unary(method, request, { headers, signal: scope.signal });
    } catch (e) {
      failed = true;
      error = scope.abortError() ?? e;
    } finally {
      scope.dispose();
    }
    await runAfter<M>(ran, { ...common, result: result as CallResult<M> | undefined, error });
    if (failed) throw error;
    return result as MethodOutput<M>;
  }

  /**
   * One streaming call. `buildRequest` runs on the first `next()`, so bad
   * arguments fail the iteration like every other error of the call.
   * `untilTerminal`: read past interrupted states to a terminal one; a
   * stream the agent ends right after an interrupted state is complete.
   */
  async *#stream<M extends StreamingMethod>(
    method: M,
    buildRequest: () => MethodInput<M> | Promise<MethodInput<M>>,
    options: CallOptions,
    untilTerminal = false,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    this.#open();
    const request = await buildRequest();
    const scope = new CallScope(options.signal, options.timeoutMs, this.#closing.signal);
    const context = options.context ?? createCallContext();
    const common = { method, binding: this.binding, request, agentCard: this.agentCard, context };
    const ran: ClientCallInterceptor[] = [];
    let afterFailed = false;
    const after = async (result: StreamResponse | undefined, error: unknown) => {
      try {
        await runAfter<M>(ran, { ...common, result: result as CallResult<M> | undefined, error });
      } catch (e) {
        afterFailed = true;
        throw e;
      }
    };
    try {
      const headers = await this.#callHeaders(options.headers);
      const early = await runBefore<M>(this.#interceptors, { ...common, headers, signal: scope.signal }, ran);
      if (early) {
        await after(early.value as StreamResponse, undefined);
        yield early.value as StreamResponse;
        return;
      }
      let paused = false;
      for await (const batch of this.#transport.stream(method, request, { headers, signal: scope.signal })) {
        for (const frame of batch) {
          if (ran.length > 0) await after(frame, undefined);
          yield frame;
          const last = isLastFrame(frame);
          if (last && (!untilTerminal || isTerminalFrame(frame))) return;
          paused = last;
        }
      }
      if (paused) return;
      throw new NovaOSConnectionError(`The ${method} stream ended before a terminal or interrupted state`, {
        details: { method },
      });
    } catch (e) {
      const error = scope.abortError() ?? e;
      if (!afterFailed && ran.length > 0) await after(undefined, error);
      throw error;
    } finally {
      scope.dispose();
    }
  }
}
