/**
 * NovaOS pauses through a real exchange: an AgentBuilder served on a socket
 * (port 0) and a Client, over every binding the agent's card advertises
 * (JSON-RPC at least) and over gRPC. The skill builds its
 * pause with MessageBuilder and publishes it with ctx.taskUpdater; the caller
 * reads it with MessageParser from the task it gets back, and resumes the
 * same task with a HITL response.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Message, type Task, TaskState } from "../../gen/a2a_pb.js";
import {
  AGENT_CARD_PATH,
  PROTOCOL_BINDING_GRPC,
  PROTOCOL_BINDING_JSONRPC,
  type ProtocolBinding,
} from "../../src/a2a/constants.js";
import { isLastFrame } from "../../src/a2a/stream-frame.js";
import { Client } from "../../src/client/client.js";
import { grpcTransport } from "../../src/grpc/index.js";
import {
  createHitlMessage,
  createMessageWithHitlResponse,
  createOauthRequiredMessage,
  createWriteConfirmationRequiredMessage,
  extractHitlMessage,
  extractHitlResponse,
  extractOAuthRequired,
  extractWriteConfirmationRequired,
  hitlDetails,
  validateMessage,
} from "../../src/messages/index.js";
import { nodeHandler } from "../../src/node/index.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type GrpcServer, listenGrpc } from "../../src/server/grpc/grpc-server.js";

/** What the skills saw, so the test can check the resume reached the same task. */
const seen: { skill: string; taskId: string; response?: string }[] = [];

function buildAgent(): AgentBuilder {
  const agent = new AgentBuilder({ name: "pause-agent", version: "1.0.0" });
  agent.skill("approve-plan", async (ctx) => {
    const response = extractHitlResponse(ctx.message);
    seen.push({ skill: "approve-plan", taskId: ctx.taskId, response: response?.actionId });
    if (response) return { output: `plan ${response.actionId}d: ${response.inputValue ?? ""}` };
    await ctx.taskUpdater.requiresInput(
      createHitlMessage("Approve the plan?", "plan_confirmation", {
        sessionId: ctx.contextId,
        plan: { steps: ["fetch", "summarise"] },
        actions: [
          { id: "approve", label: "Approve", style: "primary" },
          { id: "reject", label: "Reject", style: "danger" },
        ],
      }),
    );
    return { status: "WAITING_USER" };
  });
  agent.skill("connect-gmail", async (ctx) => {
    await ctx.taskUpdater.requiresAuth(
      createOauthRequiredMessage("Connect your Gmail account to continue.", "gmail", "https://auth.example/gmail", {
        sessionId: ctx.contextId,
        metadata: { scopes: ["gmail.send"] },
      }),
    );
    return { output: "Connect your Gmail account to continue.", status: "AUTH_REQUIRED" };
  });
  agent.skill("send-email", async (ctx) => {
    const response = extractHitlResponse(ctx.message);
    if (response?.actionId === "confirm") return { output: `sent (call ${response.metadata?.call_id})` };
    await ctx.taskUpdater.requiresInput(
      createWriteConfirmationRequiredMessage("Send this email to bob@example.com?", "call_7f3a9c", "gmail.send", {
        sessionId: ctx.contextId,
        metadata: { to: ["bob@example.com"] },
      }),
    );
    return { status: "WAITING_USER" };
  });
  return agent;
}

let server: Server;
let grpc: GrpcServer;
/** The interfaces the served card advertises, and the gRPC server: each is exercised. */
let interfaces: { url: string; binding: ProtocolBinding }[];

beforeAll(async () => {
  const agent = buildAgent();
  server = createServer(nodeHandler(agent));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = (await (await fetch(`${baseUrl}${AGENT_CARD_PATH}`)).json()) as {
    supportedInterfaces: { url: string; protocolBinding: ProtocolBinding }[];
  };
  interfaces = card.supportedInterfaces.map((i) => ({ url: i.url, binding: i.protocolBinding }));
  expect(interfaces.map((i) => i.binding)).toContain(PROTOCOL_BINDING_JSONRPC);
  grpc = await listenGrpc(agent.requestHandler(), { port: 0 });
  interfaces.push({ url: `http://${grpc.target}`, binding: PROTOCOL_BINDING_GRPC });
});

afterAll(async () => {
  await grpc.close();
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});

function asTask(reply: Task | Message): Task {
  expect(reply.$typeName).toBe("lf.a2a.v1.Task");
  return reply as Task;
}

