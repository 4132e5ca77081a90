/**
 * The agents tools of the local MCP Gateway (`novaos.agents.call`,
 * `get_task`, `list`): one registered agent calls another through the
 * platform, with a CHAINED run token. The callee's token is minted from the
 * caller's: the same tenant and user, a run of its own, the callee's
 * instance and agent, and a `call_chain` claim listing every caller
 * (`{agent_id, instance_id, run_id}`, outermost first), so the callee knows
 * who asked on whose behalf. A chain longer than `MAX_CALL_DEPTH` is refused
 * (-32040 `FORBIDDEN`): two agents that keep calling each other stop there.
 *
 * `call` sends the input over A2A as the gateway does (pod-call.ts: the
 * sidecar headers and the user's sealed secrets too), waits up to `wait_s`
 * for the task to end or pause, and answers the task as it stands then;
 * `get_task` reads a task a call of the same tenant started. An agent that
 * is not registered is the registry's 404, one that cannot be reached a
 * 502, both `isError` results.
 */
import { randomUUID } from "node:crypto";
import { type JsonObject, toJson } from "@bufbuild/protobuf";
import { type Task, TaskSchema } from "../../../gen/a2a_pb.js";
import type { components } from "../../../gen/openapi/mcp-gateway.js";
import { frameTaskId, isLastFrame } from "../../a2a/stream-frame.js";
import { artifactText, messageText } from "../../a2a/text.js";
import { GatewayRpcCode } from "../../tools/gateway-rpc-error.js";
import type { AgentRegistry, RegisteredAgent } from "../agent-registry.js";
import type { ChainLink, ExecutionTokenIssuer } from "../execution-tokens.js";
import { connectToPod } from "../pod-call.js";
import { httpFailure, type RunClaims, type ToolHandler, ToolRefusal } from "./tool-call.js";

type Schemas = components["schemas"];
type AgentTaskResult = Schemas["AgentTaskResult"];

/** The most callers a chained run may have. */
export const MAX_CALL_DEPTH = 8;

export interface AgentsToolsOptions {
  readonly registry: AgentRegistry;
  readonly tokens: ExecutionTokenIssuer;
  /** The user's secrets, sealed to each callee that can open them. */
  readonly secrets: ReadonlyMap<string, string>;
  /** Whether write-class tool calls need the user's confirmation (told to each callee). */
  readonly writeConfirmation: boolean;
}

/** A task a call started: where it runs and on whose behalf. */
interface CalledTask {
  readonly agent: RegisteredAgent;
  readonly tenantId: string;
  readonly userId: string;
  readonly runId: string;
  readonly chain: readonly ChainLink[];
}

function agentTaskResult(task: Task): AgentTaskResult {
  const json = toJson(TaskSchema, task) as AgentTaskResult["task"];
  const outputs = task.artifacts.filter((artifact) => artifact.name === "output").map(artifactText);
  const status = task.status?.message ? messageText(task.status.message) : "";
  return {
    task_id: task.id,
    context_id: task.contextId,
    state: (json.status as { state?: AgentTaskResult["state"] }).state ?? "TASK_STATE_SUBMITTED",
    output: outputs.length > 0 ? outputs.join("\n") : null,
    message: status === "" ? null : status,
    task: json,
  };
}

