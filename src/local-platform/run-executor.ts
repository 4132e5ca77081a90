/**
 * How the local gateway runs an agent: over A2A with the SDK's own
 * `Client`, streaming, called as the cluster calls a pod (pod-call.ts: the
 * sidecar's `X-NovaOS-*` headers, the run's execution token, the user's
 * sealed secrets), and each frame turned into gateway events:
 *
 * - a status update with a message → `status` {status, message} (progress);
 * - an artifact update → `message.delta` {content} (its text);
 * - a reply message → `message.final` {content};
 * - INPUT_REQUIRED / AUTH_REQUIRED → `hitl` {task_id, message, data}, then
 *   `status` WAITING_USER: a pause, the log stays open;
 * - COMPLETED → `done` {output} (the task's text); FAILED / REJECTED →
 *   `error` {message, code: "run_failed"}; CANCELED → `status` CANCELLED;
 * - an agent that cannot be reached or breaks the protocol → `error`
 *   {message, code: "agent_unavailable"}.
 */
import { type JsonObject, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { type Message, type Part, type Task, TaskState } from "../../gen/a2a_pb.js";
import { isJsonObject } from "../a2a/json-object.js";
import { artifactText, messageText, taskText } from "../a2a/text.js";
import type { Client } from "../client/index.js";
import type { RegisteredAgent } from "./agent-registry.js";
import { connectToPod } from "./pod-call.js";
import type { Run, RunStatus } from "./run.js";

export interface RunInput {
  readonly text: string;
  /** The caller's identity, as the gateway verified it. */
  readonly userId: string;
  readonly token: string;
  /** Service-account headers delivered to the pod. */
  readonly customHeaders?: Readonly<Record<string, string>>;
  /** The user's secrets, sealed to the pod (see pod-call.ts). */
  readonly secrets?: ReadonlyMap<string, string>;
  /** Whether write-class tool calls need the user's confirmation (see pod-call.ts). */
  readonly writeConfirmation?: boolean;
}

const RUN_STATUS: Partial<Record<TaskState, RunStatus>> = {
  [TaskState.SUBMITTED]: "QUEUED",
  [TaskState.WORKING]: "RUNNING",
  [TaskState.INPUT_REQUIRED]: "WAITING_USER",
  [TaskState.AUTH_REQUIRED]: "WAITING_USER",
};

/** The first data part that holds a JSON object. */
function dataOf(parts: readonly Part[] | undefined): JsonObject | undefined {
  for (const part of parts ?? []) {
    if (part.content.case !== "data") continue;
    const json = toJson(ValueSchema, part.content.value);
    if (isJsonObject(json)) return json;
  }
  return undefined;
}

/** Runs one turn of `run` on `agent` (a first turn, or the answer to a pause); never throws. */
export async function executeTurn(run: Run, agent: RegisteredAgent, input: RunInput): Promise<void> {
  let client: Client | undefined;
  try {
    const connection = connectToPod(agent, { ...input, tenantId: run.tenantId, runId: run.id });
    client = connection.client;
    const { metadata } = connection;
    const stream = client.sendStreamingMessage(input.text, {
      taskId: run.taskId,
      contextId: run.contextId,
      skillId: agent.skillId,
      ...(metadata ? { metadata } : {}),
    });
    for await (const frame of stream) {
      const { payload } = frame;
      if (payload.case === "task") {
        remember(run, payload.value);
        onState(run, payload.value.status?.state, payload.value.status?.message, payload.value);
      } else if (payload.case === "statusUpdate") {
        run.taskId ??= payload.value.taskId;
        onState(run, payload.value.status?.state, payload.value.status?.message);
      } else if (payload.case === "artifactUpdate") {
        const artifact = payload.value.artifact;
        if (!artifact) continue;
        const text = artifactText(artifact);
        const previous = run.artifacts.get(artifact.artifactId);
        const data = dataOf(artifact.parts) ?? previous?.data;
        run.artifacts.set(artifact.artifactId, {
          artifact_id: artifact.artifactId,
          ...(artifact.name ? { name: artifact.name } : {}),
          text: payload.value.append ? `${previous?.text ?? ""}${text}` : text,
          ...(data ? { data } : {}),
        });
        if (text !== "") run.append("message.delta", { content: text });
      } else if (payload.case === "message") {
        const content = messageText(payload.value);
        run.output = content;
        run.append("message.final", { content });
        finish(run, "COMPLETED", content);
      }
    }
  } catch (error) {
    run.status = "FAILED";
    run.append(
      "error",
      { message: error instanceof Error ? error.message : String(error), code: "agent_unavailable" },
      true,
    );
  } finally {
    await client?.close();
  }
}

function remember(run: Run, task: Task): void {
  run.taskId ??= task.id;
  run.contextId ??= task.contextId;
}

/** The run's output: the artifacts' text, else the last status message's. */
function outputOf(run: Run, message: Message | undefined): string {
  const texts = [...run.artifacts.values()].map((artifact) => artifact.text ?? "").filter((text) => text !== "");
  if (texts.length > 0) return texts.join("\n");
  return message ? messageText(message) : "";
}

function onState(run: Run, state: TaskState | undefined, message: Message | undefined, task?: Task): void {
  if (state === undefined) return;
  if (state === TaskState.COMPLETED) {
    finish(run, "COMPLETED", task ? taskText(task) : outputOf(run, message));
    return;
  }
  if (state === TaskState.FAILED || state === TaskState.REJECTED) {
    finish(run, "FAILED", message ? messageText(message) : "the agent failed the run");
    return;
  }
  if (state === TaskState.CANCELED) {
    finish(run, "CANCELLED");
    return;
  }
  const status = RUN_STATUS[state];
  if (!status) return;
  const text = message ? messageText(message) : undefined;
  if (status === "WAITING_USER") {
    const data = dataOf(message?.parts);
    run.append("hitl", { task_id: run.taskId, ...(text ? { message: text } : {}), ...(data ? { data } : {}) });
  }
  if (status !== run.status || text) run.setStatus(status, text);
}

function finish(run: Run, status: "COMPLETED" | "FAILED" | "CANCELLED", text?: string): void {
  if (run.closed) return;
  if (status === "COMPLETED") {
    run.status = status;
    run.output = text ?? "";
    run.append("done", { output: run.output }, true);
  } else if (status === "FAILED") {
    run.status = status;
    run.append("error", { message: text ?? "the run failed", code: "run_failed" }, true);
  } else {
    run.setStatus(status);
  }
}
