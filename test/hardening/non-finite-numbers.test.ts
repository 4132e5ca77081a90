/**
 * Attack family: numbers JSON cannot carry. `1e400` parses to Infinity; a
 * binary Value may hold NaN. Stored, such a task could not be written back:
 * the skill ran but its caller got -32603, and ListTasks failed for the whole
 * partition. Now the request is refused on every binding, and a number that
 * reaches a task anyway (a skill's own output) is written as null.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PartSchema, SendMessageRequestSchema } from "../../gen/a2a_pb.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { ATTACKER, expectUnaffected, type ServedAgent, serveForAttack, userMessage } from "./support.js";

const dataPart = (value: number) =>
  create(PartSchema, {
    content: { case: "data", value: { $typeName: "google.protobuf.Value", kind: { case: "numberValue", value } } },
  });

let agent: ServedAgent;
let skillRuns = 0;

beforeAll(async () => {
  const builder = new AgentBuilder({ name: "non-finite", logger: createLogger({ level: "silent" }) });
  builder.skill("echo", async (_ctx, text) => {
    skillRuns++;
    return { output: text };
  });
  builder.skill("nan", async (ctx) => {
    await ctx.taskUpdater.addArtifact([dataPart(Number.NEGATIVE_INFINITY)], {
      artifactId: "written",
      metadata: { at: Number.NaN },
    });
    return { output: { score: Number.NaN, ok: 1 }, metadata: { ratio: Number.POSITIVE_INFINITY } };
  });
  agent = await serveForAttack(builder);
});
afterAll(() => agent.close());

const ATTACKS = [
  ["message metadata", userMessage("x", { metadata: '{"x":1e400}' }), "message.metadata.x"],
  ["a data part", userMessage("x", { parts: ',{"data":{"deep":[-1e400]}}' }), "message.parts[1].data.deep[0]"],
] as const;

describe("1e400 in a request", () => {
  it.each(ATTACKS)("in %s is -32602 over JSON-RPC, naming the field, and runs nothing", async (_, message, field) => {
    const runs = skillRuns;
    const reply = await agent.jsonRpc("SendMessage", `{"message":${message}}`);
    expect(reply.body.error.code).toBe(-32602);
    expect(JSON.stringify(reply.body.error.data)).toContain(field);
    expect(skillRuns).toBe(runs);
    await expectUnaffected(agent);
  });

  it.each(ATTACKS)("in %s is HTTP 400 over HTTP+JSON", async (_, message, field) => {
    const reply = await agent.httpJson("message:send", `{"message":${message}}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.status).toBe("INVALID_ARGUMENT");
    expect(JSON.stringify(reply.body.error.details)).toContain(field);
    await expectUnaffected(agent);
  });

  it("in request metadata is refused too", async () => {
    const reply = await agent.jsonRpc("SendMessage", `{"message":${userMessage("x")},"metadata":{"n":1e999}}`);
    expect(reply.body.error.code).toBe(-32602);
    await expectUnaffected(agent);
  });

  it("over Connect JSON (gRPC port) is invalid_argument", async () => {
    const reply = await agent.connectJson(
      "SendMessage",
      `{"message":${userMessage("x", { metadata: '{"x":1e400}' })}}`,
    );
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_argument");
    await expectUnaffected(agent);
  });
});

describe("NaN and Infinity in a binary gRPC request", () => {
  it.each([
    ["a data part", Number.NaN],
    ["a data part", Number.POSITIVE_INFINITY],
  ])("in %s (%s) is INVALID_ARGUMENT", async (_, value) => {
    const request = create(SendMessageRequestSchema, {
      message: {
        messageId: "m-nan",
        role: 1,
        metadata: { skillId: "echo" },
        parts: [
          create(PartSchema, {
            content: {
              case: "data",
              value: { $typeName: "google.protobuf.Value", kind: { case: "numberValue", value } },
            },
          }),
        ],
      },
    });
    const error = await agent.grpc.sendMessage(request, { headers: ATTACKER }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.InvalidArgument);
    await expectUnaffected(agent);
  });

  it("in message metadata is INVALID_ARGUMENT", async () => {
    const request = create(SendMessageRequestSchema, {
      message: {
        messageId: "m-nan",
        role: 1,
        metadata: { skillId: "echo", n: Number.NaN },
        parts: [create(PartSchema, { content: { case: "text", value: "x" } })],
      },
    });
    await expect(agent.grpc.sendMessage(request, { headers: ATTACKER })).rejects.toMatchObject({
      code: Code.InvalidArgument,
    });
    await expectUnaffected(agent);
  });
});

describe("a skill that produces NaN and Infinity", () => {
  it("gets its task written with null in their place on every binding, and the partition still lists", async () => {
    const sent = await agent.jsonRpc("SendMessage", `{"message":${userMessage("x", { skillId: "nan" })}}`);
    const task = sent.body.result.task;
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(JSON.stringify(task.artifacts)).toContain('{"score":null,"ok":1}');
    expect(JSON.stringify(task.artifacts)).toContain('"ratio":null');
    expect(task.artifacts[0]).toMatchObject({ artifactId: "written", parts: [{ data: null }], metadata: { at: null } });
    // Connect's JSON writer is protobuf-es's own, which refuses NaN: the stored task holds none.
    const viaConnect = await agent.connectJson("GetTask", `{"id":"${task.id}"}`);
    expect(viaConnect.status).toBe(200);
    expect((await agent.connectJson("ListTasks", "{}")).status).toBe(200);
    const viaRest = await agent.httpJson(`tasks/${task.id}`);
    expect(viaRest.status).toBe(200);
    expect(JSON.stringify(viaRest.body.artifacts)).toContain('{"score":null,"ok":1}');
    const viaGrpc = await agent.grpc.getTask({ id: task.id }, { headers: ATTACKER });
    expect(viaGrpc.id).toBe(task.id);
    await expectUnaffected(agent);
  });
});
