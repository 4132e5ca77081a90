/**
 * What a skill sees in `ctx`: the platform context from request then message
 * metadata, the pod headers, secrets, tools, logging and custom headers.
 */
import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SealedEnvelopeError, SecretNotDeliveredError } from "../../src/errors/novaos-errors.js";
import { platformContextMetadata } from "../../src/messages/platform-context.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder, type AgentBuilderOptions } from "../../src/server/agent-builder.js";
import type { AgentExecutionContext } from "../../src/server/agent-execution-context.js";
import type { SecretSource } from "../../src/server/secret-source.js";
import { ToolBindings } from "../../src/tools/tool-bindings.js";
import { ToolsNotConfiguredError } from "../../src/tools/tool-errors.js";
import { type RunningServer, rpc, serveAgent, userMessage, V1 } from "./support/agent-server.js";

const logger = createLogger({ level: "silent" });

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Runs one request and hands back what `probe` read from the context. */
async function probe<T, TTools = never>(
  read: (ctx: AgentExecutionContext<TTools>) => T | Promise<T>,
  params: Record<string, unknown>,
  headers: Record<string, string> = V1,
  options: Partial<AgentBuilderOptions<TTools>> = {},
): Promise<T> {
  let seen: { value: T } | { error: unknown } | undefined;
  const agent = new AgentBuilder<TTools>({ name: "ctx-agent", logger, ...options });
  agent.skill("probe", async (ctx) => {
    try {
      seen = { value: await read(ctx) };
    } catch (error) {
      seen = { error };
    }
    return { output: "ok" };
  });
  running = await serveAgent(agent);
  await rpc(running.url, "SendMessage", params, headers);
  await running.close();
  running = undefined;
  if (!seen) throw new Error("the skill did not run");
  if ("error" in seen) throw seen.error;
  return seen.value;
}

describe("platform context", () => {
  it("reads the NovaOS context from the request metadata over the message's, and exposes its fields", async () => {
    const seen = await probe(
      (ctx) => ({
        runId: ctx.runId,
        taskId: ctx.taskId,
        threadId: ctx.threadId,
        idempotencyKey: ctx.idempotencyKey,
        config: ctx.config,
        history: ctx.history,
        traceId: ctx.traceId,
      }),
      {
        message: userMessage("hi", {
          metadata: platformContextMetadata({ runId: "from-message", threadId: "thread-m", idempotencyKey: "idem-m" }),
        }),
        metadata: platformContextMetadata({
          runId: "run-7",
          config: { temperature: 0.2 },
          history: [
            { role: "user", content: "earlier" },
            { role: "assistant", content: "answer" },
          ],
          traceId: "0af7651916cd43dd8448eb211c80319c",
        }),
      },
    );
    expect(seen).toEqual({
      runId: "run-7",
      taskId: "run-7",
      threadId: "thread-m",
      idempotencyKey: "idem-m",
      config: { temperature: 0.2 },
      history: [
        { role: "user", content: "earlier" },
        { role: "assistant", content: "answer" },
      ],
      traceId: "0af7651916cd43dd8448eb211c80319c",
    });
  });

  it("prefers the auth-proxy's headers for identity and traceparent for the trace id", async () => {
    const seen = await probe(
      (ctx) => ({
        tenantId: ctx.tenantId,
        userId: ctx.userId,
        agentId: ctx.agentId,
        runId: ctx.runId,
        traceId: ctx.traceId,
        token: ctx.executionContext.executionToken,
      }),
      { message: userMessage("hi"), metadata: platformContextMetadata({ tenantId: "claimed", userId: "claimed" }) },
      {
        ...V1,
        "X-NovaOS-Tenant-Id": "verified-tenant",
        "X-NovaOS-User-Id": "verified-user",
        "X-NovaOS-Agent-Id": "agent-9",
        "X-NovaOS-Run-Id": "run-from-header",
        "X-NovaOS-Execution-Token": "tok",
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      },
    );
    expect(seen).toEqual({
      tenantId: "verified-tenant",
      userId: "verified-user",
      agentId: "agent-9",
      runId: "run-from-header",
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      token: "tok",
    });
  });

  it("defaults to empty values without any context", async () => {
    const seen = await probe((ctx) => [ctx.runId, ctx.idempotencyKey, ctx.history.length, ctx.config], {
      message: userMessage("hi"),
    });
    expect(seen).toEqual(["", "", 0, {}]);
  });
});

