/**
 * `startLocalPlatform`: every NovaOS platform service the SDK has an
 * OpenAPI spec for, in one process on localhost, one port per service (as
 * in the cluster, where each is its own host), each served by a
 * `SpecRouter` that checks every request and reply against its spec.
 *
 * ```ts
 * await using platform = await startLocalPlatform();
 * const agent = await platform.registerAgent({ url: "http://127.0.0.1:8000/" });
 * const gateway = new GatewayClient({ baseUrl: platform.urls.gateway });
 * const { runId } = await gateway.execute({ instanceId: agent.instanceId, inputText: "hello" });
 * ```
 */
import { document as agentDnsDocument } from "../../gen/openapi/documents/agent-dns.js";
import { document as gatewayDocument } from "../../gen/openapi/documents/gateway.js";
import { document as heartbeatDocument } from "../../gen/openapi/documents/heartbeat.js";
import { document as llmGatewayDocument } from "../../gen/openapi/documents/llm-gateway.js";
import { document as mcpGatewayDocument } from "../../gen/openapi/documents/mcp-gateway.js";
import { document as memoryDocument } from "../../gen/openapi/documents/memory.js";
import { document as observabilityDocument } from "../../gen/openapi/documents/observability.js";
import type { Clock } from "../runtime/clock.js";
import { agentDnsHandlers, LOCAL_REGISTER_PATH, registerRoute } from "./agent-dns-service.js";
import { AgentRegistry, type RegisterAgentOptions, type RegisteredAgent } from "./agent-registry.js";
import { ExecutionTokenIssuer } from "./execution-tokens.js";
import { GatewayService } from "./gateway-service.js";
import { type HeartbeatFiring, HeartbeatScheduler } from "./heartbeat-scheduler.js";
import { heartbeatHandlers } from "./heartbeat-service.js";
import { KnowledgeStore } from "./knowledge-store.js";
import { type LlmGatewayOptions, llmGatewayHandlers } from "./llm-gateway-service.js";
import { mcpGatewayHandlers } from "./mcp-gateway-service.js";
import { memoryServiceHandlers } from "./memory-service.js";
import { type MemoryProposalReview, MemoryStore } from "./memory-store.js";
import { ObservabilityService } from "./observability-service.js";
import type { Run } from "./run.js";
import { SpecRouter, type SpecRouterOptions } from "./spec-router.js";
import type { SpecViolationError } from "./spec-violation.js";
import { agentsTools } from "./tools/agents-tools.js";
import { ConnectorRegistry, connectorTool } from "./tools/connector-tools.js";
import { filesTools } from "./tools/files-tools.js";
import { httpTools } from "./tools/http-tools.js";
import { knowledgeTools } from "./tools/knowledge-tools.js";
import { memoryTools } from "./tools/memory-tools.js";
import { type Notification, notifyTools } from "./tools/notify-tools.js";
import { WriteConfirmationGate } from "./tools/write-confirmation.js";

/** The services, by the name of their spec under `openapi/`. */
export const LOCAL_SERVICES = [
  "gateway",
  "agent-dns",
  "mcp-gateway",
  "memory",
  "observability",
  "heartbeat",
  "llm-gateway",
] as const;
export type LocalService = (typeof LOCAL_SERVICES)[number];

const DOCUMENTS: Record<LocalService, { readonly [key: string]: unknown }> = {
  gateway: gatewayDocument,
  "agent-dns": agentDnsDocument,
  "mcp-gateway": mcpGatewayDocument,
  memory: memoryDocument,
  observability: observabilityDocument,
  heartbeat: heartbeatDocument,
  "llm-gateway": llmGatewayDocument,
};

/** The tenant of calls that name none. */
export const LOCAL_TENANT = "local";

export interface LocalPlatformOptions {
  /** The address every service binds to. Default `127.0.0.1`. */
  host?: string;
  /** A fixed port per service; the others pick free ports. */
  ports?: Partial<Record<LocalService, number>>;
  /** The tenant of calls without `X-Tenant-ID`. Default `local`. */
  defaultTenant?: string;
  /** The `iss` of the execution tokens. Default `novaos-local-platform`. */
  issuer?: string;
  /** The model ids the local LLM gateway answers under (default `novaos-local-chat`, `novaos-local-embed`). */
  llm?: Pick<LlmGatewayOptions, "chatModels" | "embeddingModels">;
  /** Told of every request or reply that breaks its spec. Default: written to stderr. */
  onViolation?: (error: SpecViolationError) => void;
  /** What heartbeats schedule and fire by, its `now()` read as epoch milliseconds. Default: wall time. */
  clock?: Clock;
  /** Told of every heartbeat firing. Default: a skipped firing (over budget) is written to stderr. */
  onHeartbeat?: (firing: HeartbeatFiring) => void;
  /**
   * Whether write-class tool calls need the user's confirmation (-32042,
   * answered through the gateway). Default true, as for a user's run in the
   * cluster.
   */
  confirmWrites?: boolean;
  /** The hosts `novaos.http.*` may reach (each with its subdomains). Default none: every host is refused. */
  httpAllowedHosts?: readonly string[];
  /** The local user's secrets, sealed to each agent's pod key for each run (see `userSecrets`). */
  userSecrets?: Readonly<Record<string, string>>;
}

