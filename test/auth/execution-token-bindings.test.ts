/**
 * `auth: { mode: "executionToken" }` on every binding over real sockets:
 * JSON-RPC, HTTP+JSON (unary and SSE), gRPC's unary fast path, and
 * connect-node (unary with a deadline, and streams). Missing and bad tokens
 * are refused before any method runs, with the binding's status and a
 * challenge; a token of another tenant is not lifted by a spoofed header; a
 * valid token of another user reaches nothing of the owner's — not through
 * GetTask, ListTasks totals, SSE subscribe, push-config listing, nor error
 * messages.
 */
import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentCardSchema } from "../../gen/a2a_pb.js";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import type { CallerIdentity } from "../../src/server/auth/caller-identity.js";
import { InMemoryPushNotificationConfigStore } from "../../src/server/push-config-store.js";
import { type Answer, type AuthWire, grpcWire, httpJsonWire, jsonRpcWire } from "./support/auth-wire.js";
import { type Gateway, runClaims, startGateway } from "./support/execution-tokens.js";

const SECRET = "my secret diagnosis";
const UNAUTHENTICATED = { http: 401, grpc: 16, reason: "UNAUTHENTICATED" };
const PERMISSION_DENIED = { http: 403, grpc: 7, reason: "PERMISSION_DENIED" };

let gateway: Gateway;
let server: AgentServer;
let wires: AuthWire[];
/** What the `diagnose` skill saw of its caller: the identity, and the token its outbound calls would carry. */
const seen: { identity: CallerIdentity; token: string | undefined }[] = [];
const held = new Map<string, () => void>();
const tokens = { alice: "", aliceLater: "", mallory: "", eve: "" };
let aliceTask = "";
let aliceRunning = "";

function taskIdOf(answer: Answer): string {
  const id = (answer.result?.task as { id?: string } | undefined)?.id;
  if (!id) throw new Error(`no task in ${answer.text}`);
  return id;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const message = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text }], ...extra },
});

beforeAll(async () => {
  gateway = await startGateway();
  tokens.alice = await gateway.sign(runClaims("clinic-a", "alice"));
  // A new task's id is its run's: a second task of alice's is a second run.
  tokens.aliceLater = await gateway.sign(runClaims("clinic-a", "alice", "run-alice-2"));
  tokens.mallory = await gateway.sign(runClaims("clinic-a", "mallory"));
  tokens.eve = await gateway.sign(runClaims("clinic-b", "eve"));
  const agent = new AgentBuilder({
    name: "clinic",
    auth: { mode: "executionToken", verifier: gateway.verifier() },
    // Push configs are served when something delivers them: the platform does here (nothing is sent in the test).
    pushNotificationDelivery: "platform",
    pushNotificationStore: new InMemoryPushNotificationConfigStore(),
    extendedAgentCard: create(AgentCardSchema, { name: "clinic (members)" }),
    logger: createLogger({ level: "silent" }),
  });
  agent.skill("diagnose", (ctx) => {
    seen.push({ identity: ctx.identity, token: ctx.executionContext.executionToken });
    return { output: `${SECRET} for ${ctx.identity.userId}` };
  });
  agent.skill("hold", async (ctx) => {
    await new Promise<void>((resolve) => held.set(ctx.taskId, resolve));
    return { output: SECRET };
  });
  server = await listen(agent, { port: 0, grpcPort: 0 });
  wires = [
    jsonRpcWire(server.url),
    httpJsonWire(server.url),
    grpcWire(server.grpcTarget as string),
    grpcWire(server.grpcTarget as string, { deadline: true }),
  ];
  const rpc = wires[0] as AuthWire;
  const done = await rpc.unary(
    "SendMessage",
    message("hi", { metadata: { skillId: "diagnose" } }),
    bearer(tokens.alice),
  );
  aliceTask = taskIdOf(done);
  await rpc.unary(
    "CreateTaskPushNotificationConfig",
    { taskId: aliceTask, url: "https://hooks.alice.example/secret-hook" },
    bearer(tokens.alice),
  );
  const running = await rpc.unary(
    "SendMessage",
    { ...message("wait", { metadata: { skillId: "hold" } }), configuration: { returnImmediately: true } },
    bearer(tokens.aliceLater),
  );
  aliceRunning = taskIdOf(running);
});

afterAll(async () => {
  for (const release of held.values()) release();
  for (const wire of wires) wire.close();
  await server.close();
  await gateway[Symbol.asyncDispose]();
});

