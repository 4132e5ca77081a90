/**
 * `AgentBuilder`: the entry point for building a NovaOS agent. Register
 * skills, then serve them: `requestHandler()` is the transport-neutral A2A
 * service; `fetchHandler()` mounts the HTTP bindings on any Fetch runtime.
 * On Node, `listen(agent, …)` and `nodeHandler(agent)` from
 * `@novaos/client-sdk/node` serve it (this file stays runtime-neutral).
 *
 * ```ts
 * const agent = new AgentBuilder({ name: "my-agent", version: "1.0.0", auth: "trustedProxy" });
 * agent.skill("greet", { description: "Greet a user" }, async (ctx, inputText) => ({ output: `Hello, ${inputText}!` }));
 * export default { fetch: agent.fetchHandler() };
 * ```
 *
 * Without an `auth` mode the agent answers callers on its own machine only
 * (auth/loopback.ts); `auth` says how it authenticates everyone else.
 */
import type { AgentCard, AgentExtension } from "../../gen/a2a_pb.js";
import { type A2AExtension, ExtensionRegistry } from "../a2a/extensions.js";
import { DEFAULT_MAX_BODY_BYTES } from "../a2a/jsonrpc.js";
import { MAX_REQUEST_VALUES } from "../a2a/request-limits.js";
import { createLogger, type Logger } from "../runtime/logger.js";
import { maskPii, maskPiiInObject } from "../security/pii.js";
import type { ToolBindings } from "../tools/tool-bindings.js";
import { type AgentCardOptions, buildAgentCard, type CardUrlOptions, checkCardSecurityOptions } from "./agent-card.js";
import type { SkillMemoryOptions, ToolsFactory } from "./agent-execution-context.js";
import { AgentRequestHandler, type ExtendedAgentCardProvider } from "./agent-request-handler.js";
import { type AgentAuth, authenticatorFor } from "./auth/agent-auth.js";
import type { Authenticator } from "./auth/authenticator.js";
import type { AuthorizeHook } from "./auth/authorize.js";
import { AuthNotConfiguredError, CHOOSE_AN_AUTH_MODE } from "./auth/loopback.js";
import type { OutputMasker, SkillHandler } from "./execution.js";
import { createFetchHandler, type FetchHandler } from "./fetch-adapter.js";
import { agentHttpBindings } from "./http-bindings.js";
import type { HttpBinding } from "./http-exchange.js";
import type { PushNotificationSender } from "./push/push-notification-sender.js";
import { InMemoryPushNotificationConfigStore, type PushNotificationConfigStore } from "./push-config-store.js";
import type { SecretSource } from "./secret-source.js";
import { servedInterfaces } from "./served-interfaces.js";
import { type RegisteredSkill, registeredSkill, type SkillOptions } from "./skills.js";
import type { TaskCoordinator } from "./task-coordinator.js";
import { InMemoryTaskStore, type TaskStore } from "./task-store.js";

/** What a skill produces when neither it nor the builder says otherwise. */
export const DEFAULT_OUTPUT_MODES: readonly string[] = ["text/plain", "application/json"];
/** What the card says the agent accepts when the builder does not say otherwise. */
export const DEFAULT_INPUT_MODES: readonly string[] = ["text/plain", "application/json"];

