/**
 * Attack family: input that broke PII masking. `maskPii` overflowed its
 * stack on ~8 MB of digit groups: with `maskOutputPii` the task then stayed
 * WORKING for ever, and `ctx.logger` calls threw into the skill. Errors
 * reached the logs unmasked. `maskPiiInObject` turned an own `__proto__` key
 * into the copy's prototype, so the key (and what it held) vanished from the
 * masked output. Now masking is linear and cannot throw, every logger masks
 * Errors, `__proto__` is copied as data, and a result that cannot be
 * recorded fails the task; each attack is sent by the caller on every binding.
 */
import { Writable } from "node:stream";
import { fromJsonString, toJsonString } from "@bufbuild/protobuf";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SendMessageRequestSchema, TaskSchema } from "../../gen/a2a_pb.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { ADVERSARIAL_PII_UNITS } from "../security/support/adversarial-pii.js";
import { ATTACKER, expectUnaffected, type ServedAgent, serveForAttack, userMessage } from "./support.js";

const RUNS_OF_DIGITS = "1 ".repeat(4_000_000);
const logLines: string[] = [];
let agent: ServedAgent;
let loggedWithoutThrowing = false;

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const builder = new AgentBuilder({ name: "pii", maskOutputPii: true, logger: createLogger({ destination }) });
  builder.skill("echo", async (_ctx, text) => ({ output: text }));
  builder.skill("digits", async () => ({ output: RUNS_OF_DIGITS }));
  builder.skill("log", async (ctx) => {
    ctx.logger.info(RUNS_OF_DIGITS);
    ctx.logger.error(new Error("no account for jane.doe@example.com", { cause: new Error("call 555-123-4567") }));
    loggedWithoutThrowing = true;
    return { output: "logged" };
  });
  builder.skill("bigint", async () => ({ output: { n: 1n } as never }));
  builder.skill("metadata", async (ctx) => {
    ctx.logger.info({ metadata: ctx.requestMetadata }, "request metadata");
    return { output: ctx.requestMetadata ?? null };
  });
  builder.skill("throws", async () => {
    const cause = new Error("upstream answered for 555-123-4567");
    throw Object.assign(new Error("no account for jane.doe@example.com", { cause }), { user: "a@b.cd" });
  });
  agent = await serveForAttack(builder);
});
afterAll(() => agent.close());