export interface LocalPlatform extends AsyncDisposable {
  /** Each service's base URL. */
  readonly urls: Readonly<Record<LocalService, string>>;
  /** The signer of run tokens (its `issuer` is what `JwksTokenVerifier` must be told). */
  readonly tokens: ExecutionTokenIssuer;
  readonly registry: AgentRegistry;
  readonly runs: ReadonlyMap<string, Run>;
  /** The heartbeat schedules and their firings. */
  readonly heartbeats: HeartbeatScheduler;
  /** Every spec violation so far, all services. */
  readonly violations: readonly SpecViolationError[];
  /** Every notification `novaos.notify.send` recorded, in order. */
  readonly notifications: readonly Notification[];
  /** The connectors `novaos.connector.*` calls: `echo`, and those registered here. */
  readonly connectors: ConnectorRegistry;
  /** The memory write gate's held proposals (`confidential` agent writes), to approve or reject. */
  readonly memoryProposals: MemoryProposalReview;
  /** The local user's secrets by name (set or delete them between runs). */
  readonly userSecrets: Map<string, string>;
  /** Registers the agent at `url` in DNS and installs one instance of it for the gateway. */
  registerAgent(options: RegisterAgentOptions): Promise<RegisteredAgent>;
  close(): Promise<void>;
}

export async function startLocalPlatform(options: LocalPlatformOptions = {}): Promise<LocalPlatform> {
  const host = options.host ?? "127.0.0.1";
  const onViolation =
    options.onViolation ??
    ((error: SpecViolationError) => process.stderr.write(`[novaos-platform] ${error.message}\n`));
  const tokens = await ExecutionTokenIssuer.create({ issuer: options.issuer });
  const registry = new AgentRegistry();
  const runs = new Map<string, Run>();
  const userSecrets = new Map(Object.entries(options.userSecrets ?? {}));
  const writeConfirmation = options.confirmWrites ?? true;
  const gateway = new GatewayService({
    registry,
    tokens,
    runs,
    defaultTenant: options.defaultTenant ?? LOCAL_TENANT,
    secrets: userSecrets,
    writeConfirmation,
  });
  const notifications: Notification[] = [];
  const connectors = new ConnectorRegistry();
  // One store behind both doors: the MCP Gateway's memory tools and the Memory Service.
  const memory = new MemoryStore();
  const tools = {
    ...memoryTools(memory),
    ...knowledgeTools(new KnowledgeStore()),
    ...agentsTools({ registry, tokens, secrets: userSecrets, writeConfirmation }),
    ...filesTools(),
    ...notifyTools(notifications),
    ...httpTools(options.httpAllowedHosts ?? []),
  };
  const violations: SpecViolationError[] = [];
  const heartbeats = new HeartbeatScheduler({
    gateway,
    registry,
    ...(options.clock ? { clock: options.clock } : {}),
    onFiring:
      options.onHeartbeat ??
      ((firing) => {
        if (firing.skipped) process.stderr.write(`[novaos-platform] heartbeat ${firing.configId}: ${firing.skipped}\n`);
      }),
  });

  const services: Record<LocalService, Pick<SpecRouterOptions, "handlers" | "extraRoutes" | "invalidRequestBody">> = {
    gateway: { handlers: gateway.handlers(), extraRoutes: gateway.extraRoutes() },
    "agent-dns": {
      handlers: agentDnsHandlers(registry),
      extraRoutes: { [`POST ${LOCAL_REGISTER_PATH}`]: registerRoute(registry) },
    },
    // The MCP Gateway answers a request it cannot take as a JSON-RPC error with a null id.
    "mcp-gateway": {
      handlers: mcpGatewayHandlers({
        tokens,
        tools,
        toolFor: connectorTool(connectors),
        writeConfirmation: new WriteConfirmationGate(writeConfirmation),
      }),
      invalidRequestBody: (error) => ({ jsonrpc: "2.0", id: null, error: { code: -32600, message: error.message } }),
    },
    memory: { handlers: memoryServiceHandlers(tokens, memory) },
    observability: { handlers: new ObservabilityService(gateway).handlers() },
    heartbeat: { handlers: heartbeatHandlers(heartbeats, gateway) },
    // The LLM gateway's errors are OpenAI's.
    "llm-gateway": {
      handlers: llmGatewayHandlers({
        tokens,
        chatModels: options.llm?.chatModels,
        embeddingModels: options.llm?.embeddingModels,
      }),
      invalidRequestBody: (error) => ({
        error: { message: error.message, type: "invalid_request_error", param: null, code: null },
      }),
    },
  };

  const listening = await Promise.allSettled(
    LOCAL_SERVICES.map((name) =>
      new SpecRouter({
        name,
        document: DOCUMENTS[name],
        siblings: DOCUMENTS,
        ...services[name],
        onViolation: (error) => {
          violations.push(error);
          onViolation(error);
        },
      }).listen(options.ports?.[name] ?? 0, host),
    ),
  );
  const servers = listening.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = listening.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.allSettled(servers.map((server) => server.close()));
    throw failed.reason;
  }
  const urls = Object.fromEntries(LOCAL_SERVICES.map((name, i) => [name, servers[i]?.url])) as Record<
    LocalService,
    string
  >;

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      heartbeats.stop();
      await Promise.allSettled(servers.map((server) => server.close()));
      await gateway.drain();
    })();
    return closed;
  };
  return {
    urls,
    tokens,
    registry,
    runs,
    heartbeats,
    violations,
    notifications,
    connectors,
    memoryProposals: memory.proposals,
    userSecrets,
    registerAgent: (agent) => registry.register(agent),
    close,
    [Symbol.asyncDispose]: close,
  };
}
