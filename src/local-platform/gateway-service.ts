/**
 * The Execution Gateway (openapi/gateway.yaml) of the local platform:
 * `execute` starts a run of a registered instance and answers at once;
 * `runEvents` streams its event log (resumable by `Last-Event-ID`);
 * `getServiceRun` reads it back; the JWKS of the run tokens is served at
 * `/.well-known/jwks.json` beside the spec's routes, where
 * `JwksTokenVerifier` looks for it.
 *
 * A run belongs to the tenant of the `execute` call (`X-Tenant-ID`, else
 * the platform's default tenant); a caller of another tenant gets 404 for
 * it, as if it did not exist. `execute` with the `thread_id` of a run that
 * waits for the user answers that pause: the text goes to the same task and
 * the same run goes on (same `run_id`, same event stream); an approving
 * answer to a write-confirmation pause puts the confirmation in the resumed
 * turn's token (src/local-platform/tools/write-confirmation.ts).
 */
import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { components } from "../../gen/openapi/gateway.js";
import { GATEWAY_JWKS_PATH } from "../security/token-verifier.js";
import type { AgentRegistry } from "./agent-registry.js";
import type { ExecutionTokenIssuer } from "./execution-tokens.js";
import { headerValue } from "./request-headers.js";
import { Run } from "./run.js";
import { executeTurn } from "./run-executor.js";
import { type ExtraRoute, type OperationHandler, PlatformReplyError } from "./spec-router.js";
import { confirmationGranted } from "./tools/write-confirmation.js";

type ExecuteRequest = components["schemas"]["ExecuteRequest"];

/** The user every local run is started for (the local gateway has no IAM). */
export const LOCAL_USER_ID = "local-user";

export interface GatewayServiceOptions {
  readonly registry: AgentRegistry;
  readonly tokens: ExecutionTokenIssuer;
  readonly runs: Map<string, Run>;
  /** The tenant of a call without `X-Tenant-ID`. */
  readonly defaultTenant: string;
  /** Called with every run as it starts (observability, tests). */
  readonly onRun?: (run: Run) => void;
  /** The user's secrets, sealed to each pod that can open them (pod-call.ts). */
  readonly secrets?: ReadonlyMap<string, string>;
  /** Whether write-class tool calls need the user's confirmation (told to each pod). */
  readonly writeConfirmation?: boolean;
}

export class GatewayService {
  readonly #options: GatewayServiceOptions;
  /** Turns in flight, so `close()` can wait for them. */
  readonly #turns = new Set<Promise<void>>();

  constructor(options: GatewayServiceOptions) {
    this.#options = options;
  }

  tenantOf(headers: IncomingHttpHeaders): string {
    return headerValue(headers, "x-tenant-id") ?? this.#options.defaultTenant;
  }

  /** The run `id` of `tenant`, or a 404. */
  runOf(id: string, tenant: string): Run {
    const run = this.#options.runs.get(id);
    if (!run || run.tenantId !== tenant) throw new PlatformReplyError(404, "run_not_found", `No run ${id}`);
    return run;
  }

  /** Starts a run of `instanceId` (or answers the pause of run `threadId`). */
  async execute(request: ExecuteRequest, tenant: string): Promise<{ run: Run; resumed: boolean }> {
    const paused = request.thread_id ? this.#options.runs.get(request.thread_id) : undefined;
    const resumed = paused !== undefined && paused.tenantId === tenant && paused.status === "WAITING_USER";
    const agent = this.#options.registry.byInstance(resumed ? paused.instanceId : request.instance_id);
    if (!agent) {
      throw new PlatformReplyError(404, "instance_not_found", `No instance ${request.instance_id} is installed`);
    }
    const run = resumed ? paused : new Run(randomUUID(), agent.instanceId, tenant);
    if (!resumed) {
      run.setStatus("QUEUED");
      this.#options.runs.set(run.id, run);
      this.#options.onRun?.(run);
    }
    // An approving answer to a write-confirmation pause lets the paused call through on the resumed turn.
    const confirmation = resumed ? confirmationGranted(run.events, request.input_text) : undefined;
    const token = await this.#options.tokens.mint({
      user_id: LOCAL_USER_ID,
      tenant_id: tenant,
      run_id: run.id,
      instance_id: agent.instanceId,
      agent_id: agent.agentId,
      agent_name: agent.record.name,
      ...(confirmation ? { write_confirmations: [confirmation] } : {}),
    });
    const turn = executeTurn(run, agent, {
      text: request.input_text,
      userId: LOCAL_USER_ID,
      token,
      customHeaders: request.custom_headers,
      secrets: this.#options.secrets,
      writeConfirmation: this.#options.writeConfirmation,
    });
    this.#turns.add(turn);
    void turn.finally(() => this.#turns.delete(turn));
    return { run, resumed };
  }

  handlers(): Record<string, OperationHandler> {
    return {
      execute: async ({ body, headers }) => {
        const { run, resumed } = await this.execute(body as ExecuteRequest, this.tenantOf(headers));
        return { status: 200, body: { run_id: run.id, status: resumed ? "resumed" : "started" } };
      },
      runEvents: ({ params, headers, signal }) => {
        const run = this.runOf(params.runId as string, this.tenantOf(headers));
        const last = Number(headerValue(headers, "last-event-id") ?? "0");
        // An id that is not one of this run's replays from the start: a duplicate beats a lost event.
        const after = Number.isInteger(last) && last >= 0 && last <= run.events.length ? last : 0;
        return { events: run.frames(after, signal) };
      },
      streamingHealth: () => ({ status: 200, body: { healthy: true } }),
      getServiceRun: ({ params, headers }) => {
        const run = this.runOf(params.id as string, this.tenantOf(headers));
        return {
          status: 200,
          body: {
            id: run.id,
            status: run.status,
            ...(run.output !== undefined ? { output: run.output } : {}),
            artifacts: [...run.artifacts.values()],
            created_at: run.createdAt.toISOString(),
            updated_at: run.updatedAt.toISOString(),
          },
        };
      },
      getAgentCard: () => {
        throw new PlatformReplyError(
          404,
          "not_found",
          "The local gateway publishes no agent at its root: read a card at the agent's own URL",
        );
      },
    };
  }

  extraRoutes(): Record<string, ExtraRoute> {
    return { [`GET ${GATEWAY_JWKS_PATH}`]: () => ({ status: 200, body: this.#options.tokens.jwks() }) };
  }

  /** Waits for the turns in flight. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.#turns]);
  }
}