export interface AgentBuilderOptions<TTools = ToolBindings> {
  name: string;
  /** Default `0.1.0`. */
  version?: string;
  /** The card's description (a `toAgentCard` argument overrides it). */
  description?: string;
  /**
   * Mask PII in skill output (text, data and metadata) before it is stored or
   * sent. Off by default: an agent that echoes a phone number on purpose would
   * have it redacted.
   */
  maskOutputPii?: boolean;
  /** A2A extensions this agent understands; required ones are enforced (-32008). */
  extensions?: Iterable<A2AExtension>;
  /** Default: an in-memory, LRU-capped store. */
  taskStore?: TaskStore;
  /**
   * What the replicas of one agent share about running tasks, so a task
   * running on one is streamed, canceled and superseded through any other
   * (`PgTaskFleet` of `@novaos/client-sdk/fleet`). Default: none, every task
   * lives on the replica that runs it.
   */
  coordinator?: TaskCoordinator;
  /**
   * Who delivers push notifications: a `PushNotificationSender` (this
   * process POSTs each update to the task's webhooks), or `"platform"` (the
   * NovaOS gateway delivers; the SDK only records configs). Push
   * notifications are served and advertised only with one of them; without,
   * the four push-config methods answer -32003 and the card says so.
   */
  pushNotificationDelivery?: PushNotificationSender | "platform";
  /** Where push configs are recorded. Default, when `pushNotificationDelivery` is set: in memory. */
  pushNotificationStore?: PushNotificationConfigStore;
  /** Default `text/plain`, `application/json`. The card's default and content negotiation use the same list. */
  defaultOutputModes?: Iterable<string>;
  defaultInputModes?: Iterable<string>;
  /** Where `ctx.getSecret()` reads secrets delivered with a request. */
  secrets?: SecretSource;
  /**
   * Builds `ctx.tools` for a run. Default: the platform tools (`ToolBindings`)
   * of the MCP Gateway at `MCP_GATEWAY_URL`, with the run's own token,
   * tenant, trace and custom headers (`createPlatformTools`).
   */
  tools?: ToolsFactory<TTools>;
  /**
   * Where `ctx.memory` reaches the Memory Service (its clients and the
   * runtime's pre-fetch): `baseUrl` (default `MEMORY_SERVICE_URL`), a `fetch`,
   * resilience options.
   */
  memory?: SkillMemoryOptions;
  /** Root logger; default JSON lines on stdout with PII masked. */
  logger?: Logger;
  /** The extended agent card (GetExtendedAgentCard); without one that method answers -32004. */
  extendedAgentCard?: AgentCard | ExtendedAgentCardProvider;
  /** Serve SendStreamingMessage and SubscribeToTask (default true); the card says the same. */
  streaming?: boolean;
  /** Request bodies above this many bytes are refused (-32700) before parsing. Default 10 MiB. */
  maxBodyBytes?: number;
  /**
   * How callers are authenticated, on every binding, before any method runs;
   * the card's `securitySchemes` and `securityRequirements` follow from it.
   * Not set: callers on this machine only (loopback), trusted as the NovaOS
   * auth-proxy's headers name them. See docs/security.md.
   */
  auth?: AgentAuth;
  /**
   * Widens who may act on a task: by default a caller reaches its own tasks
   * only. Asked for another owner's task, and by ListTasks whether the caller
   * may list every owner's (see docs/security.md).
   */
  authorize?: AuthorizeHook;
  /**
   * Each task's history budget, in estimated bytes (default 4 MiB): past it
   * the oldest messages are dropped, the newest always kept, and the task's
   * `novaosHistoryTrimmed` metadata counts what was dropped.
   */
  maxHistoryBytes?: number;
  /**
   * Requests holding more JSON values (every value and member name, at any
   * depth) are refused with -32602 / 400 / INVALID_ARGUMENT, on every binding,
   * before they are parsed or decoded. Default `MAX_REQUEST_VALUES` (100,000).
   */
  maxRequestValues?: number;
  /**
   * How far one stream may fall behind its task, in estimated bytes of
   * frames its reader has not taken: past it the stream ends with an error
   * frame (SubscribeToTask picks the task up again). Default 8 MiB.
   */
  streamBacklogBytes?: number;
}

/** Options of the HTTP adapters. */
export interface ServeOptions extends CardUrlOptions {
  /**
   * The card served at `/.well-known/agent-card.json`, or `false` to serve
   * none. Default: `toAgentCard()` with one interface per served binding at
   * `publicUrl` (see `CardUrlOptions` for when the request's URL is named
   * instead).
   */
  agentCard?: AgentCardOptions | false;
}

