/**
 * Skill registration, routing, and what a SkillResult (or a thrown error)
 * becomes on the task, over a real socket.
 */
import { afterEach, describe, expect, it } from "vitest";
import { platformContextMetadata } from "../../src/messages/platform-context.js";
import { NOVAOS_METADATA_PART_KEY, NOVAOS_SKILL_METADATA_CONTENT_TYPE } from "../../src/messages/wire-keys.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { InMemoryPushNotificationConfigStore } from "../../src/server/push-config-store.js";
import { describeException, type SkillResult, type SkillStatus } from "../../src/server/skill-result.js";
import { deferred, type RunningServer, result, serveAgent, userMessage } from "./support/agent-server.js";

const logger = createLogger({ level: "silent" });

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serveOne(handler: () => SkillResult | Promise<SkillResult>, options = {}) {
  const agent = new AgentBuilder({ name: "results", logger, ...options });
  agent.skill("only", handler);
  running = await serveAgent(agent);
  return running.url;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON tasks are inspected freely.
async function sendTask(url: string, text = "go", extra: Record<string, unknown> = {}): Promise<any> {
  return (await result(url, "SendMessage", { message: userMessage(text), ...extra })).task;
}

describe("registration", () => {
  it("keys a skill by its id (default: the name) and refuses a second skill with the same id", () => {
    const agent = new AgentBuilder({ name: "reg", logger });
    agent.skill("greet", async () => ({ output: "hi" }));
    agent.skill("Translate text", { id: "translate" }, async () => ({ output: "x" }));
    expect([...agent.skills.keys()]).toEqual(["greet", "translate"]);
    expect(() => agent.skill("other", { id: "greet" }, async () => ({}))).toThrow(/already registered/);
    expect(() => agent.skill("", async () => ({}))).toThrow(TypeError);
  });
});

describe("routing", () => {
  async function twoSkills() {
    const agent = new AgentBuilder({ name: "router", logger });
    agent.skill("alpha", async () => ({ output: "from alpha" }));
    agent.skill("beta", { id: "b" }, async () => ({ output: "from beta" }));
    running = await serveAgent(agent);
    return running.url;
  }

  it("routes every request of a single-skill agent to its skill", async () => {
    const url = await serveOne(async () => ({ output: "only" }));
    const task = await sendTask(url, "x", {});
    expect(task.status.message.parts[0].text).toBe("only");
    const named = await result(url, "SendMessage", { message: userMessage("x", { metadata: { skillId: "other" } }) });
    expect(named.task.status.state).toBe("TASK_STATE_COMPLETED");
  });

  it("routes by message.metadata.skillId, then by the platform context's config.skill", async () => {
    const url = await twoSkills();
    const byMetadata = await result(url, "SendMessage", { message: userMessage("x", { metadata: { skillId: "b" } }) });
    expect(byMetadata.task.status.message.parts[0].text).toBe("from beta");
    const byConfig = await result(url, "SendMessage", {
      message: userMessage("x"),
      metadata: platformContextMetadata({ config: { skill: "alpha" } }),
    });
    expect(byConfig.task.status.message.parts[0].text).toBe("from alpha");
  });

  it("answers a REJECTED task (a result, not an error) when no skill is named or the name is unknown", async () => {
    const url = await twoSkills();
    const unnamed = await sendTask(url);
    expect(unnamed.status.state).toBe("TASK_STATE_REJECTED");
    expect(unnamed.status.message.parts[0].text).toContain("alpha, b");
    const unknown = await result(url, "SendMessage", { message: userMessage("x", { metadata: { skillId: "gamma" } }) });
    expect(unknown.task.status.state).toBe("TASK_STATE_REJECTED");
    expect(unknown.task.status.message.parts[0].text).toContain("'gamma'");
    expect((await result(url, "GetTask", { id: unknown.task.id })).status.state).toBe("TASK_STATE_REJECTED");
  });
});

describe("SkillResult status table", () => {
  it.each([
    ["COMPLETED", "TASK_STATE_COMPLETED"],
    ["FAILED", "TASK_STATE_FAILED"],
    ["WAITING_USER", "TASK_STATE_INPUT_REQUIRED"],
    ["REJECTED", "TASK_STATE_REJECTED"],
    ["AUTH_REQUIRED", "TASK_STATE_AUTH_REQUIRED"],
    ["QUEUED", "TASK_STATE_SUBMITTED"],
    ["RUNNING", "TASK_STATE_WORKING"],
    ["IN_PROGRESS", "TASK_STATE_WORKING"],
    ["ERROR", "TASK_STATE_FAILED"],
    [undefined, "TASK_STATE_COMPLETED"],
  ] as [SkillStatus | undefined, string][])("maps %s to %s", async (status, state) => {
    const url = await serveOne(async () => ({ output: "out", ...(status ? { status } : {}) }));
    expect((await sendTask(url)).status.state).toBe(state);
  });

  it("fails the task on an unknown status, naming the value", async () => {
    // @ts-expect-error SkillResult.status is a closed union; only JavaScript can return another value.
    const unknown: SkillResult = { output: "out", status: "DONE" };
    const url = await serveOne(async () => unknown);
    const task = await sendTask(url);
    expect(task.status.state).toBe("TASK_STATE_FAILED");
    expect(task.status.message.parts[0].text).toContain("'DONE'");
  });

  it("puts a completed output in an artifact and in the status message, metadata as a second tagged data part", async () => {
    const url = await serveOne(async () => ({ output: "the answer", metadata: { score: 0.9 } }));
    const task = await sendTask(url);
    const [artifact] = task.artifacts;
    expect(artifact.name).toBe("output");
    expect(artifact.parts[0]).toEqual({ text: "the answer" });
    const metadataPart = {
      data: { score: 0.9 },
      mediaType: NOVAOS_SKILL_METADATA_CONTENT_TYPE,
      metadata: { [NOVAOS_METADATA_PART_KEY]: NOVAOS_SKILL_METADATA_CONTENT_TYPE },
    };
    expect(artifact.parts[1]).toEqual(metadataPart);
    expect(task.status.message.parts).toEqual([{ text: "the answer" }, metadataPart]);
    expect(task.status.message.role).toBe("ROLE_AGENT");
  });

  it("sends a non-string output as a JSON data part", async () => {
    const url = await serveOne(async () => ({ output: { items: [1, 2] } }));
    const task = await sendTask(url);
    expect(task.artifacts[0].parts[0]).toEqual({ data: { items: [1, 2] }, mediaType: "application/json" });
  });

  it("explains a FAILED result with its error", async () => {
    const url = await serveOne(async () => ({ output: "", status: "FAILED", error: "upstream said no" }));
    const task = await sendTask(url);
    expect(task.status.message.parts[0].text).toBe("upstream said no");
    expect(task.artifacts).toBeUndefined();
  });

  it("fails a task whose skill returned something that is not a SkillResult", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the point is a wrong return type.
    const url = await serveOne((async () => "just a string") as any);
    const task = await sendTask(url);
    expect(task.status.state).toBe("TASK_STATE_FAILED");
    expect(task.status.message.parts[0].text).toContain("string instead of a SkillResult");
  });
});

