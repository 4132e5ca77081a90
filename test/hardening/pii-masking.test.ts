/**
 * Attack family: input that broke PII masking. `maskPii` overflowed its
 * stack on ~8 MB of digit groups: with `maskOutputPii` the task then stayed
 * WORKING for ever, and `ctx.logger` calls threw into the skill. Errors
 * reached the logs unmasked. Now masking cannot throw, every logger masks
 * Errors, and a result that cannot be recorded fails the task.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { expectUnaffected, type ServedAgent, serveForAttack, userMessage } from "./support.js";

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