const PII_MASKER: OutputMasker = { text: maskPii, json: maskPiiInObject };

export class AgentBuilder<TTools = ToolBindings> {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly extensions: ExtensionRegistry;
  readonly taskStore: TaskStore;
  /** Where push configs are recorded; set exactly when push notifications are served. */
  readonly pushNotificationStore: PushNotificationConfigStore | undefined;
  readonly defaultOutputModes: readonly string[];
  readonly defaultInputModes: readonly string[];
  readonly streaming: boolean;
  readonly maxBodyBytes: number;
  readonly maxRequestValues: number;
  readonly logger: Logger;
  /** The auth mode chosen; undefined when none was (loopback callers only). */
  readonly auth: AgentAuth | undefined;
  /** Who authenticates every call, and what the card declares about it. */
  readonly authenticator: Authenticator;
  readonly #skills = new Map<string, RegisteredSkill>();
  readonly #options: AgentBuilderOptions<TTools>;
  #handler: AgentRequestHandler | undefined;

  constructor(options: AgentBuilderOptions<TTools>) {
    if (!options.name) throw new TypeError("An agent needs a name");
    this.#options = options;
    this.name = options.name;
    this.version = options.version ?? "0.1.0";
    this.description = options.description ?? "";
    this.extensions = new ExtensionRegistry(options.extensions ?? []);
    this.taskStore = options.taskStore ?? new InMemoryTaskStore();
    const delivery = options.pushNotificationDelivery;
    this.pushNotificationStore = delivery
      ? (options.pushNotificationStore ?? new InMemoryPushNotificationConfigStore())
      : undefined;
    this.defaultOutputModes = [...(options.defaultOutputModes ?? DEFAULT_OUTPUT_MODES)];
    this.defaultInputModes = [...(options.defaultInputModes ?? DEFAULT_INPUT_MODES)];
    this.streaming = options.streaming ?? true;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const history = options.maxHistoryBytes;
    if (history !== undefined && (!Number.isInteger(history) || history < 1)) {
      throw new RangeError("maxHistoryBytes must be a positive integer");
    }
    this.maxRequestValues = options.maxRequestValues ?? MAX_REQUEST_VALUES;
    this.logger = options.logger ?? createLogger();
    this.auth = options.auth;
    this.authenticator = authenticatorFor(options.auth, this.name);
    if (options.auth === "none" && options.extendedAgentCard !== undefined) {
      throw new TypeError(
        'The extended agent card is for authenticated callers (spec §3.1.11): choose an auth mode other than "none"',
      );
    }
    if (options.pushNotificationStore && !delivery) {
      this.logger.warn(
        "pushNotificationStore is set but nothing delivers push notifications: they are not served; " +
          'set pushNotificationDelivery to a PushNotificationSender, or to "platform" when the gateway delivers',
      );
    }
  }

  /** True exactly when push notifications are delivered, by a sender or by the platform (and so served). */
  get supportsPushNotifications(): boolean {
    return this.pushNotificationStore !== undefined;
  }

  /** The registered skills, by id. */
  get skills(): ReadonlyMap<string, RegisteredSkill> {
    return this.#skills;
  }