/** Runs `scenario` once per advertised binding, naming the binding in a failure. */
async function overEveryBinding(scenario: (client: Client) => Promise<void>): Promise<void> {
  for (const { url, binding } of interfaces) {
    await using client = new Client({ transports: [grpcTransport()], baseUrl: url, binding });
    await scenario(client).catch((e: unknown) => {
      throw new Error(`over ${binding}: ${(e as Error).message}`, { cause: e });
    });
  }
}

describe("NovaOS pauses through AgentBuilder and Client", () => {
  it("pauses for a HITL plan confirmation and resumes the same task with the answer", () =>
    overEveryBinding(async (client) => {
      const paused = asTask(await client.sendMessage("summarise my inbox", { skillId: "approve-plan" }));
      expect(paused.status?.state).toBe(TaskState.INPUT_REQUIRED);
      const statusMessage = paused.status?.message;
      expect(validateMessage(statusMessage)).toBe(true);
      const hitl = extractHitlMessage(statusMessage);
      expect(hitl).toMatchObject({
        hitlType: "plan_confirmation",
        requiresUserAction: true,
        sessionId: paused.contextId,
      });
      expect(hitl?.actions.map((a) => a.id)).toEqual(["approve", "reject"]);
      expect(hitlDetails(hitl!).plan).toEqual({ steps: ["fetch", "summarise"] });

      const answer = createMessageWithHitlResponse("Approved", "approve", hitl!.sessionId, {
        taskId: paused.id,
        inputValue: "go ahead",
      });
      const done = asTask(await client.sendMessage(answer, { skillId: "approve-plan" }));
      expect(done.id).toBe(paused.id);
      expect(done.contextId).toBe(paused.contextId);
      expect(done.status?.state).toBe(TaskState.COMPLETED);
      expect(seen.filter((s) => s.taskId === paused.id).map((s) => s.response)).toEqual([undefined, "approve"]);
      const output = done.artifacts.flatMap((a) => a.parts).find((p) => p.content.case === "text");
      expect(output?.content.value).toBe("plan approved: go ahead");
    }));

  it("pauses for connector OAuth (AUTH_REQUIRED) with connector and auth_url readable by the caller", () =>
    overEveryBinding(async (client) => {
      const paused = asTask(await client.sendMessage("email bob", { skillId: "connect-gmail" }));
      expect(paused.status?.state).toBe(TaskState.AUTH_REQUIRED);
      const oauth = extractOAuthRequired(paused.status?.message);
      expect(oauth?.payload).toMatchObject({
        connector: "gmail",
        authUrl: "https://auth.example/gmail",
        sessionId: paused.contextId,
      });
      expect(oauth?.extra).toEqual({ scopes: ["gmail.send"] });
    }));

  it("pauses for a write confirmation carrying the real callId, and resumes on confirm", () =>
    overEveryBinding(async (client) => {
      const paused = asTask(await client.sendMessage("email bob", { skillId: "send-email" }));
      expect(paused.status?.state).toBe(TaskState.INPUT_REQUIRED);
      const pause = extractWriteConfirmationRequired(paused.status?.message);
      expect(pause?.payload).toMatchObject({ callId: "call_7f3a9c", toolName: "gmail.send" });
      expect(pause?.extra).toEqual({ to: ["bob@example.com"] });

      const confirm = createMessageWithHitlResponse("Confirm", "confirm", paused.contextId, {
        taskId: paused.id,
        metadata: { call_id: pause!.payload.callId },
      });
      const done = asTask(await client.sendMessage(confirm, { skillId: "send-email" }));
      expect([done.id, done.status?.state]).toEqual([paused.id, TaskState.COMPLETED]);
      const output = done.artifacts.flatMap((a) => a.parts).find((p) => p.content.case === "text");
      expect(output?.content.value).toBe("sent (call call_7f3a9c)");
    }));

  it("streams the HITL pause as the last frame, payload intact", () =>
    overEveryBinding(async (client) => {
      let last: unknown;
      for await (const frame of client.sendStreamingMessage("summarise", { skillId: "approve-plan" })) last = frame;
      expect(isLastFrame(last as never)).toBe(true);
      const update = last as { payload: { case: string; value: { status?: { state: TaskState; message?: Message } } } };
      const status =
        update.payload.case === "task" || update.payload.case === "statusUpdate"
          ? update.payload.value.status
          : undefined;
      expect(status?.state).toBe(TaskState.INPUT_REQUIRED);
      expect(extractHitlMessage(status?.message)?.hitlType).toBe("plan_confirmation");
    }));
});
