import { afterEach, describe, expect, it, vi } from "vitest";
import {
  NovaOSAgentNotFoundError,
  NovaOSAuthenticationError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import {
  LOCAL_CHAT_MODEL,
  LOCAL_EMBEDDING_DIMENSIONS,
  LOCAL_EMBEDDING_MODEL,
  type LocalPlatform,
  NOTHING_FOUND,
  platformEnv,
  startLocalPlatform,
} from "../../src/local-platform/index.js";
import { GatewayClient, LLMClient } from "../../src/platform/index.js";
import { ExecutionContext } from "../../src/runtime/execution-context.js";
import { AgentBuilder, createLogger } from "../../src/server/index.js";
import { platform, serve } from "./support.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

/** An `LLMClient` in sandbox mode: configured by nothing but the environment the platform prints. */
async function sandboxClient(local: LocalPlatform): Promise<LLMClient> {
  for (const [name, value] of Object.entries(platformEnv(local))) vi.stubEnv(name, value);
  return new LLMClient();
}

const cosine = (a: readonly number[], b: readonly number[]) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

const NOTES =
  "Answer from these notes. The 28 tram climbs from Baixa to the castle. Bread needs yeast to rise. " +
  "Pastel de nata is a custard tart from Belém.";

describe("the local LLM gateway answers LLMClient with a deterministic model", () => {
  it("answers a chat from the context it was given, the same every time, with usage counts", async () => {
    const local = await platform();
    await using llm = await sandboxClient(local);
    const ask = () =>
      llm.chat.completions.create({
        model: LOCAL_CHAT_MODEL,
        messages: [
          { role: "system", content: NOTES },
          { role: "user", content: "Which tram climbs to the castle?" },
        ],
      });
    const first = await ask();
    const second = await ask();
    expect(first.choices[0]?.message.content).toBe("The 28 tram climbs from Baixa to the castle.");
    expect(first.choices[0]?.finish_reason).toBe("stop");
    expect(second.choices).toEqual(first.choices);
    expect(second.usage).toEqual(first.usage);
    // Tokens: a word, or one other character, each with the whitespace before it.
    expect(first.usage).toEqual({ prompt_tokens: 38, completion_tokens: 10, total_tokens: 48 });
    const unrelated = await llm.chat.completions.create({
      model: LOCAL_CHAT_MODEL,
      messages: [
        { role: "system", content: NOTES },
        { role: "user", content: "How far is Jupiter?" },
      ],
    });
    expect(unrelated.choices[0]?.message.content).toBe(NOTHING_FOUND);
    expect(local.violations).toEqual([]);
  });

  it("honours max_tokens (finish_reason length), stop and n", async () => {
    const local = await platform();
    await using llm = await sandboxClient(local);
    const messages = [{ role: "user" as const, content: "one two three four five" }];
    const cut = await llm.chat.completions.create({ model: LOCAL_CHAT_MODEL, messages, max_tokens: 3 });
    expect(cut.choices[0]).toMatchObject({ message: { content: "You said:" }, finish_reason: "length" });
    expect(cut.usage?.completion_tokens).toBe(3);
    const stopped = await llm.chat.completions.create({ model: LOCAL_CHAT_MODEL, messages, stop: [" four"], n: 2 });
    expect(stopped.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason])).toEqual([
      [0, "You said: one two three", "stop"],
      [1, "You said: one two three", "stop"],
    ]);
    expect(stopped.usage?.completion_tokens).toBe(12);
  });

  it("calls a tool whose name the question mentions, then reports the tool's result", async () => {
    const local = await platform();
    await using llm = await sandboxClient(local);
    const tools = [
      {
        type: "function" as const,
        function: {
          name: "get_weather",
          parameters: {
            type: "object",
            properties: { city: { type: "string" }, days: { type: "integer" } },
            required: ["city", "days"],
          },
        },
      },
    ];
    const question = { role: "user" as const, content: "What is the weather in Lisbon for 3 days?" };
    const called = await llm.chat.completions.create({ model: LOCAL_CHAT_MODEL, messages: [question], tools });
    const [call] = called.choices[0]?.message.tool_calls ?? [];
    expect(called.choices[0]?.finish_reason).toBe("tool_calls");
    expect(call?.type === "function" && call.function).toEqual({
      name: "get_weather",
      arguments: JSON.stringify({ city: question.content, days: 3 }),
    });
    const answered = await llm.chat.completions.create({
      model: LOCAL_CHAT_MODEL,
      tools,
      messages: [
        question,
        { role: "assistant", content: null, tool_calls: called.choices[0]?.message.tool_calls },
        { role: "tool", tool_call_id: call?.id ?? "", content: "sunny, 24 °C" },
      ],
    });
    expect(answered.choices[0]?.message.content).toBe("get_weather returned: sunny, 24 °C");
    expect(local.violations).toEqual([]);
  });

  it("streams a chat as one chunk per token, in order, the usage chunk last, and the stream closed by [DONE]", async () => {
    const local = await platform();
    const response = await fetch(`${local.urls["llm-gateway"]}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: LOCAL_CHAT_MODEL,
        messages: [{ role: "user", content: "tell me" }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const datas = (await response.text())
      .split("\n\n")
      .filter((frame) => frame.startsWith("data: "))
      .map((frame) => frame.slice("data: ".length));
    expect(datas.at(-1)).toBe("[DONE]");
    const chunks = datas.slice(0, -1).map((data) => JSON.parse(data));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? null)).toEqual([
      "",
      "You",
      " said",
      ":",
      " tell",
      " me",
      null,
      null,
    ]);
    expect(chunks.at(-2).choices[0].finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 5 } });
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);

    await using llm = await sandboxClient(local);
    const stream = await llm.chat.completions.create({
      model: LOCAL_CHAT_MODEL,
      messages: [{ role: "user", content: "tell me" }],
      stream: true,
    });
    let text = "";
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect([text, finish]).toEqual(["You said: tell me", "stop"]);
    expect(local.violations).toEqual([]);
  });

  it("embeds deterministically at the model's dimension, unit length, similar texts closer than unrelated ones", async () => {
    const local = await platform();
    await using llm = await sandboxClient(local);
    const texts = ["the moon pulls the tides", "the tides follow the moon", "bread needs yeast"];
    const embedded = await llm.embeddings.create({ model: LOCAL_EMBEDDING_MODEL, input: texts });
    const again = await llm.embeddings.create({ model: LOCAL_EMBEDDING_MODEL, input: texts[0] as string });
    const vectors = embedded.data.map((item) => item.embedding);
    expect(embedded.data.map((item) => item.index)).toEqual([0, 1, 2]);
    expect(vectors.map((vector) => vector.length)).toEqual([256, 256, 256].map(() => LOCAL_EMBEDDING_DIMENSIONS));
    for (const vector of vectors) expect(cosine(vector, vector)).toBeCloseTo(1, 5);
    // `openai` asks for base64 and decodes it: the float32 round trip is exact to float32 precision.
    expect(again.data[0]?.embedding.map((x) => Math.fround(x))).toEqual(vectors[0]?.map((x) => Math.fround(x)));
    const [moon, tides, bread] = vectors as [number[], number[], number[]];
    expect(cosine(moon, tides)).toBeGreaterThan(cosine(moon, bread) + 0.3);
    expect(embedded.usage).toEqual({ prompt_tokens: 13, total_tokens: 13 });
    const short = await llm.embeddings.create({ model: LOCAL_EMBEDDING_MODEL, input: "moon", dimensions: 8 });
    expect(short.data[0]?.embedding).toHaveLength(8);
    expect(local.violations).toEqual([]);
  });

  it("lists its models and answers an unknown one 404 model_not_found", async () => {
    const local = await platform();
    await using llm = await sandboxClient(local);
    expect(await llm.availableModels()).toEqual([LOCAL_CHAT_MODEL, LOCAL_EMBEDDING_MODEL]);
    expect(await llm.models.retrieve(LOCAL_CHAT_MODEL)).toMatchObject({ id: LOCAL_CHAT_MODEL, object: "model" });
    const missing = await llm.chat.completions
      .create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NovaOSAgentNotFoundError);
    expect(missing).toMatchObject({ details: { status: 404, code: "model_not_found", type: "not_found_error" } });
  });

  it("answers under the model ids it is given, so an agent that names a cluster model runs unchanged", async () => {
    await using local = await startLocalPlatform({ onViolation: () => {}, llm: { chatModels: ["gpt-4o-mini"] } });
    await using llm = new LLMClient({ baseUrl: local.urls["llm-gateway"] });
    expect(await llm.availableModels()).toEqual(["gpt-4o-mini", LOCAL_EMBEDDING_MODEL]);
    const answer = await llm.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hello" }],
    });
    expect([answer.model, answer.choices[0]?.message.content]).toEqual(["gpt-4o-mini", "You said: hello"]);
  });

  it("answers a request that breaks the spec 400 invalid_request_error, a typed NovaOSValidationError", async () => {
    const local = await platform();
    await using llm = await sandboxClient(local);
    const bad = await llm.chat.completions
      .create({ model: LOCAL_CHAT_MODEL, messages: [], max_tokens: 0 })
      .catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(NovaOSValidationError);
    expect(bad).toMatchObject({ details: { status: 400, type: "invalid_request_error" } });
    expect((bad as Error).message).toMatch(/createChatCompletion request does not match openapi\/llm-gateway\.yaml/);
    expect(local.violations.map((violation) => [violation.operationId, violation.direction])).toEqual([
      ["createChatCompletion", "request"],
    ]);
    const tooWide = await llm.embeddings
      .create({ model: LOCAL_EMBEDDING_MODEL, input: "moon", dimensions: LOCAL_EMBEDDING_DIMENSIONS + 1 })
      .catch((error: unknown) => error);
    expect(tooWide).toMatchObject({ details: { status: 400, param: "dimensions" } });
  });

  it("refuses a token that is not the platform's (401) and a model outside the token's llm:model scopes (403)", async () => {
    const local = await platform();
    const grant = { user_id: "u", tenant_id: "local", run_id: "r", instance_id: "i" };
    const context = (executionToken: string) => new ExecutionContext({ executionToken, runId: "r" });
    const baseUrl = local.urls["llm-gateway"];
    await using forged = new LLMClient({ baseUrl, executionContext: context("not-a-token") });
    expect(await forged.availableModels().catch((error: unknown) => error)).toBeInstanceOf(NovaOSAuthenticationError);
    const scoped = await local.tokens.mint({ ...grant, scopes: [`llm:model:${LOCAL_EMBEDDING_MODEL}`] });
    await using narrow = new LLMClient({ baseUrl, executionContext: context(scoped) });
    expect(await narrow.availableModels()).toEqual([LOCAL_EMBEDDING_MODEL]);
    const refused = await narrow.chat.completions
      .create({ model: LOCAL_CHAT_MODEL, messages: [{ role: "user", content: "hi" }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NovaOSAuthenticationError);
    expect(refused).toMatchObject({ details: { status: 403, code: "model_not_allowed" } });
  });

  it("serves a skill started through the gateway that calls the LLM with its run token", async () => {
    const local = await platform();
    const agent = new AgentBuilder({ name: "llm-agent", logger: createLogger({ level: "silent" }) });
    agent.skill("ask", { description: "Asks the model" }, async (ctx, text) => {
      await using llm = new LLMClient({ baseUrl: local.urls["llm-gateway"], executionContext: ctx.executionContext });
      const answer = await llm.chat.completions.create({
        model: LOCAL_CHAT_MODEL,
        messages: [
          { role: "system", content: NOTES },
          { role: "user", content: text },
        ],
      });
      return { output: answer.choices[0]?.message.content ?? "" };
    });
    const { instanceId } = await local.registerAgent({ url: (await serve(agent)).url });
    await using gateway = new GatewayClient({ baseUrl: local.urls.gateway });
    const { runId } = await gateway.execute({ instanceId, inputText: "Where is the custard tart from?" });
    let last: { type: string; payload?: unknown } | undefined;
    for await (const event of gateway.events(runId)) last = event;
    expect(last).toMatchObject({ type: "done", payload: { output: "Pastel de nata is a custard tart from Belém." } });
    expect(local.violations).toEqual([]);
  });
});