function expectRefused(answer: Answer, wire: AuthWire, expected: typeof UNAUTHENTICATED, why: string): void {
  expect(answer.ok, `${wire.name}: ${why}`).toBe(false);
  expect([answer.status, answer.reason], `${wire.name}: ${why}`).toEqual([
    wire.grpc ? expected.grpc : expected.http,
    expected.reason,
  ]);
  expect(answer.text).not.toContain(SECRET);
  expect(answer.text).not.toContain("secret-hook");
}

/** An answer with the task id it names, and a JSON-RPC envelope's request id, blanked. */
const sameBut = (text: string, taskId: string) => text.replaceAll(taskId, "TASK").replace(/"id":\d+/g, '"id":0');

/** Every call a refused caller might try: unary, an SSE / server stream, and a message to a new task. */
const attempts = () =>
  [
    ["GetTask", { id: aliceTask }, "unary"],
    ["ListTasks", {}, "unary"],
    ["GetExtendedAgentCard", {}, "unary"],
    ["SubscribeToTask", { id: aliceRunning }, "stream"],
    ["SendStreamingMessage", message("x", { metadata: { skillId: "diagnose" } }), "stream"],
  ] as const;

async function attempt(wire: AuthWire, headers: Record<string, string>) {
  const answers: [string, Answer][] = [];
  for (const [rpc, request, kind] of attempts()) {
    answers.push([rpc, await wire[kind](rpc, request, headers)]);
  }
  return answers;
}

describe("executionToken auth on every binding", () => {
  it("refuses a call without credentials with 401 / UNAUTHENTICATED and a Bearer challenge", async () => {
    for (const wire of wires) {
      for (const [rpc, answer] of await attempt(wire, {})) {
        expectRefused(answer, wire, UNAUTHENTICATED, `${rpc} without credentials`);
        expect(answer.challenge, `${wire.name} ${rpc}`).toBe('Bearer realm="clinic"');
      }
    }
  });

  it("refuses a forged signature, alg none, an expired token, another issuer or audience, naming the check", async () => {
    const claims = runClaims("clinic-a", "alice");
    const bad: [string, string][] = [
      ["signature", await gateway.forge(claims)],
      ["algorithm", gateway.unsigned(claims)],
      ["expired", await gateway.sign(claims, { exp: Math.floor(Date.now() / 1000) - 3600 })],
      ["issuer", await gateway.sign(claims, { iss: "https://iam.elsewhere.example/" })],
      ["audience", await gateway.sign(claims, { aud: "another-service" })],
    ];
    for (const wire of wires) {
      for (const [reason, token] of bad) {
        for (const [rpc, answer] of await attempt(wire, bearer(token))) {
          expectRefused(answer, wire, UNAUTHENTICATED, `${rpc} with a token refused for its ${reason}`);
          expect(answer.message).toBe(`The execution token was refused (${reason})`);
          expect(answer.challenge).toBe(
            `Bearer realm="clinic", error="invalid_token", error_description="The execution token was refused (${reason})"`,
          );
          expect(answer.text).not.toContain(token);
        }
      }
    }
  });

  it("refuses a token of another tenant under a spoofed tenant header with 403 / PERMISSION_DENIED", async () => {
    for (const wire of wires) {
      const spoofs: Record<string, string>[] = [
        { "X-NovaOS-Tenant-Id": "clinic-a" },
        { "X-NovaOS-User-Id": "alice" },
        { "X-NovaOS-Tenant-Id": "clinic-a", "X-NovaOS-User-Id": "alice", "X-NovaOS-Run-Id": "run-alice" },
      ];
      for (const spoofed of spoofs) {
        for (const [rpc, answer] of await attempt(wire, { ...bearer(tokens.eve), ...spoofed })) {
          expectRefused(answer, wire, PERMISSION_DENIED, `${rpc} with eve's token and ${JSON.stringify(spoofed)}`);
          expect(answer.message).toMatch(/^The X-NovaOS-(Tenant|User)-Id header does not match the execution token$/);
        }
      }
    }
  });

  it("shows a valid token of another user of the tenant nothing: unknown tasks, empty lists, nothing in messages", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    const byId = (id: string): [string, Record<string, unknown>, "unary" | "stream"][] => [
      ["GetTask", { id }, "unary"],
      ["CancelTask", { id }, "unary"],
      ["SubscribeToTask", { id }, "stream"],
      ["SendMessage", message("let me in", { taskId: id }), "unary"],
      ["ListTaskPushNotificationConfigs", { taskId: id }, "unary"],
      ["GetTaskPushNotificationConfig", { taskId: id, id: "any" }, "unary"],
      ["CreateTaskPushNotificationConfig", { taskId: id, url: "https://hooks.mallory.example/" }, "unary"],
      ["DeleteTaskPushNotificationConfig", { taskId: id, id: "any" }, "unary"],
    ];
    for (const wire of wires) {
      for (const foreign of [aliceTask, aliceRunning]) {
        const probes = byId(foreign);
        const controls = byId(unknown);
        for (const [i, [rpc, request, kind]] of probes.entries()) {
          const answer = await wire[kind](rpc as never, request as never, bearer(tokens.mallory));
          const control = controls[i] as (typeof controls)[number];
          const unknownAnswer = await wire[control[2]](rpc as never, control[1] as never, bearer(tokens.mallory));
          expect([answer.ok, answer.reason], `${wire.name} ${rpc}`).toEqual([false, "TASK_NOT_FOUND"]);
          expect(answer.status).toBe(wire.grpc ? 5 : wire.name === "JSON-RPC" ? 200 : 404);
          // Exactly the answer an unknown id gets: the id the caller sent is all that differs.
          expect(sameBut(answer.text, foreign)).toBe(sameBut(unknownAnswer.text, unknown));
          expect(answer.text).not.toContain(SECRET);
          expect(answer.text).not.toContain("secret-hook");
        }
      }
      const listed = await wire.unary("ListTasks", {}, bearer(tokens.mallory));
      expect(listed.result, wire.name).toMatchObject({ tasks: [], totalSize: 0 });
      const filtered = await wire.unary("ListTasks", { status: "TASK_STATE_COMPLETED" }, bearer(tokens.mallory));
      expect(filtered.result?.totalSize ?? 0, wire.name).toBe(0);
    }
    // The owner still reaches all of it.
    for (const wire of wires) {
      const listed = await wire.unary("ListTasks", {}, bearer(tokens.alice));
      expect(listed.result?.totalSize, wire.name).toBe(2);
      const configs = await wire.unary("ListTaskPushNotificationConfigs", { taskId: aliceTask }, bearer(tokens.alice));
      expect(JSON.stringify(configs.result)).toContain("secret-hook");
      const watched = await wire.stream("SubscribeToTask", { id: aliceRunning }, bearer(tokens.alice));
      expect(watched.ok, wire.name).toBe(true);
    }
  });
});