describe("output schema", () => {
  it("validateOutput checks a value against the caller's output schema, and passes anything without one", async () => {
    const outputSchema = { type: "object", required: ["total"], properties: { total: { type: "number" } } };
    const [good, bad] = await probe((ctx) => [ctx.validateOutput({ total: 3 }), ctx.validateOutput({ total: "3" })], {
      message: userMessage("hi"),
      metadata: platformContextMetadata({ outputSchema }),
    });
    expect(good).toEqual([]);
    expect(bad).toEqual([{ path: "/total", message: "must be number", keyword: "type" }]);
    expect(await probe((ctx) => ctx.validateOutput("anything"), { message: userMessage("hi") })).toEqual([]);
  });
});

describe("custom headers", () => {
  it("keeps only the caller's own headers, lower-cased", async () => {
    const headers = await probe(
      (ctx) => ctx.customHeaders,
      { message: userMessage("hi") },
      {
        ...V1,
        "X-Customer-Ref": "abc",
        Authorization: "Bearer t",
        "X-NovaOS-Tenant-Id": "t",
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "X-Tenant-ID": "another",
        "Mcp-Session-Id": "s-1",
      },
    );
    expect(headers).toEqual({ "x-customer-ref": "abc" });
  });
});

describe("getSecret", () => {
  const source = (secrets: Record<string, string>, failing: string[] = []): SecretSource => ({
    async getSecret(name) {
      if (failing.includes(name)) throw new SealedEnvelopeError("did not open");
      return secrets[name];
    },
    deliveredNames: () => [...Object.keys(secrets), ...failing],
  });

  it("returns a delivered secret, and the default only for a missing one", async () => {
    const seen = await probe(
      async (ctx) => [
        await ctx.getSecret("SMTP_PASSWORD"),
        await ctx.getSecret("AWS_REGION", { default: "eu-west-1" }),
      ],
      { message: userMessage("hi") },
      V1,
      { secrets: source({ SMTP_PASSWORD: "pw" }) },
    );
    expect(seen).toEqual(["pw", "eu-west-1"]);
  });

  it("throws SecretNotDeliveredError naming what was delivered when there is no default", async () => {
    const error = await probe((ctx) => ctx.getSecret("MISSING"), { message: userMessage("hi") }, V1, {
      secrets: source({ B: "1", A: "2" }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretNotDeliveredError);
    expect((error as SecretNotDeliveredError).details.delivered).toEqual(["A", "B"]);
    expect((error as Error).message).not.toContain("1");
    const noSource = await probe((ctx) => ctx.getSecret("X"), { message: userMessage("hi") }).catch((e: unknown) => e);
    expect(noSource).toBeInstanceOf(SecretNotDeliveredError);
    expect(
      await probe((ctx) => ctx.getSecret("X", { default: undefined }), { message: userMessage("hi") }),
    ).toBeUndefined();
  });

  it("throws for a secret that fails to open, even with a default", async () => {
    const error = await probe(
      (ctx) => ctx.getSecret("BROKEN", { default: "fallback" }),
      { message: userMessage("hi") },
      V1,
      {
        secrets: source({}, ["BROKEN"]),
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SealedEnvelopeError);
  });
});

describe("tools", () => {
  it("builds ctx.tools once per execution from the builder's factory", async () => {
    let built = 0;
    type Tools = { greet(who: string): string };
    const seen = await probe<unknown[], Tools>(
      (ctx) => {
        const first = ctx.tools;
        return [first.greet(ctx.runId), first === ctx.tools];
      },
      { message: userMessage("hi"), metadata: platformContextMetadata({ runId: "r1" }) },
      V1,
      {
        tools: (ctx) => {
          built++;
          return { greet: (who: string) => `tools for ${who} in ${ctx.taskId}` };
        },
      },
    );
    expect(seen).toEqual(["tools for r1 in r1", true]);
    expect(built).toBe(1);
  });

  it("without a factory gives the platform tools, whose calls throw ToolsNotConfiguredError naming MCP_GATEWAY_URL when it is unset", async () => {
    vi.stubEnv("MCP_GATEWAY_URL", "");
    try {
      const [tools, error] = await probe<[unknown, unknown], ToolBindings>(
        async (ctx) => [ctx.tools, await ctx.tools.knowledge.search("x").catch((e: unknown) => e)],
        { message: userMessage("hi") },
      );
      expect(tools).toBeInstanceOf(ToolBindings);
      expect(error).toBeInstanceOf(ToolsNotConfiguredError);
      expect((error as Error).message).toContain("MCP_GATEWAY_URL");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("logger", () => {
  it("binds every line to the execution's run, agent, tenant and task", async () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk, _e, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const taskId = await probe(
      (ctx) => {
        ctx.logger.info({ step: 1 }, "working");
        return ctx.taskId;
      },
      { message: userMessage("hi"), metadata: platformContextMetadata({ runId: "run-3" }) },
      { ...V1, "X-NovaOS-Tenant-Id": "t-1" },
      { logger: createLogger({ destination }) },
    );
    expect(lines.find((l) => l.message === "working")).toMatchObject({
      run_id: "run-3",
      agent_id: "ctx-agent",
      tenant_id: "t-1",
      task_id: taskId,
      step: 1,
    });
  });
});

describe("the inbound request", () => {
  it("exposes the whole message, the request metadata and the accepted output modes", async () => {
    const seen = await probe(
      (ctx) => ({
        parts: ctx.message.parts.length,
        meta: ctx.requestMetadata?.origin,
        modes: ctx.acceptedOutputModes,
      }),
      {
        message: { ...userMessage("a"), parts: [{ text: "a" }, { data: { x: 1 } }] },
        metadata: { origin: "test" },
        configuration: { acceptedOutputModes: ["text/plain"] },
      },
    );
    expect(seen).toEqual({ parts: 2, meta: "test", modes: ["text/plain"] });
  });
});

describe("context accessors the reference names", () => {
  it("secretNames lists what was delivered, sorted; empty without a source", async () => {
    const secrets: SecretSource = {
      getSecret: async () => undefined,
      deliveredNames: () => ["SMTP_PASSWORD", "AWS_REGION"],
    };
    const names = await probe((ctx) => ctx.secretNames, { message: userMessage("hi") }, V1, { secrets });
    expect(names).toEqual(["AWS_REGION", "SMTP_PASSWORD"]);
    expect(await probe((ctx) => ctx.secretNames, { message: userMessage("hi") })).toEqual([]);
  });

  it("mcpWriteHitlActive and memoryBudget read the platform context, with their defaults when absent", async () => {
    const seen = await probe((ctx) => [ctx.mcpWriteHitlActive, ctx.memoryBudget], {
      message: userMessage("hi"),
      metadata: platformContextMetadata({ mcpWriteHitlActive: true, memoryBudget: { tokens: 4000, items: 20 } }),
    });
    expect(seen).toEqual([true, { tokens: 4000, items: 20 }]);
    expect(await probe((ctx) => [ctx.mcpWriteHitlActive, ctx.memoryBudget], { message: userMessage("hi") })).toEqual([
      false,
      undefined,
    ]);
    const empty = await probe((ctx) => ctx.memoryBudget, {
      message: userMessage("hi"),
      metadata: platformContextMetadata({ memoryBudget: {} }),
    });
    expect(empty).toBeUndefined();
  });
});