describe("PII masking under attack", () => {
  it("masks an 8 MB run of digit groups in a skill's output and completes the task", async () => {
    const reply = await agent.jsonRpc("SendMessage", `{"message":${userMessage("x", { skillId: "digits" })}}`);
    const task = reply.body.result.task;
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    const text = task.artifacts[0].parts[0].text as string;
    expect(text).toContain("[PHONE]");
    expect(text).not.toContain("1 1 1 1 1 1 1 1");
    await expectUnaffected(agent);
  });

  it("lets ctx.logger take the same run and an Error full of PII, masking both", async () => {
    const reply = await agent.jsonRpc("SendMessage", `{"message":${userMessage("x", { skillId: "log" })}}`);
    expect(reply.body.result.task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(loggedWithoutThrowing).toBe(true);
    const logs = logLines.join("");
    expect(logs).toContain("no account for [EMAIL]");
    expect(logs).toContain("call [PHONE]");
    expect(logs).not.toContain("jane.doe@example.com");
    expect(logs).not.toContain("555-123-4567");
    await expectUnaffected(agent);
  });

  it("fails a task whose result cannot be recorded instead of leaving it WORKING", async () => {
    const reply = await agent.jsonRpc("SendMessage", `{"message":${userMessage("x", { skillId: "bigint" })}}`);
    const task = reply.body.result.task;
    expect(task.status.state).toBe("TASK_STATE_FAILED");
    expect(JSON.stringify(task.status.message)).toContain("could not be recorded");
    await expectUnaffected(agent);
  });
});

/** The binding a SendMessage goes over: the task it answered, as its state and its JSON text. */
type Send = (paramsText: string) => Promise<{ state: string; text: string }>;

function bindings(): [string, Send][] {
  const fromJson: Send = async (paramsText) => {
    const reply = await agent.jsonRpc("SendMessage", paramsText);
    return { state: reply.body.result.task.status.state, text: JSON.stringify(reply.body.result.task) };
  };
  const fromRest: Send = async (paramsText) => {
    const reply = await agent.httpJson("message:send", paramsText);
    expect(reply.status).toBe(200);
    return { state: reply.body.task.status.state, text: JSON.stringify(reply.body.task) };
  };
  const fromGrpc: Send = async (paramsText) => {
    const request = fromJsonString(SendMessageRequestSchema, paramsText);
    const reply = await agent.grpc.sendMessage(request, { headers: ATTACKER });
    if (reply.payload.case !== "task") throw new Error(`expected a task, got ${reply.payload.case}`);
    const text = toJsonString(TaskSchema, reply.payload.value);
    return { state: JSON.parse(text).status.state, text };
  };
  return [
    ["JSON-RPC", fromJson],
    ["HTTP+JSON", fromRest],
    ["gRPC", fromGrpc],
  ];
}

/** The text of the agent's output artifact, from a task's JSON text. */
const outputText = (taskText: string): string => JSON.parse(taskText).artifacts[0].parts[0].text;

describe("PII masking under attack, sent by the caller on every binding", () => {
  it.each(bindings())(
    "masks a 7 MB run of digit groups echoed back over %s and completes the task",
    async (_, send) => {
      const run = "1 ".repeat(3_500_000);
      const { state, text } = await send(`{"message":${userMessage(run)}}`);
      expect(state).toBe("TASK_STATE_COMPLETED");
      const output = outputText(text);
      expect(output).toContain("[PHONE]");
      expect(output).not.toContain("1 1 1 1 1 1 1 1");
      await expectUnaffected(agent);
    },
    120_000,
  );

  it.each(bindings())(
    "copies an own __proto__ key as data, masked, over %s",
    async (_, send) => {
      const metadata = '{"__proto__":{"contact":"jane.doe@example.com"},"note":"call 555-123-4567"}';
      const logged = logLines.length;
      const { state, text } = await send(
        `{"message":${userMessage("x", { skillId: "metadata" })},"metadata":${metadata}}`,
      );
      expect(state).toBe("TASK_STATE_COMPLETED");
      expect(text).toContain('{"__proto__":{"contact":"[EMAIL]"},"note":"call [PHONE]"}');
      expect(text).not.toContain("jane.doe@example.com");
      const logs = logLines.slice(logged).join("");
      expect(logs).toContain('"__proto__":{"contact":"[EMAIL]"}');
      expect(logs).not.toContain("jane.doe@example.com");
      // Nothing reached a prototype, in the copy or in the process.
      expect(({} as Record<string, unknown>).contact).toBeUndefined();
      await expectUnaffected(agent);
    },
    60_000,
  );

  it.each(bindings())(
    "masks a skill's Error full of PII in the log (message, stack, cause, own fields) and in the FAILED task over %s",
    async (_, send) => {
      const logged = logLines.length;
      const { state, text } = await send(`{"message":${userMessage("x", { skillId: "throws" })}}`);
      expect(state).toBe("TASK_STATE_FAILED");
      // The status message's text and its skill_error detail alike.
      expect(text).toContain("no account for [EMAIL]");
      const logs = logLines.slice(logged).join("");
      const line = JSON.parse(logs.split("\n").find((l) => l.includes('"skill failed"')) ?? "{}");
      expect(line.err).toMatchObject({
        message: "no account for [EMAIL]: upstream answered for [PHONE]",
        user: "[EMAIL]",
      });
      expect(line.err.stack).toContain("caused by: Error: upstream answered for [PHONE]");
      for (const secret of ["jane.doe@example.com", "555-123-4567", "a@b.cd"]) {
        expect(logs).not.toContain(secret);
        expect(text).not.toContain(secret);
      }
      await expectUnaffected(agent);
    },
    60_000,
  );

  it("never throws on generated adversarial text up to 8 MB on any binding, and masks what it knows around it", async () => {
    const sends = bindings();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: sends.length - 1 }),
        fc.constantFrom(...ADVERSARIAL_PII_UNITS),
        fc.integer({ min: 1, max: 8 * 1024 * 1024 }),
        async (binding, unit, bytes) => {
          // Sized in UTF-8 bytes (some units are multi-byte), so every request fits the 10 MiB body cap.
          const pad = unit.repeat(Math.ceil(bytes / 2 / Buffer.byteLength(unit)));
          const { state, text } = await sends[binding]![1](
            `{"message":${userMessage(`${pad}\nmail jane.doe@example.com\n${pad}`)}}`,
          );
          expect(state).toBe("TASK_STATE_COMPLETED");
          const output = outputText(text);
          expect(output).not.toContain("jane.doe@example.com");
          // A private-key header in the padding swallows the lines after it as [SECRET]; else the placeholder is there.
          if (!pad.includes("-----BEGIN")) expect(output).toContain("mail [EMAIL]");
        },
      ),
      { numRuns: 6 },
    );
    await expectUnaffected(agent);
  }, 300_000);
});
