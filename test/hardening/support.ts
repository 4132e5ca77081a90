/**
 * Test support for the hardening suite: one agent served by `listen(agent)`
 * on all three bindings, raw callers for each (so an attack is sent exactly
 * as written), and the check every attack ends with: the process still
 * answers, the attacked tenant's store still lists and reads, and another
 * tenant's task is still there.
 */
import http2 from "node:http2";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { expect } from "vitest";
import { A2AService } from "../../gen/a2a_pb.js";
import { listen } from "../../src/node/index.js";
import type { AgentServer } from "../../src/node/serve-agent.js";
import type { AgentBuilder } from "../../src/server/agent-builder.js";

export const ATTACKER = { "A2A-Version": "1.0", "X-NovaOS-Tenant-Id": "attacker" } as const;
export const BYSTANDER = { "A2A-Version": "1.0", "X-NovaOS-Tenant-Id": "bystander" } as const;

export interface JsonReply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected freely in tests.
  readonly body: any;
}

let nextId = 1;

export interface ServedAgent {
  readonly server: AgentServer;
  /** A JSON-RPC call with a raw JSON text for params. */
  jsonRpc(method: string, paramsText: string, headers?: Record<string, string>): Promise<JsonReply>;
  /** An HTTP+JSON call (POST with a raw JSON body, or GET). */
  httpJson(path: string, bodyText?: string, headers?: Record<string, string>): Promise<JsonReply>;
  /** A Connect-protocol JSON call on the gRPC port (HTTP/2), with a raw JSON body. */
  connectJson(method: string, bodyText: string, headers?: Record<string, string>): Promise<JsonReply>;
  /** A connect-es gRPC client of the agent. */
  readonly grpc: ReturnType<typeof createClient<typeof A2AService>>;
  /** The id of the task the bystander tenant created before the attack. */
  readonly bystanderTaskId: string;
  close(): Promise<void>;
}

async function json(response: Response): Promise<JsonReply> {
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Serves `agent` (which must have an `echo` skill) and gives the bystander tenant one task. */
// biome-ignore lint/suspicious/noExplicitAny: any tools type serves alike.
export async function serveForAttack(agent: AgentBuilder<any>): Promise<ServedAgent> {
  const server = await listen(agent, { port: 0, grpcPort: 0 });
  const sessions = new Http2SessionManager(`http://${server.grpcTarget}`);
  const served: Omit<ServedAgent, "bystanderTaskId"> = {
    server,
    jsonRpc: async (method, paramsText, headers = ATTACKER) =>
      json(
        await fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: `{"jsonrpc":"2.0","id":${nextId++},"method":"${method}","params":${paramsText}}`,
        }),
      ),
    httpJson: async (path, bodyText, headers = ATTACKER) =>
      json(
        await fetch(`${server.url}${path}`, {
          method: bodyText === undefined ? "GET" : "POST",
          headers: { "content-type": "application/a2a+json", ...headers },
          ...(bodyText === undefined ? {} : { body: bodyText }),
        }),
      ),
    connectJson: (method, bodyText, headers = ATTACKER) =>
      new Promise<JsonReply>((resolve, reject) => {
        const session = http2.connect(`http://${server.grpcTarget}`);
        session.on("error", reject);
        const request = session.request({
          ":method": "POST",
          ":path": `/lf.a2a.v1.A2AService/${method}`,
          "content-type": "application/json",
          ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
        });
        let status = 0;
        let text = "";
        request.on("response", (head) => {
          status = Number(head[":status"]);
        });
        request.setEncoding("utf8");
        request.on("data", (chunk: string) => {
          text += chunk;
        });
        request.on("end", () => {
          session.close();
          resolve({ status, body: text ? JSON.parse(text) : undefined });
        });
        request.on("error", reject);
        request.end(bodyText);
      }),
    grpc: createClient(
      A2AService,
      createGrpcTransport({ baseUrl: `http://${server.grpcTarget}`, sessionManager: sessions }),
    ),
    close: async () => {
      sessions.abort();
      await server.close();
    },
  };
  const created = await served.jsonRpc("SendMessage", `{"message":${userMessage("bystander's")}}`, BYSTANDER);
  return { ...served, bystanderTaskId: created.body.result.task.id as string };
}

/** A user message routed to `skillId` (default `echo`), as JSON text, with raw JSON text spliced in. */
export function userMessage(text: string, { metadata = "{}", parts = "", skillId = "echo" } = {}): string {
  const meta = metadata === "{}" ? `{"skillId":"${skillId}"}` : `{"skillId":"${skillId}",${metadata.slice(1)}`;
  return `{"messageId":"${crypto.randomUUID()}","role":"ROLE_USER","parts":[{"text":${JSON.stringify(text)}}${parts}],"metadata":${meta}}`;
}

/** After an attack: the agent answers on every binding, both tenants' stores list and read. */
export async function expectUnaffected(agent: ServedAgent): Promise<void> {
  const echo = await agent.jsonRpc("SendMessage", `{"message":${userMessage("after")}}`);
  expect(echo.body.result?.task?.status?.state).toBe("TASK_STATE_COMPLETED");
  const listed = await agent.jsonRpc("ListTasks", "{}");
  expect(listed.body.error).toBeUndefined();
  expect(listed.body.result.tasks.length).toBeGreaterThan(0);
  const viaRest = await agent.httpJson("tasks");
  expect(viaRest.status).toBe(200);
  const viaGrpc = await agent.grpc.listTasks({}, { headers: ATTACKER });
  expect(viaGrpc.tasks.length).toBe(listed.body.result.tasks.length);
  const bystander = await agent.jsonRpc("GetTask", `{"id":"${agent.bystanderTaskId}"}`, BYSTANDER);
  expect(bystander.body.result?.id).toBe(agent.bystanderTaskId);
  const bystanderList = await agent.grpc.listTasks({}, { headers: BYSTANDER });
  expect(bystanderList.tasks.map((t) => t.id)).toContain(agent.bystanderTaskId);
}
