/**
 * Attack family: requests that are small in bytes but huge in work. One
 * 10 MB request with 600,000 metadata keys held the event loop 1.5 s (parse,
 * decode, store, write back). A request may now hold MAX_REQUEST_VALUES JSON
 * values: past that it is refused with -32602 / HTTP 400 / INVALID_ARGUMENT
 * naming the limit, before it is parsed (JSON-RPC and HTTP+JSON count the
 * text, the gRPC fast path counts the wire), and nothing runs. The limit is
 * the builder's `maxRequestValues`.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PartSchema, SendMessageRequestSchema } from "../../gen/a2a_pb.js";
import { MAX_REQUEST_VALUES } from "../../src/a2a/request-limits.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { rawGrpcCall } from "./raw-grpc.js";
import { ATTACKER, expectUnaffected, type ServedAgent, serveForAttack, userMessage } from "./support.js";

let agent: ServedAgent;
let skillRuns = 0;

beforeAll(async () => {
  const builder = new AgentBuilder({ name: "large", logger: createLogger({ level: "silent" }) });
  builder.skill("echo", async (_ctx, text) => {
    skillRuns++;
    return { output: text };
  });
  agent = await serveForAttack(builder);
});
afterAll(() => agent.close());

/** `{"k0":0,"k1":1,…}` with `n` members, as text. */
function manyKeys(n: number): string {
  const members: string[] = [];
  for (let i = 0; i < n; i++) members.push(`"k${i}":${i}`);
  return `{${members.join(",")}}`;
}

const ATTACK = userMessage("x", { metadata: manyKeys(600_000) });

function expectLimitNamed(text: string): void {
  expect(text).toContain("MAX_REQUEST_VALUES");
}

describe("600,000 metadata keys in one request", () => {
  it("is -32602 over JSON-RPC, naming the limit, and runs nothing", async () => {
    const runs = skillRuns;
    const reply = await agent.jsonRpc("SendMessage", `{"message":${ATTACK}}`);
    expect(reply.body.error.code).toBe(-32602);
    expectLimitNamed(JSON.stringify(reply.body.error));
    expect(skillRuns).toBe(runs);
    await expectUnaffected(agent);
  });

  it("is HTTP 400 over HTTP+JSON, naming the limit", async () => {
    const reply = await agent.httpJson("message:send", `{"message":${ATTACK}}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.status).toBe("INVALID_ARGUMENT");
    expectLimitNamed(JSON.stringify(reply.body.error));
    await expectUnaffected(agent);
  });

  it("is INVALID_ARGUMENT over gRPC, naming the limit", async () => {
    // 600,000 keys are 13 MB in binary, over the 10 MiB message cap: enough keys to pass the limit, then.
    const metadata: Record<string, number> = { skillId: 0 };
    for (let i = 0; i < MAX_REQUEST_VALUES / 2 + 1000; i++) metadata[`k${i}`] = i;
    const request = create(SendMessageRequestSchema, {
      message: {
        messageId: "m-large",
        role: 1,
        metadata,
        parts: [create(PartSchema, { content: { case: "text", value: "x" } })],
      },
    });
    const error = await agent.grpc.sendMessage(request, { headers: ATTACKER }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.InvalidArgument);
    expectLimitNamed((error as ConnectError).rawMessage + JSON.stringify((error as ConnectError).metadata));
    await expectUnaffected(agent);
  });

  it("as many array items in a data part is refused too; just under the limit is served", async () => {
    const items = `[${"0,".repeat(MAX_REQUEST_VALUES)}0]`;
    const refused = await agent.jsonRpc(
      "SendMessage",
      `{"message":${userMessage("x", { parts: `,{"data":${items}}` })}}`,
    );
    expect(refused.body.error.code).toBe(-32602);
    const fits = `[${"0,".repeat(MAX_REQUEST_VALUES / 2)}0]`;
    const served = await agent.jsonRpc(
      "SendMessage",
      `{"message":${userMessage("x", { parts: `,{"data":${fits}}` })}}`,
    );
    expect(served.body.result.task.status.state).toBe("TASK_STATE_COMPLETED");
    await expectUnaffected(agent);
  });
});

describe("the value limit is counted before the request is parsed, on every binding", () => {
  // Over the limit, then text JSON.parse (or fromBinary) would refuse: the count answers first.
  it("HTTP+JSON: -32602 / 400 INVALID_ARGUMENT naming the limit, not a parse error", async () => {
    const body = `{"message":${userMessage("x", { parts: `,{"data":[${"0,".repeat(MAX_REQUEST_VALUES)}` })}`;
    const reply = await agent.httpJson("message:send", body);
    expect(reply.status).toBe(400);
    expect(reply.body.error.status).toBe("INVALID_ARGUMENT");
    expectLimitNamed(JSON.stringify(reply.body.error));
    await expectUnaffected(agent);
  });

  it("gRPC fast path: INVALID_ARGUMENT naming the limit, counted on the wire before decoding", async () => {
    const metadata: Record<string, number> = {};
    for (let i = 0; i < MAX_REQUEST_VALUES / 2 + 10; i++) metadata[`k${i}`] = i;
    const valid = toBinary(SendMessageRequestSchema, create(SendMessageRequestSchema, { message: { metadata } }));
    // A field of wire type 7 at the end: decoding would fail there ("parse binary", INTERNAL).
    const body = new Uint8Array([...valid, 0x0f]);
    const runs = skillRuns;
    const answer = await rawGrpcCall(agent.server.grpcTarget as string, "SendMessage", body, {
      headers: { "x-novaos-tenant-id": "attacker" },
    });
    expect(answer.status).toBe(String(Code.InvalidArgument));
    expectLimitNamed(answer.message);
    expect(skillRuns).toBe(runs);
    await expectUnaffected(agent);
  });
});

describe("maxRequestValues on the AgentBuilder", () => {
  it("sets the limit of every binding", async () => {
    const builder = new AgentBuilder({
      name: "small-limit",
      logger: createLogger({ level: "silent" }),
      maxRequestValues: 200,
    });
    builder.skill("echo", async (_ctx, text) => ({ output: text }));
    const small = await serveForAttack(builder);
    try {
      const metadata: Record<string, number> = { skillId: 0 };
      for (let i = 0; i < 120; i++) metadata[`k${i}`] = i;
      const json = userMessage("x", { metadata: JSON.stringify(metadata).replace('"skillId":0,', "") });
      const viaJsonRpc = await small.jsonRpc("SendMessage", `{"message":${json}}`);
      expect(viaJsonRpc.body.error.code).toBe(-32602);
      expect(viaJsonRpc.body.error.data[0].metadata.maxValues).toBe("200");
      const viaRest = await small.httpJson("message:send", `{"message":${json}}`);
      expect(viaRest.status).toBe(400);
      expect(JSON.stringify(viaRest.body.error)).toContain('"maxValues":"200"');
      const request = create(SendMessageRequestSchema, {
        message: { messageId: "m", role: 1, metadata, parts: [{ content: { case: "text", value: "x" } }] },
      });
      const viaGrpc = await small.grpc.sendMessage(request, { headers: ATTACKER }).then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
      expect(viaGrpc?.code).toBe(Code.InvalidArgument);
      expect(viaGrpc?.rawMessage).toContain("200");
      await expectUnaffected(small);
    } finally {
      await small.close();
    }
  });
});