describe("a skill that throws", () => {
  it("fails the task with '<type>: <message>'", async () => {
    class QuotaError extends Error {}
    const url = await serveOne(async () => {
      throw new QuotaError("boom");
    });
    const task = await sendTask(url);
    expect(task.status.state).toBe("TASK_STATE_FAILED");
    expect(task.status.message.parts[0].text).toBe("QuotaError: boom");
  });

  it("names only the type when the error has no message", () => {
    const timeout = new Error();
    timeout.name = "TimeoutError";
    expect(describeException(timeout)).toBe("TimeoutError");
    expect(describeException(new TypeError("bad"))).toBe("TypeError: bad");
    expect(describeException("plain string")).toBe("Error: plain string");
  });
});

describe("maskOutputPii", () => {
  it("masks output, metadata and errors when on, and leaves them alone when off", async () => {
    const skill = async (): Promise<SkillResult> => ({
      output: "mail me at jane.doe@example.com",
      metadata: { phone: "555-123-4567" },
    });
    const masked = await sendTask(await serveOne(skill, { maskOutputPii: true }));
    expect(masked.status.message.parts[0].text).not.toContain("jane.doe@example.com");
    expect(JSON.stringify(masked.status.message.parts[1])).not.toContain("555-123-4567");
    await running?.close();
    const plain = await sendTask(await serveOne(skill));
    expect(plain.status.message.parts[0].text).toContain("jane.doe@example.com");
  });
});

describe("direct Message replies", () => {
  it("fail the task of a skill not registered with directReplies, naming the option", async () => {
    const url = await serveOne(async () => ({ output: "hi", replyAs: "message" }));
    const task = await sendTask(url);
    expect(task.status.state).toBe("TASK_STATE_FAILED");
    expect(task.status.message.parts[0].text).toContain("{ directReplies: true }");
  });

  it("complete a task as usual when the caller needs one now (returnImmediately, push notifications)", async () => {
    const agent = new AgentBuilder({
      name: "direct",
      logger,
      pushNotificationStore: new InMemoryPushNotificationConfigStore(),
      pushNotificationDelivery: "platform",
    });
    const done = deferred();
    agent.skill("quick", { directReplies: true }, async () => {
      await done.promise;
      return { output: "hi", replyAs: "message" };
    });
    running = await serveAgent(agent);
    const early = await result(running.url, "SendMessage", {
      message: userMessage("x"),
      configuration: { returnImmediately: true },
    });
    expect(early.task.status.state).toBe("TASK_STATE_WORKING");
    done.resolve();
    await agent.requestHandler().whenIdle();
    const stored = await result(running.url, "GetTask", { id: early.task.id });
    expect(stored.status.state).toBe("TASK_STATE_COMPLETED");
    expect(stored.artifacts[0].parts[0].text).toBe("hi");
    const pushed = await result(running.url, "SendMessage", {
      message: userMessage("y"),
      configuration: { taskPushNotificationConfig: { url: "https://hooks.example/a2a" } },
    });
    expect(pushed.task.status.state).toBe("TASK_STATE_COMPLETED");
  });
});