describe("the verified caller", () => {
  it("reaches the skill as ctx.identity, and its verified token is the one ctx.executionContext carries", async () => {
    const rpc = wires[0] as AuthWire;
    seen.length = 0;
    const answer = await rpc.unary("SendMessage", message("hi", { metadata: { skillId: "diagnose" } }), {
      ...bearer(tokens.mallory),
      // Pod headers that agree with the token are fine; the identity comes from the token either way.
      "X-NovaOS-Tenant-Id": "clinic-a",
    });
    expect(JSON.stringify(answer.result)).toContain(`${SECRET} for mallory`);
    const [{ identity, token }] = seen as [(typeof seen)[number]];
    expect(identity.toJSON()).toEqual({
      mode: "executionToken",
      principal: "8:clinic-amallory",
      tenantId: "clinic-a",
      userId: "mallory",
      runId: "run-mallory",
      agentId: "agent-1",
      instanceId: "instance-1",
      scopes: [],
    });
    expect(identity.token).toBe(tokens.mallory);
    expect(token).toBe(tokens.mallory);
    expect(JSON.stringify(identity)).not.toContain(tokens.mallory);
  });

  it("takes the token from X-NovaOS-Execution-Token too, and refuses two different tokens", async () => {
    const rpc = wires[0] as AuthWire;
    const forwarded = await rpc.unary("ListTasks", {}, { "X-NovaOS-Execution-Token": tokens.alice });
    expect(forwarded.result?.totalSize).toBe(2);
    const both = await rpc.unary(
      "ListTasks",
      {},
      { ...bearer(tokens.alice), "X-NovaOS-Execution-Token": tokens.alice },
    );
    expect(both.result?.totalSize).toBe(2);
    const differing = await rpc.unary(
      "ListTasks",
      {},
      {
        ...bearer(tokens.mallory),
        "X-NovaOS-Execution-Token": tokens.alice,
      },
    );
    expect([differing.status, differing.reason]).toEqual([401, "UNAUTHENTICATED"]);
    expect(differing.message).toBe("Authorization and X-NovaOS-Execution-Token carry different tokens");
  });

  it("keeps the agent card public and the extended card behind the token", async () => {
    const card = await fetch(`${server.url}.well-known/agent-card.json`);
    expect(card.status).toBe(200);
    for (const wire of wires) {
      const refused = await wire.unary("GetExtendedAgentCard", {}, {});
      expect(refused.reason, wire.name).toBe("UNAUTHENTICATED");
      const extended = await wire.unary("GetExtendedAgentCard", {}, bearer(tokens.mallory));
      expect(extended.result?.name, wire.name).toBe("clinic (members)");
    }
  });
});