export function agentsTools({
  registry,
  tokens,
  secrets,
  writeConfirmation,
}: AgentsToolsOptions): Record<string, ToolHandler> {
  const tasks = new Map<string, CalledTask>();

  const find = (idOrName: string) =>
    registry.byName(idOrName) ?? registry.list().find((agent) => agent.agentId === idOrName);

  /** A client for `called.agent` under a token chained for `called`. */
  const connect = async (called: CalledTask) => {
    const { agent } = called;
    const token = await tokens.mint({
      user_id: called.userId,
      tenant_id: called.tenantId,
      run_id: called.runId,
      instance_id: agent.instanceId,
      agent_id: agent.agentId,
      agent_name: agent.record.name,
      call_chain: called.chain,
    });
    return connectToPod(agent, { ...called, token, secrets, writeConfirmation });
  };

  const chainOf = (claims: RunClaims): ChainLink[] => {
    const chain = [
      ...(claims.call_chain ?? []),
      { agent_id: claims.agent_id ?? claims.instance_id, instance_id: claims.instance_id, run_id: claims.run_id },
    ];
    if (chain.length > MAX_CALL_DEPTH) {
      throw new ToolRefusal(GatewayRpcCode.FORBIDDEN, `A call chain may hold at most ${MAX_CALL_DEPTH} agents`, {
        reason: "FORBIDDEN",
      });
    }
    return chain;
  };

  return {
    "novaos.agents.call": async ({ claims, args }): Promise<AgentTaskResult> => {
      const request = args as Schemas["AgentsCallArguments"];
      const chain = chainOf(claims);
      const agent = find(request.agent_id);
      if (!agent) throw httpFailure(404, `No agent ${request.agent_id} is registered`);
      const called: CalledTask = {
        agent,
        tenantId: claims.tenant_id,
        userId: claims.user_id,
        runId: randomUUID(),
        chain,
      };
      const { client, metadata } = await connect(called);
      const waitS = request.wait_s ?? 60;
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), waitS * 1000);
      let taskId: string | undefined;
      try {
        const stream = client.sendStreamingMessage(request.input, {
          skillId: request.skill_id ?? agent.skillId,
          contextId: request.context_id,
          taskId: request.task_id,
          metadata: { ...(request.metadata as JsonObject | undefined), ...metadata },
          signal: deadline.signal,
        });
        for await (const frame of stream) {
          taskId ??= frameTaskId(frame);
          if (isLastFrame(frame) || (waitS === 0 && taskId !== undefined)) break;
        }
      } catch (error) {
        if (!deadline.signal.aborted) {
          await client.close();
          throw httpFailure(502, `${agent.record.name} could not be called: ${(error as Error).message}`);
        }
      } finally {
        clearTimeout(timer);
      }
      try {
        if (taskId === undefined) throw httpFailure(502, `${agent.record.name} answered without a task`);
        tasks.set(taskId, called);
        return agentTaskResult(await client.getTask(taskId));
      } finally {
        await client.close();
      }
    },

    "novaos.agents.get_task": async ({ claims, args }): Promise<AgentTaskResult> => {
      const request = args as Schemas["AgentsGetTaskArguments"];
      const called = tasks.get(request.task_id);
      if (!called || called.tenantId !== claims.tenant_id) throw httpFailure(404, `No task ${request.task_id}`);
      const { client } = await connect(called);
      try {
        return agentTaskResult(await client.getTask(request.task_id, { historyLength: request.history_length }));
      } finally {
        await client.close();
      }
    },

    "novaos.agents.list": ({ args }): Schemas["AgentsListResult"] => {
      const request = args as Schemas["AgentsListArguments"];
      const query = request.query?.toLowerCase();
      const matching = registry
        .list()
        .filter(
          ({ card }) =>
            query === undefined ||
            [card.name, card.description, ...card.skills.flatMap((s) => [s.id, s.name, s.description])].some((text) =>
              text.toLowerCase().includes(query),
            ),
        );
      // The page token is the offset of the page; one that is not is the first page.
      const offset = Number(request.page_token ?? "0");
      const start = Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
      const size = request.page_size ?? 50;
      const page = matching.slice(start, start + size);
      const next = start + size;
      return {
        agents: page.map(({ agentId, card }) => ({
          agent_id: agentId,
          name: card.name,
          description: card.description,
          skills: card.skills.map((skill) => ({ id: skill.id, name: skill.name, description: skill.description })),
        })),
        ...(next < matching.length ? { next_page_token: String(next) } : {}),
      };
    },
  };
}