  /**
   * Registers a skill. Its id (default: the name) is the routing key callers
   * send as `message.metadata.skillId` and the id the card publishes.
   */
  skill(name: string, handler: SkillHandler<TTools>): this;
  skill(name: string, options: SkillOptions, handler: SkillHandler<TTools>): this;
  skill(
    name: string,
    optionsOrHandler: SkillOptions | SkillHandler<TTools>,
    maybeHandler?: SkillHandler<TTools>,
  ): this {
    const [options, handler] =
      typeof optionsOrHandler === "function" ? [{}, optionsOrHandler] : [optionsOrHandler, maybeHandler];
    const skill = registeredSkill(name, options, handler as SkillHandler);
    if (this.#skills.has(skill.card.id))
      throw new TypeError(`A skill with id '${skill.card.id}' is already registered`);
    this.#skills.set(skill.card.id, skill);
    return this;
  }

  /** Registers one more extension (duplicate or empty URIs are refused). */
  registerExtension<E extends A2AExtension>(extension: E): E {
    return this.extensions.register(extension);
  }

  /** The card's `capabilities.extensions`. */
  declaredExtensions(): AgentExtension[] {
    return this.extensions.declarations();
  }

  /**
   * The agent card content, for whoever publishes it; without given
   * interfaces, those `listen(agent)` serves. Its security is the `auth`
   * mode's: with a mode chosen, options that restate it are refused.
   */
  toAgentCard(options: AgentCardOptions = {}): AgentCard {
    checkCardSecurityOptions(options, this.auth);
    if (!options.supportedInterfaces) options = { ...options, supportedInterfaces: servedInterfaces(this) };
    return buildAgentCard(
      {
        name: this.name,
        version: this.version,
        description: this.description,
        skills: [...this.#skills.values()].map((s) => s.card),
        extensions: this.declaredExtensions(),
        streaming: this.streaming,
        pushNotifications: this.supportsPushNotifications,
        extendedAgentCard: this.#options.extendedAgentCard !== undefined,
        defaultInputModes: this.defaultInputModes,
        defaultOutputModes: this.defaultOutputModes,
        security: this.auth === undefined ? undefined : this.authenticator,
      },
      options,
    );
  }

  /** The transport-neutral A2A service every binding serves (one per builder). */
  requestHandler(): AgentRequestHandler {
    if (!this.#handler) {
      const extended = this.#options.extendedAgentCard;
      this.#handler = new AgentRequestHandler({
        agentName: this.name,
        skills: this.#skills,
        extensions: this.extensions,
        taskStore: this.taskStore,
        pushNotificationStore: this.pushNotificationStore,
        pushNotificationSender:
          this.#options.pushNotificationDelivery === "platform" ? undefined : this.#options.pushNotificationDelivery,
        defaultOutputModes: this.defaultOutputModes,
        secrets: this.#options.secrets,
        tools: this.#options.tools as ToolsFactory<unknown> | undefined,
        memory: this.#options.memory,
        logger: this.logger,
        masker: this.#options.maskOutputPii ? PII_MASKER : undefined,
        extendedAgentCard: typeof extended === "function" || extended === undefined ? extended : () => extended,
        streaming: this.streaming,
        authenticator: this.authenticator,
        authorize: this.#options.authorize,
        maxHistoryBytes: this.#options.maxHistoryBytes,
        coordinator: this.#options.coordinator,
        ...(this.#options.streamBacklogBytes === undefined
          ? {}
          : { streamBacklogBytes: this.#options.streamBacklogBytes }),
      });
    }
    return this.#handler;
  }

  /** The HTTP bindings the adapters serve, in routing order (see http-bindings.ts). */
  httpBindings(options: ServeOptions = {}): HttpBinding[] {
    if (options.agentCard) checkCardSecurityOptions(options.agentCard, this.auth);
    return agentHttpBindings(this, options);
  }

  /**
   * A Fetch handler serving the HTTP bindings (Hono, Bun, Deno, Workers,
   * Next.js). A Fetch request does not say where it comes from, so an agent
   * without an `auth` mode cannot keep to callers on its machine: it needs
   * one (`"none"` included) to be served this way.
   */
  fetchHandler(options: ServeOptions = {}): FetchHandler {
    if (this.auth === undefined) {
      throw new AuthNotConfiguredError(
        `fetchHandler() cannot tell where a call comes from, so an agent without authentication cannot keep to callers on its own machine: ${CHOOSE_AN_AUTH_MODE}`,
      );
    }
    const bindings = this.httpBindings(options);
    return createFetchHandler(() => bindings, { logger: this.logger });
  }
}
